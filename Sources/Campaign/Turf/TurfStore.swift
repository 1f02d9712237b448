import Foundation
import GRDB
import Geo

/// A turf as stored, with its field progress.
public struct TurfSummary: Sendable, Equatable {
    public var turfID: Int
    public var doors: Int
    public var blockFaces: Int
    /// The walk through its doors in order, metres.
    public var routeMetres: Double
    /// Doors visited: the address marked, or its building visited, hot or scanned.
    public var visited: Int
    /// Doors whose building has a scan.
    public var scanned: Int
}

/// What a cut did.
public struct TurfCutReport: Sendable {
    public var turfs: [Turf]
    public var doorsInTurfs: Int
    /// Addresses on no walkable road (no turf).
    public var doorsLeftOut: Int
    /// Share of turfs within ±25 % of the target, 0...1.
    public var shareWithinBand: Double
    /// Turfs whose walk is shorter than the same doors in id order, 0...1.
    public var shareShorterThanIDOrder: Double
    /// Doors inside another turf's stored outline (its faces' walks grown by 15 m).
    public var doorsInOtherOutlines: Int
    /// Doors inside another turf's convex hull grown by 15 m: how far turfs interleave.
    public var doorsInOtherHulls: Int
}

extension CampaignStore {
    /// Cuts the campaign's addresses into turfs of about `doors` doors and stores them in one
    /// transaction: the `turfs` layer replaced, every address's `turf_id` and `turf_seq` set
    /// (NULL for an address on no road). Field data (statuses, visits, scans) is not touched.
    public func cutTurfs(doors target: Int) throws -> TurfCutReport {
        precondition(target > 0, "a turf holds at least one door")
        return try db.write { db in try Self.cutTurfs(db, target: target) }
    }

    /// The target of the turfs stored (`target_doors` of the last cut); nil when the campaign
    /// has none (or predates turfs).
    static func storedTurfTarget(_ db: Database) throws -> Int? {
        guard try db.tableExists("turfs") else { return nil }
        return try Int.fetchOne(db, sql: "SELECT target_doors FROM turfs ORDER BY turf_id LIMIT 1")
    }

    /// Cuts and stores the turfs inside the caller's transaction (see `cutTurfs(doors:)`).
    static func cutTurfs(_ db: Database, target: Int) throws -> TurfCutReport {
        let (fids, doors, roads) = try turfInputs(db)
        let cutter = TurfCutter(doors: doors, roads: roads)
        let turfs = try cutter.cut(target: target)
        let context = GEOSContext()
        let inOutlines = try cutter.doorsInOtherTurfs(turfs, areas: turfs.map(\.outline), context: context)
        let inHulls = try cutter.doorsInOtherTurfs(turfs, areas: turfs.map { [PolygonCoords(rings: [cutter.hull($0.doors)])] }, context: context)
        try db.execute(sql: "DELETE FROM turfs")
        try db.execute(sql: "UPDATE campaign_addresses SET turf_id = NULL, turf_seq = NULL")
        let update = try db.makeStatement(sql: "UPDATE campaign_addresses SET turf_id = ?, turf_seq = ? WHERE fid = ?")
        let insert = try db.makeStatement(sql: """
            INSERT INTO turfs (geom, turf_id, doors, block_faces, route_m, target_doors) VALUES (?, ?, ?, ?, ?, ?)
            """)
        for t in turfs {
            try insert.execute(arguments: [GeoPackageGeometry.multiPolygon(t.outline).encode(), t.id, t.doors.count, t.blockFaces, t.routeMetres, target])
            for (k, d) in t.doors.enumerated() { try update.execute(arguments: [t.id, k + 1, fids[d]]) }
        }
        try GeoPackage.updateExtent(db, table: "turfs")
        let inTurfs = turfs.reduce(0) { $0 + $1.doors.count }
        let n = Double(max(turfs.count, 1))
        return TurfCutReport(
            turfs: turfs, doorsInTurfs: inTurfs, doorsLeftOut: doors.count - inTurfs,
            shareWithinBand: Double(turfs.filter { abs(Double($0.doors.count - target)) <= 0.25 * Double(target) }.count) / n,
            shareShorterThanIDOrder: Double(turfs.filter { $0.doors.count < 3 || $0.routeMetres < $0.idOrderMetres }.count) / n,
            doorsInOtherOutlines: inOutlines, doorsInOtherHulls: inHulls)
    }

    /// The addresses (fid, door) in fid order and the walkable road segments, in id order.
    static func turfInputs(_ db: Database) throws -> ([Int64], [TurfDoor], [TurfRoad]) {
        var fids: [Int64] = [], doors: [TurfDoor] = []
        let a = try RawRows(db, sql: "SELECT fid, geom, gers_id, street, segment_gers_id FROM campaign_addresses ORDER BY fid")
        var keys = TextMemo<String?>()
        while try a.next() {
            guard !a.isNull(1), case .point(let p) = try GeoPackageGeometry.decode(bytes: a.blob(1)) else { continue }
            fids.append(Int64(a.int(0)))
            doors.append(TurfDoor(id: a.text(2) ?? "", point: p, streetKey: a.text(3).flatMap { keys.value($0, StreetName.normalize) },
                                  segmentID: a.text(4)))
        }
        var roads: [TurfRoad] = []
        let s = try RawRows(db, sql: "SELECT geom, gers_id, class, name FROM segments ORDER BY gers_id")
        while try s.next() {
            guard !s.isNull(0), case .lineString(let l) = try GeoPackageGeometry.decode(bytes: s.blob(0)) else { continue }
            roads.append(TurfRoad(id: s.text(1) ?? "", line: l, roadClass: s.text(2), nameKey: s.text(3).flatMap { keys.value($0, StreetName.normalize) }))
        }
        return (fids, doors, roads)
    }

    /// The stored turfs with their progress, by turf id; empty when the campaign has none (or
    /// predates turfs).
    public func turfSummaries() throws -> [TurfSummary] {
        try db.read { db in
            guard try db.tableExists("turfs") else { return [] }
            return try Row.fetchAll(db, sql: """
                SELECT t.turf_id, t.doors, t.block_faces, t.route_m,
                  (SELECT count(*) FROM campaign_addresses a LEFT JOIN building_stats s ON s.gers_id = a.building_gers_id
                   WHERE a.turf_id = t.turf_id AND (a.visited = 1 OR s.status IN ('visited','hot') OR coalesce(s.scans_total, 0) > 0)) AS visited,
                  (SELECT count(*) FROM campaign_addresses a JOIN building_stats s ON s.gers_id = a.building_gers_id
                   WHERE a.turf_id = t.turf_id AND s.scans_total > 0) AS scanned
                FROM turfs t ORDER BY t.turf_id
                """).map {
                TurfSummary(turfID: $0["turf_id"], doors: $0["doors"], blockFaces: $0["block_faces"], routeMetres: $0["route_m"],
                            visited: $0["visited"], scanned: $0["scanned"])
            }
        }
    }
}

/// A road near a turf, as its walk-list map draws it.
public struct TurfMapRoad: Sendable {
    /// Degrees.
    public var line: [Coord]
    public var roadClass: String?, name: String?
}

/// A door of a turf as a walk list prints it.
public struct TurfStop: Sendable {
    /// Its place in the turf's walk, from 1.
    public var turfSeq: Int
    public var number: String, street: String, unit: String
    /// Degrees.
    public var location: Coord?
    public var footprint: [PolygonCoords]
}

extension CampaignStore {
    /// The number of addresses in a turf (0 without turfs).
    public func turfDoorCount() throws -> Int {
        try db.read { db in
            guard try db.columns(in: "campaign_addresses").contains(where: { $0.name == "turf_id" }) else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM campaign_addresses WHERE turf_id NOT NULL") ?? 0
        }
    }

    /// Calls `body` with each turf's id, its doors in walking order and the roads that cross
    /// its doors' bounding box grown by 50 m, turf by turf.
    public func forEachTurf(_ body: (Int, [TurfStop], [TurfMapRoad]) throws -> Void) throws {
        try db.read { db in
            var roads: [TurfMapRoad] = []
            let s = try RawRows(db, sql: "SELECT geom, class, name FROM segments ORDER BY gers_id")
            while try s.next() {
                if !s.isNull(0), case .lineString(let l) = try GeoPackageGeometry.decode(bytes: s.blob(0)) {
                    roads.append(TurfMapRoad(line: l, roadClass: s.text(1), name: s.text(2)))
                }
            }
            let rows = try RawRows(db, sql: """
                SELECT a.turf_id, a.turf_seq, a.number, a.street, a.unit, a.geom, b.geom
                FROM campaign_addresses a LEFT JOIN buildings b ON b.gers_id = a.building_gers_id
                WHERE a.turf_id NOT NULL ORDER BY a.turf_id, a.turf_seq
                """)
            var turf = -1, stops: [TurfStop] = []
            func flush() throws {
                guard !stops.isEmpty else { return }
                var box = BBox.empty
                for s in stops { if let l = s.location { box.expand(l) } }
                let m = 50 / LocalPlane.metresPerDegree
                box = BBox(minX: box.minX - 1.5 * m, minY: box.minY - m, maxX: box.maxX + 1.5 * m, maxY: box.maxY + m)
                try body(turf, stops, roads.filter { box.intersects(BBox(covering: $0.line)) })
                stops = []
            }
            while try rows.next() {
                if rows.int(0) != turf { try flush(); turf = rows.int(0) }
                var location: Coord?, footprint: [PolygonCoords] = []
                if !rows.isNull(5), case .point(let p) = try GeoPackageGeometry.decode(bytes: rows.blob(5)) { location = p }
                if !rows.isNull(6), case .multiPolygon(let ps) = try GeoPackageGeometry.decode(bytes: rows.blob(6)) { footprint = ps }
                stops.append(TurfStop(turfSeq: rows.int(1), number: rows.text(2) ?? "", street: rows.text(3) ?? "", unit: rows.text(4) ?? "",
                                      location: location, footprint: footprint))
            }
            try flush()
        }
    }
}

/// One turf as a map draws it.
public struct TurfWalkPath: Sendable, Equatable {
    /// The doors in walking order (`turf_seq`), degrees; a door without a point is skipped.
    public var route: [Coord]
    /// GERS ids of the doors' buildings.
    public var buildingIDs: Set<String>
}

extension CampaignStore {
    /// The stored turf ids, ascending; empty when the campaign has none (or predates turfs).
    public func turfIDs() throws -> [Int] {
        try db.read { db in
            guard try db.tableExists("turfs") else { return [] }
            return try Int.fetchAll(db, sql: "SELECT turf_id FROM turfs ORDER BY turf_id")
        }
    }

    /// Turf `id`'s walk and buildings; nil when no address is in that turf.
    public func turfWalk(_ id: Int) throws -> TurfWalkPath? {
        try db.read { db in
            guard try db.columns(in: "campaign_addresses").contains(where: { $0.name == "turf_id" }) else { return nil }
            let rows = try RawRows(db, sql: """
                SELECT geom, building_gers_id FROM campaign_addresses WHERE turf_id = \(id) ORDER BY turf_seq
                """)
            var walk = TurfWalkPath(route: [], buildingIDs: []), doors = 0
            while try rows.next() {
                doors += 1
                if !rows.isNull(0), case .point(let p) = try GeoPackageGeometry.decode(bytes: rows.blob(0)) { walk.route.append(p) }
                if let b = rows.text(1) { walk.buildingIDs.insert(b) }
            }
            return doors == 0 ? nil : walk
        }
    }
}
