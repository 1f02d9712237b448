import Foundation
import GRDB
import Geo

/// An open campaign GeoPackage: field status, scans, statistics and exports.
public final class CampaignStore {
    public let path: String
    let db: DatabaseQueue
    public let campaignID: String

    /// Opens an existing campaign file (and brings its schema up to date).
    public init(path: String, readOnly: Bool = false) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw InputError(.fileNotFound, file: path, detail: "no such campaign file")
        }
        guard let existing = try Provisioner.existingCampaign(path) else { throw GeoPackageError.notACampaign(path) }
        self.path = path
        db = try GeoPackage.open(path, readOnly: readOnly)
        if !readOnly { try CampaignSchema.migrator.migrate(db) }
        campaignID = existing.id
    }

    /// Closes the file; throws when SQLite cannot close it cleanly.
    public func close() throws { try db.close() }

    // MARK: status

    public static let statuses = ["hot", "visited", "not_visited"]

    /// Sets a building's field status.
    public func mark(building gersID: String, status: String) throws {
        guard Self.statuses.contains(status) else { throw GeoPackageError.badStatus(status) }
        try db.write { db in
            try db.execute(sql: "UPDATE building_stats SET status = ? WHERE gers_id = ?", arguments: [status, gersID])
            guard db.changesCount == 1 else { throw GeoPackageError.unknownBuilding(gersID) }
        }
    }

    // MARK: statistics

    public struct Stats: Sendable, Equatable {
        public var addresses: Int
        public var buildings: Int
        /// Buildings with at least one address: the campaign's targets.
        public var targetBuildings: Int
        /// Target buildings visited: status visited or hot, or scanned.
        public var visited: Int
        /// Target buildings with at least one scan.
        public var scanned: Int
        public var addressesVisited: Int
        /// scanned / targetBuildings (0 without targets).
        public var scanRate: Double { targetBuildings == 0 ? 0 : Double(scanned) / Double(targetBuildings) }
        /// 100 × visited / targetBuildings (0 without targets).
        public var progressPct: Double { targetBuildings == 0 ? 0 : 100 * Double(visited) / Double(targetBuildings) }
    }

    public func stats() throws -> Stats {
        try db.read { db in
            func n(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql) ?? 0 }
            let target = "b.feature_status = 'matched'"
            return Stats(
                addresses: try n("SELECT count(*) FROM campaign_addresses"),
                buildings: try n("SELECT count(*) FROM buildings"),
                targetBuildings: try n("SELECT count(*) FROM buildings b WHERE \(target)"),
                visited: try n("""
                    SELECT count(*) FROM buildings b JOIN building_stats s ON s.gers_id = b.gers_id
                    WHERE \(target) AND (s.status IN ('visited','hot') OR s.scans_total > 0)
                    """),
                scanned: try n("SELECT count(*) FROM buildings b JOIN building_stats s ON s.gers_id = b.gers_id WHERE \(target) AND s.scans_total > 0"),
                addressesVisited: try n("""
                    SELECT count(*) FROM campaign_addresses a LEFT JOIN building_stats s ON s.gers_id = a.building_gers_id
                    WHERE a.visited = 1 OR s.status IN ('visited','hot') OR coalesce(s.scans_total, 0) > 0
                    """))
        }
    }

    // MARK: exports

    /// The web map's features: one per building, as a GeoJSON FeatureCollection sorted by id;
    /// `house_number` is its first address's (in walking order), `address_text` all of them.
    public func featuresGeoJSON() throws -> String {
        try db.read { db in
            let rows = try Row.fetchCursor(db, sql: """
                SELECT b.geom, b.gers_id, b.height_m, b.levels, b.feature_status, b.address_count,
                       coalesce(s.status, 'not_visited') AS status, coalesce(s.scans_total, 0) AS scans_total,
                       (SELECT group_concat(formatted, '; ') FROM (SELECT formatted FROM campaign_addresses a
                          WHERE a.building_gers_id = b.gers_id ORDER BY a.seq)) AS address_text,
                       (SELECT number FROM campaign_addresses a WHERE a.building_gers_id = b.gers_id ORDER BY a.seq LIMIT 1) AS house_number
                FROM buildings b LEFT JOIN building_stats s ON s.gers_id = b.gers_id ORDER BY b.gers_id
                """)
            var out = "{\"type\":\"FeatureCollection\",\"features\":["
            var first = true
            while let r = try rows.next() {
                let g = try GeoPackageGeometry.decode(r["geom"])
                let scans: Int = r["scans_total"]
                out += first ? "\n" : ",\n"
                first = false
                out += "{\"type\":\"Feature\",\"id\":\(LinkTable.jsonString(r["gers_id"])),\"geometry\":\(GeoJSONWriter.geometry(g)),"
                out += "\"properties\":{\"gers_id\":\(LinkTable.jsonString(r["gers_id"])),"
                out += "\"height_m\":\(GeoJSONWriter.number(r["height_m"])),\"levels\":\((r["levels"] as Int?).map(String.init) ?? "null"),"
                out += "\"status\":\(LinkTable.jsonString(r["status"])),\"scans_total\":\(scans),\"qr_scanned\":\(scans > 0),"
                out += "\"address_text\":\((r["address_text"] as String?).map(LinkTable.jsonString) ?? "null"),"
                out += "\"house_number\":\((r["house_number"] as String?).map(LinkTable.jsonString) ?? "null"),"
                out += "\"address_count\":\(r["address_count"] as Int),\"feature_status\":\(LinkTable.jsonString(r["feature_status"]))}}"
            }
            return out + "]}\n"
        }
    }

    public static let exportHeader = "seq,address_id,formatted,number,street,unit,city,region,postcode,country,building_gers_id,match_method,status,visited,scans,qr_slug,lon,lat"

    /// One row per address for mail merge and printing, in walking order (seq). A campaign made
    /// from a recipient list has one row per recipient instead (an address with two has two),
    /// with `recipient_line` and the list's columns after the address's.
    public func exportCSV() throws -> String {
        try db.read { db in
            let listColumns = try Self.recipientColumns(db)
            let withList = !listColumns.isEmpty
            let rows = try Row.fetchCursor(db, sql: """
                SELECT a.*, coalesce(s.status, '') AS status\(withList ? ", r.line AS recipient_line, r.fields AS recipient_fields" : "")
                FROM campaign_addresses a LEFT JOIN building_stats s ON s.gers_id = a.building_gers_id
                \(withList ? "LEFT JOIN campaign_recipients r ON r.address_gers_id = a.gers_id ORDER BY a.seq, r.line" : "ORDER BY a.seq")
                """)
            var out = Self.exportHeader + (withList ? ",recipient_line," + listColumns.map(LinkTable.csvField).joined(separator: ",") : "") + "\n"
            while let r = try rows.next() {
                guard case .point(let p) = try GeoPackageGeometry.decode(r["geom"]) else { continue }
                let levels = AddressFormat.levelValues(r["address_levels"])
                let city: String? = (r["postal_city"] as String?) ?? (levels.count > 1 ? levels[1] : nil)
                var fields: [String?] = [
                    String(r["seq"] as Int), r["gers_id"], r["formatted"], r["number"], r["street"], r["unit"], city,
                    levels.first, r["postcode"], r["country"], r["building_gers_id"], r["match_method"], r["status"],
                    (r["visited"] as Bool) ? "true" : "false", String(r["scans"] as Int), r["qr_slug"], "\(p.x)", "\(p.y)",
                ]
                if withList {
                    let values = Dictionary(Self.pairs(r["recipient_fields"]), uniquingKeysWith: { a, _ in a })
                    fields.append((r["recipient_line"] as Int?).map(String.init))
                    fields += listColumns.map { values[$0] }
                }
                out += fields.map { LinkTable.csvField($0 ?? "") }.joined(separator: ",") + "\n"
            }
            return out
        }
    }

    /// The recipient list's column names, in the list's order; none for a campaign without a list.
    static func recipientColumns(_ db: Database) throws -> [String] {
        guard try db.tableExists("campaign_recipients") else { return [] }
        var names: [String] = [], seen: Set<String> = []
        for json in try String.fetchAll(db, sql: "SELECT fields FROM campaign_recipients ORDER BY line") {
            for (name, _) in pairs(json) where seen.insert(name).inserted { names.append(name) }
        }
        return names
    }

    /// The [name, value] pairs of a stored recipient row.
    static func pairs(_ json: String?) -> [(String, String)] {
        guard let json, let a = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String]] else { return [] }
        return a.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
    }
}

/// GeoJSON text for stored geometries.
enum GeoJSONWriter {
    static func number(_ v: Double?) -> String {
        guard let v, v.isFinite else { return "null" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }
    static func coords(_ c: [Coord]) -> String { "[" + c.map { "[\($0.x),\($0.y)]" }.joined(separator: ",") + "]" }
    static func geometry(_ g: GeoPackageGeometry) -> String {
        switch g {
        case .point(let c): return "{\"type\":\"Point\",\"coordinates\":[\(c.x),\(c.y)]}"
        case .lineString(let l): return "{\"type\":\"LineString\",\"coordinates\":\(coords(l))}"
        case .multiPolygon(let ps):
            let polys = ps.map { "[" + $0.rings.map(coords).joined(separator: ",") + "]" }
            return "{\"type\":\"MultiPolygon\",\"coordinates\":[\(polys.joined(separator: ","))]}"
        }
    }
}

extension CampaignStore {
    /// A building as a map draws it: footprint, field status and its first house number.
    public struct MapBuildingRow: Sendable {
        public var gersID: String
        public var polygons: [PolygonCoords]
        public var status: String
        public var scansTotal: Int
        public var featureStatus: String
        public var houseNumber: String?
    }

    /// The campaign's name, its buildings (sorted by id, bytewise as SQLite sorts text) and its
    /// roads, for rendering. Sequential scans joined here: the buildings in file order (a
    /// provision writes them sorted by id, so the final sort is usually a check) and the
    /// buildings with a status or scans, in one read transaction; meanwhile each linked
    /// building's first house number, by building id, through a second read-only connection on
    /// another thread (house numbers change only when the campaign is provisioned again),
    /// merged in by walking the two id orders side by side.
    public func mapLayers() throws -> (name: String, buildings: [MapBuildingRow], roads: [(line: [Coord], roadClass: String?, name: String?)]) {
        let numbersRead = SlotResults<[(id: String, number: String?)]>(count: 1)
        let group = DispatchGroup()
        let path = self.path
        DispatchQueue.global().async(group: group) {
            numbersRead.set(0, Result { try Self.firstHouseNumbers(path) })
        }
        defer { group.wait() }
        var (name, buildings, roads) = try db.read { db in
            let name = try String.fetchOne(db, sql: "SELECT name FROM campaigns WHERE id = ?", arguments: [campaignID]) ?? ""
            var stats: [String: (status: String, scans: Int)] = [:]
            let s = try RawRows(db, sql: """
                SELECT gers_id, status, scans_total FROM building_stats WHERE status != 'not_visited' OR scans_total != 0
                """)
            while try s.next() { if let id = s.text(0) { stats[id] = (s.text(1) ?? "not_visited", s.int(2)) } }
            var buildings: [MapBuildingRow] = []
            let rows = try RawRows(db, sql: "SELECT geom, gers_id, feature_status FROM buildings ORDER BY fid")
            var sorted = true
            while try rows.next() {
                guard !rows.isNull(0), let id = rows.text(1),
                      case .multiPolygon(let ps) = try GeoPackageGeometry.decode(bytes: rows.blob(0)) else { continue }
                if sorted, let last = buildings.last, Self.bytewise(last.gersID, id) >= 0 { sorted = false }
                let st = stats.isEmpty ? nil : stats[id]
                buildings.append(MapBuildingRow(gersID: id, polygons: ps, status: st?.status ?? "not_visited", scansTotal: st?.scans ?? 0,
                                                featureStatus: rows.text(2) ?? "matched", houseNumber: nil))
            }
            if !sorted { buildings.sort { Self.bytewise($0.gersID, $1.gersID) < 0 } }
            return (name, buildings, try Self.mapRoads(db))
        }
        group.wait()
        let numbers = try numbersRead.get(0)
        var k = 0
        for i in buildings.indices {
            let id = buildings[i].gersID
            while k < numbers.count, Self.bytewise(numbers[k].id, id) < 0 { k += 1 }
            if k < numbers.count, numbers[k].id == id { buildings[i].houseNumber = numbers[k].number }
        }
        return (name, buildings, roads)
    }

    /// The campaign's name and its roads: what a map shows besides the buildings (which
    /// `CampaignMapReader` reads per view).
    public func mapOverlay() throws -> (name: String, roads: [(line: [Coord], roadClass: String?, name: String?)]) {
        try db.read { db in
            let name = try String.fetchOne(db, sql: "SELECT name FROM campaigns WHERE id = ?", arguments: [campaignID]) ?? ""
            return (name, try Self.mapRoads(db))
        }
    }

    /// The segments as map roads, by id.
    private static func mapRoads(_ db: Database) throws -> [(line: [Coord], roadClass: String?, name: String?)] {
        var roads: [(line: [Coord], roadClass: String?, name: String?)] = []
        let segs = try RawRows(db, sql: "SELECT geom, class, name FROM segments ORDER BY gers_id")
        while try segs.next() {
            guard !segs.isNull(0) else { continue }
            if case .lineString(let l) = try GeoPackageGeometry.decode(bytes: segs.blob(0)) { roads.append((l, segs.text(1), segs.text(2))) }
        }
        return roads
    }

    /// The house number of the first address (in walking order) of each building, in building
    /// id order (bytewise).
    private static func firstHouseNumbers(_ path: String) throws -> [(id: String, number: String?)] {
        let queue = try GeoPackage.open(path, readOnly: true)
        defer { try? queue.close() }
        return try queue.read { db in
            var numbers: [(id: String, number: String?)] = []
            let n = try RawRows(db, sql: """
                SELECT building_gers_id, number FROM campaign_addresses WHERE building_gers_id IS NOT NULL
                ORDER BY building_gers_id, seq
                """)
            while try n.next() {
                guard let id = n.text(0) else { continue }
                if let last = numbers.last, last.id == id { continue }
                numbers.append((id, n.text(1)))
            }
            return numbers
        }
    }

    /// SQLite's order of two texts (BINARY collation): their UTF-8 bytes compared, the shorter
    /// first when one begins the other. Negative, zero or positive.
    static func bytewise(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                let n = min(pa.count, pb.count)
                let c = n == 0 ? 0 : memcmp(pa.baseAddress!, pb.baseAddress!, n)
                return c != 0 ? Int(c) : pa.count - pb.count
            }
        }
    }

    /// True when the file starts like an SQLite database (a GeoPackage is one).
    public static func isSQLiteFile(_ path: String) -> Bool {
        guard let fh = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? fh.close() }
        return (try? fh.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
    }
}
