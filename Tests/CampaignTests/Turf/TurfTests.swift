import Foundation
import GRDB
import Geo
import Testing
@testable import Campaign

@Suite struct TurfTests {
    /// Each address's (turf_id, turf_seq) by gers id.
    static func turfColumns(_ path: String) throws -> [String: [Int?]] {
        let db = try GeoPackage.open(path, readOnly: true)
        defer { try? db.close() }
        return try db.read { db in
            var out: [String: [Int?]] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT gers_id, turf_id, turf_seq FROM campaign_addresses") {
                out[r["gers_id"]] = [r["turf_id"], r["turf_seq"]]
            }
            return out
        }
    }

    /// Every door in one turf, seqs 1...n in each, no block face split, walks shorter than id
    /// order: the checks of a cut, on any campaign file.
    static func checkCut(_ path: String, target: Int) throws -> TurfCutReport {
        let store = try CampaignStore(path: path)
        let report = try store.cutTurfs(doors: target)
        try store.close()
        let columns = try turfColumns(path)
        let placed = columns.values.filter { $0[0] != nil }
        #expect(placed.count == report.doorsInTurfs && report.doorsInTurfs + report.doorsLeftOut == columns.count)
        var seqs: [Int: [Int]] = [:]
        for c in placed { seqs[c[0]!, default: []].append(c[1]!) }
        #expect(seqs.count == report.turfs.count)
        for (_, s) in seqs { #expect(s.sorted() == Array(1...s.count)) }
        // Block faces recomputed from the stored file: each lies in one turf.
        let db = try GeoPackage.open(path, readOnly: true)
        let (fids, doors, roads) = try db.read { try CampaignStore.turfInputs($0) }
        try db.close()
        _ = fids
        let cutter = TurfCutter(doors: doors, roads: roads)
        var turfOfFace: [String: Int] = [:]
        for (i, p) in cutter.places.enumerated() {
            guard let p else { continue }
            let key = "\(p.piece):\(p.side)"
            let t = columns[doors[i].id]![0]!
            #expect(turfOfFace[key, default: t] == t, "block face \(key) split")
            turfOfFace[key] = t
        }
        for t in report.turfs where t.doors.count >= 3 { #expect(t.routeMetres < t.idOrderMetres, "turf \(t.id)") }
        try checkOutlines(path, report, doors: doors)
        return report
    }

    /// The stored outlines are valid, cover their own doors, take in no other turf's door and
    /// overlap no other outline (the shared area of any two is nil, to rounding). `doors` as
    /// the cut read them (the report's door indices point into it).
    static func checkOutlines(_ path: String, _ report: TurfCutReport, doors: [TurfDoor]) throws {
        #expect(report.doorsInOtherOutlines == 0)
        let db = try GeoPackage.open(path, readOnly: true)
        let blobs = try db.read { try Row.fetchAll($0, sql: "SELECT turf_id, geom FROM turfs ORDER BY turf_id").map { ($0[0] as Int, $0[1] as Data) } }
        try db.close()
        let context = GEOSContext()
        let outlines = try blobs.compactMap { id, blob -> Geometry? in
            guard case .multiPolygon(let parts) = try GeoPackageGeometry.decode(blob) else { Issue.record("turf \(id): not a multipolygon"); return nil }
            let g = try Geometry.polygon(context, parts)
            #expect(g.isValid, "turf \(id): \(g.validityReason)")
            return g
        }
        try #require(outlines.count == report.turfs.count)
        for (k, t) in report.turfs.enumerated() {
            let own = try PreparedGeometry(outlines[k])
            for d in t.doors { #expect(try own.covers(Geometry.point(context, doors[d].point)), "turf \(t.id): door \(doors[d].id) outside") }
        }
        for (i, a) in outlines.enumerated() {
            for b in outlines[(i + 1)...] where a.envelope().intersects(b.envelope()) {
                #expect(try a.intersection(b).area() < 1e-13, "turfs \(blobs[i].0) and another overlap")
            }
        }
    }

    @Test func sampleCutKeepsBlockFacesWalksShortAndRecutsTheSame() throws {
        let path = try Fixtures.tempDir().appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let store = try CampaignStore(path: path)
        let building = try #require(try store.db.read { try String.fetchOne($0, sql: "SELECT building_gers_id FROM campaign_addresses WHERE building_gers_id NOT NULL ORDER BY gers_id") })
        try store.mark(building: building, status: "hot")
        try store.close()

        let first = try Self.checkCut(path, target: 60)
        #expect(first.turfs.count >= 5 && first.doorsInTurfs == 558)
        #expect(first.shareWithinBand >= 0.6)
        let before = try Self.turfColumns(path)
        let again = try Self.checkCut(path, target: 60)
        #expect(try Self.turfColumns(path) == before && again.turfs.count == first.turfs.count)

        // A different target replaces the turfs; field data stays.
        let small = try Self.checkCut(path, target: 20)
        #expect(small.turfs.count > first.turfs.count)
        let reopened = try CampaignStore(path: path)
        #expect(try reopened.db.read { try String.fetchOne($0, sql: "SELECT status FROM building_stats WHERE gers_id = ?", arguments: [building]) } == "hot")
        let summaries = try reopened.turfSummaries()
        #expect(summaries.count == small.turfs.count && summaries.reduce(0) { $0 + $1.doors } == 558)
        #expect(summaries.reduce(0) { $0 + $1.visited } >= 1)
        try reopened.close()
        let layers = try Fixtures.ogrinfo(path)
        #expect(layers["turfs"]?.count == small.turfs.count)
    }

    /// Two crossing streets: a residential one (both sides one face) and a primary (each side
    /// its own face), cut at the crossing.
    @Test func quietStreetSidesStayTogetherBusySidesApart() throws {
        let d = 1.0 / LocalPlane.metresPerDegree
        let roads = [
            TurfRoad(id: "r", line: [Coord(0, 0), Coord(200 * d, 0), Coord(400 * d, 0)], roadClass: "residential", nameKey: "elm st"),
            TurfRoad(id: "p", line: [Coord(200 * d, -200 * d), Coord(200 * d, 0), Coord(200 * d, 200 * d)], roadClass: "primary", nameKey: "main st"),
        ]
        var doors: [TurfDoor] = []
        for k in 0..<8 {
            let x = Double(20 + k * 20) * d
            if k < 5 {
                doors.append(TurfDoor(id: "n\(k)", point: Coord(x, 10 * d), streetKey: "elm st", segmentID: nil))
                doors.append(TurfDoor(id: "s\(k)", point: Coord(x, -10 * d), streetKey: "elm st", segmentID: nil))
            }
            doors.append(TurfDoor(id: "e\(k)", point: Coord(210 * d, Double(30 + k * 20) * d), streetKey: "main st", segmentID: nil))
            doors.append(TurfDoor(id: "w\(k)", point: Coord(190 * d, Double(30 + k * 20) * d), streetKey: "main st", segmentID: nil))
        }
        let cutter = TurfCutter(doors: doors, roads: roads)
        let units = cutter.units()
        #expect(units.count == 3)
        #expect(units.map { $0.doors.count }.sorted() == [8, 8, 10])
        // Over 1.25 × target, the quiet street's sides are units of their own.
        #expect(cutter.units(together: 9).map { $0.doors.count }.sorted() == [5, 5, 8, 8])
        let turfs = try cutter.cut(target: 8)
        #expect(turfs.count == 3 && turfs.allSatisfy { $0.routeMetres <= $0.idOrderMetres })
        // The quiet street is walked up one side and back down the other.
        let elm = turfs.first { $0.doors.count == 10 }!
        #expect(Set(elm.doors.prefix(5).map { doors[$0].id.first! }).count == 1)
        // The outlines follow the faces: the primary's two sides, 20 m apart, stay apart, and
        // no door lies in another turf's outline; the hulls say the same here.
        let context = GEOSContext()
        #expect(try cutter.doorsInOtherTurfs(turfs, areas: turfs.map(\.outline), context: context) == 0)
        #expect(try cutter.doorsInOtherTurfs(turfs, areas: turfs.map { [PolygonCoords(rings: [cutter.hull($0.doors)])] }, context: context) == 0)
        // Grown across the primary, an outline would take the other side's doors.
        let wide = try Geometry.polygon(context, turfs.first { doors[$0.doors[0]].id.first == "e" }!.outline)
        let west = try Geometry.point(context, doors.first { $0.id == "w3" }!.point)
        #expect(try !wide.covers(west))
    }

    /// A turf under the band takes a unit its neighbour can spare, never one whose going would
    /// cut the neighbour in two or leave it under the band.
    @Test func aSmallTurfTakesWhatANeighbourCanSpare() {
        let cutter = TurfCutter(doors: [], roads: [])
        func unit(_ x: Double, _ n: Int) -> TurfCutter.Unit {
            TurfCutter.Unit(piece: Int(x), side: 0, doors: Array(0..<n), centroid: Coord(x * 100, 0))
        }
        let units = [unit(0, 8), unit(1, 8), unit(2, 8), unit(3, 8)]
        // A chain 0-1-2-3: the turf of unit 3 alone takes unit 2.
        let chain = [[1], [0, 2], [1, 3], [2]]
        #expect(cutter.rebalanced([[0, 1, 2], [3]], units: units, near: chain, lo: 15, hi: 25) == [[0, 1], [3, 2]])
        // Unit 3 hangs on unit 1, the middle of 0-1-2: taking 1 would cut 0 from 2.
        let hub = [[1], [0, 2, 3], [1], [1]]
        #expect(cutter.rebalanced([[0, 1, 2], [3]], units: units, near: hub, lo: 15, hi: 25) == [[0, 1, 2], [3]])
        // A neighbour at the band's floor spares nothing.
        #expect(cutter.rebalanced([[1, 2], [3]], units: units, near: chain, lo: 15, hi: 25) == [[1, 2], [3]])
    }

    /// A turf no neighbour can spare a unit for is cut afresh with its neighbours: here the
    /// chain 0-…-5 of 8, 8, 8, 8, 8 and 4 doors, cut 16 | 24 | 4, becomes 24 | 20, which no
    /// single move reaches (band 15…25).
    @Test func aTurfOutOfTheBandIsCutAfreshWithItsNeighbours() {
        let cutter = TurfCutter(doors: [], roads: [])
        let units = [8, 8, 8, 8, 8, 4].enumerated().map { k, n in
            TurfCutter.Unit(piece: k, side: 0, doors: Array(0..<n), centroid: Coord(Double(k) * 100, 0))
        }
        let chain = units.indices.map { k in [k - 1, k + 1].filter { units.indices.contains($0) } }
        let balanced = cutter.rebalanced([[0, 1], [2, 3, 4], [5]], units: units, near: chain, lo: 15, hi: 25)
        #expect(balanced == [[0, 1], [2, 3], [5, 4]])
        #expect(cutter.resplit(balanced, units: units, near: chain, lo: 15, hi: 25) == [[0, 1, 2], [3, 4, 5]])
        // A cut must leave every turf in one piece: with 0-1 and 2-…-5 apart, nothing fits.
        var apart = chain
        apart[1] = [0]; apart[2] = [3]
        #expect(cutter.resplit([[0, 1], [2, 3], [4, 5]], units: units, near: apart, lo: 15, hi: 25) == [[0, 1], [2, 3], [4, 5]])
        // Of the four cuts that fit a band of 8…40, the one with the least spread wins.
        var budget = TurfCutter.partitionBudget
        #expect(cutter.partition([0, 1, 2, 3, 4, 5], into: 2, units: units, near: chain, lo: 8, hi: 40, budget: &budget)?.parts
                    .sorted { $0[0] < $1[0] } == [[0, 1, 2], [3, 4, 5]])
    }

    /// Two streets joined by a 100 m road without doors are neighbours for a walk within 250 m,
    /// not for one within 50 m, and never by junction alone.
    @Test func unitsAreJoinedAcrossRoadsWithoutDoors() {
        let d = 1.0 / LocalPlane.metresPerDegree
        let roads = (0..<3).map { k in
            TurfRoad(id: "r\(k)", line: [Coord(Double(k) * 100 * d, 0), Coord(Double(k + 1) * 100 * d, 0)], roadClass: "primary", nameKey: nil)
        }
        let doors = [TurfDoor(id: "a", point: Coord(50 * d, 10 * d), streetKey: nil, segmentID: nil),
                     TurfDoor(id: "b", point: Coord(250 * d, 10 * d), streetKey: nil, segmentID: nil)]
        let cutter = TurfCutter(doors: doors, roads: roads)
        let units = cutter.units()
        #expect(units.count == 2)
        #expect(cutter.neighbours(units) == [[], []])
        #expect(cutter.walkNeighbours(units, reach: 250) == [[1], [0]])
        #expect(cutter.walkNeighbours(units, reach: 50) == [[], []])
        // Two groups, each grown across a gap, count as one piece each.
        let joined = TurfCutter.joiningParts(of: [[0, 1]], [[], []], units: units)
        #expect(TurfCutter.connected([0, 1], near: joined))
    }

    /// A campaign provisioned again over a file with turfs gets its turfs cut again with the same
    /// target: no turf keeps addresses that are gone, every address is in one, the layer agrees.
    @Test func reprovisionCutsTheTurfsAgain() throws {
        let path = try Fixtures.tempDir().appendingPathComponent("c.gpkg").path
        #expect(try Provisioner.provision(try Fixtures.sampleInput(), at: path).turfsRecut == nil)
        let first = try Self.checkCut(path, target: 40)
        let again = try Provisioner.provision(try Fixtures.sampleInput(dropAddresses: 100), at: path)
        let recut = try #require(again.turfsRecut)
        #expect(recut.target == 40 && recut.turfs >= 5 && recut.turfs < first.turfs.count)
        let columns = try Self.turfColumns(path)
        #expect(columns.count == 458 && columns.values.allSatisfy { $0[0] != nil && $0[1] != nil })
        let db = try GeoPackage.open(path, readOnly: true)
        let (stored, counted) = try db.read { db in
            (try Row.fetchAll(db, sql: "SELECT turf_id, doors FROM turfs ORDER BY turf_id").map { [$0[0] as Int, $0[1] as Int] },
             try Row.fetchAll(db, sql: "SELECT turf_id, count(*) FROM campaign_addresses GROUP BY turf_id ORDER BY turf_id").map { [$0[0] as Int, $0[1] as Int] })
        }
        try db.close()
        #expect(stored == counted && stored.count == recut.turfs)
        // The same as cutting the new addresses afresh.
        _ = try Self.checkCut(path, target: 40)
        #expect(try Self.turfColumns(path) == columns)
    }
}
