import Foundation
import GRDB
import Testing
@testable import Campaign
import Geo

@Suite(.serialized) struct ProvisionTests {
    @Test func gdalOpensEveryLayerWithTheRightCountsAndExtents() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        let input = try Fixtures.sampleInput()
        let s = try Provisioner.provision(input, at: path)
        #expect(s.addressesSaved == input.addresses.count && s.buildingsSaved == input.buildings.count)
        #expect(s.roadsSaved == input.segments.count && s.linksCreated == input.links.links.filter { $0.buildingID != nil }.count)
        #expect(s.orphanBuildings == input.links.orphanBuildings)
        // The counts kept while writing are those the tables give.
        var counted = try #require(try Provisioner.unchangedCampaign(at: path, fingerprint: input.fingerprint))
        counted.unchanged = false
        #expect(counted == s)

        let layers = try Fixtures.ogrinfo(path)
        let expected: [String: Int] = [
            "buildings": input.buildings.count, "campaign_addresses": input.addresses.count, "segments": input.segments.count,
            "campaigns": 1, "building_address_links": s.linksCreated, "building_stats": input.buildings.count,
            "scan_events": 0, "layer_styles": 3,
        ]
        for (name, count) in expected { #expect(layers[name]?.count == count, "layer \(name)") }
        func close(_ a: [Double]?, _ b: BBox) -> Bool {
            guard let a, a.count == 4 else { return false }
            // ogrinfo prints six decimals.
            return abs(a[0] - b.minX) <= 6e-7 && abs(a[1] - b.minY) <= 6e-7 && abs(a[2] - b.maxX) <= 6e-7 && abs(a[3] - b.maxY) <= 6e-7
        }
        var bx = BBox.empty, ax = BBox.empty, sx = BBox.empty
        for b in input.buildings { bx.expand(b.bbox) }
        for a in input.addresses { ax.expand(a.point) }
        for g in input.segments { sx.expand(g.bbox) }
        #expect(close(layers["buildings"]?.extent, bx))
        #expect(close(layers["campaign_addresses"]?.extent, ax))
        #expect(close(layers["segments"]?.extent, sx))

        let db = try DatabaseQueue(path: path)
        func one<T: DatabaseValueConvertible>(_ sql: String, _ type: T.Type = T.self) throws -> T? { try db.read { try T.fetchOne($0, sql: sql) } }
        #expect(try one("PRAGMA integrity_check", String.self) == "ok")
        #expect(try one("PRAGMA application_id", Int32.self) == GeoPackage.applicationID)
        #expect(try one("PRAGMA user_version", Int.self) == 10200)
        #expect(try one("SELECT count(*) FROM rtree_buildings_geom", Int.self) == input.buildings.count)
        for t in ["buildings", "campaign_addresses", "segments"] {
            #expect(try one("SELECT rtreecheck('rtree_\(t)_geom')", String.self) == "ok")
        }
        #expect(try one("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'rtree_buildings_geom_%'", Int.self) == 6)
        #expect(try one("SELECT count(*) FROM gpkg_extensions WHERE extension_name = 'gpkg_rtree_index'", Int.self) == 4)
        #expect(try one("SELECT provision_status FROM campaigns", String.self) == "ready")
    }

    /// Orientations worked out by a job beside the writing (as `flyr provision` does) give the
    /// campaign that orientations given up front give; a failing job fails the provision and
    /// leaves no file.
    @Test func anOrientationJobWritesTheSameCampaign() throws {
        let dir = try Fixtures.tempDir()
        let given = try Fixtures.sampleInput()
        var deferred = given
        deferred.orientations = []
        deferred.orientationJob = { [given] in
            try Orienter.orientAddressFacings(buildings: given.buildings, addresses: given.addresses,
                                              segments: given.segments, links: given.links)
        }
        let a = dir.appendingPathComponent("a.gpkg").path, b = dir.appendingPathComponent("b.gpkg").path
        _ = try Provisioner.provision(given, at: a)
        _ = try Provisioner.provision(deferred, at: b)
        let columns = "gers_id, building_gers_id, segment_gers_id, road_bearing, house_bearing, is_oriented, seq, formatted"
        func rows(_ path: String) throws -> [Row] {
            try DatabaseQueue(path: path).read { try Row.fetchAll($0, sql: "SELECT \(columns) FROM campaign_addresses ORDER BY fid") }
        }
        let ra = try rows(a), rb = try rows(b)
        #expect(ra == rb && ra.count == given.addresses.count)
        #expect(ra.contains { $0["is_oriented"] == true })

        var failing = given
        failing.orientationJob = { throw ProvisionFault.injected(0) }
        let c = dir.appendingPathComponent("c.gpkg").path
        #expect(throws: ProvisionFault.self) { try Provisioner.provision(failing, at: c) }
        #expect(!FileManager.default.fileExists(atPath: c))
    }

    @Test func spatialIndexAnswersLikeAScanAfterEditsThroughTriggers() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let db = try GeoPackage.open(path)
        try db.write { db in
            // Move one building far away; delete another: the triggers keep the R-tree in step.
            let moved = GeoPackageGeometry.multiPolygon([PolygonCoords(rings: [[Coord(10, 10), Coord(11, 10), Coord(11, 11), Coord(10, 10)]])])
            try db.execute(sql: "UPDATE buildings SET geom = ? WHERE fid = 1", arguments: [moved.encode()])
            try db.execute(sql: "DELETE FROM buildings WHERE fid = 2")
        }
        // The R-tree is a filter (32-bit bounds rounded outward): index candidates, then the exact test.
        let viaIndex = try db.read { try Int.fetchAll($0, sql: """
            SELECT fid FROM buildings WHERE fid IN (SELECT id FROM rtree_buildings_geom
              WHERE minx <= -73.738 AND maxx >= -73.740 AND miny <= 40.718 AND maxy >= 40.716)
            AND ST_MinX(geom) <= -73.738 AND ST_MaxX(geom) >= -73.740 AND ST_MinY(geom) <= 40.718 AND ST_MaxY(geom) >= 40.716 ORDER BY fid
            """) }
        let viaScan = try db.read { try Int.fetchAll($0, sql: "SELECT fid FROM buildings WHERE ST_MinX(geom) <= -73.738 AND ST_MaxX(geom) >= -73.740 AND ST_MinY(geom) <= 40.718 AND ST_MaxY(geom) >= 40.716 ORDER BY fid") }
        #expect(!viaIndex.isEmpty && viaIndex == viaScan)
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM rtree_buildings_geom WHERE id = 1 AND minx = 10") } == 1)
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM rtree_buildings_geom WHERE id = 2") } == 0)
        try db.close()
    }

    @Test func reprovisionOfTheSameInputsChangesNothing() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        let input = try Fixtures.sampleInput()
        let first = try Provisioner.provision(input, at: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let again = try Provisioner.provision(input, at: path)
        #expect(again.unchanged && !first.unchanged)
        #expect(again.campaignID == first.campaignID)
        #expect(try Provisioner.unchangedCampaign(at: path, fingerprint: input.fingerprint) != nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func reprovisionWithNewInputsKeepsFieldDataOfBuildingsThatStillExist() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        let input = try Fixtures.sampleInput()
        let first = try Provisioner.provision(input, at: path)
        let store = try CampaignStore(path: path)
        let kept = input.links.links.compactMap(\.buildingID).sorted().last!
        try store.mark(building: kept, status: "hot")
        let addr = input.links.links.first { $0.buildingID == kept }!.addressID
        let r = try store.ingest([(1, .success(ScanEvent(eventID: "e1", addressID: addr, scannedAt: "2026-11-22T10:00:00.000Z")))])
        #expect(r.map(\.outcome) == [.success])
        try store.close()

        let changed = try Fixtures.sampleInput(settings: "changed")
        let second = try Provisioner.provision(changed, at: path)
        #expect(!second.unchanged && second.campaignID == first.campaignID)
        let db = try DatabaseQueue(path: path)
        let row = try db.read { try Row.fetchOne($0, sql: "SELECT status, scans_total FROM building_stats WHERE gers_id = ?", arguments: [kept]) }!
        #expect(row["status"] as String == "hot" && row["scans_total"] as Int == 1)
        let a = try db.read { try Row.fetchOne($0, sql: "SELECT visited, scans FROM campaign_addresses WHERE gers_id = ?", arguments: [addr]) }!
        #expect(a["visited"] as Bool && a["scans"] as Int == 1)
    }

    @Test func campaignFromBeforeMigration004KeepsItsRowsAndSlugsAndTheirUniqueness() throws {
        let dir = try Fixtures.tempDir()
        let current = dir.appendingPathComponent("current.gpkg").path
        let old = dir.appendingPathComponent("old.gpkg").path
        let input = try Fixtures.sampleInput()
        _ = try Provisioner.provision(input, at: current)
        // A file with the schema up to 003 (qr_slug UNIQUE inline), filled with the same rows.
        let db = try GeoPackage.open(old)
        try CampaignSchema.migrator.migrate(db, upTo: "003 layer styles")
        try db.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS cur", arguments: [current])
            try db.inTransaction {
                // The old file's columns only (later migrations add columns, e.g. 006 qr_base_url).
                for t in ["campaigns", "buildings", "campaign_addresses", "segments", "building_address_links", "building_stats"] {
                    try Fixtures.copyRows(db, table: t, from: "cur")
                }
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE cur")
        }
        func slugs(_ db: DatabaseQueue) throws -> [String: String] {
            try db.read { db in
                Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT gers_id, qr_slug FROM campaign_addresses").map { ($0[0], $0[1]) })
            }
        }
        let before = try slugs(db)
        #expect(before.count == input.addresses.count)
        try CampaignSchema.migrator.migrate(db)
        #expect(try slugs(db) == before)
        try db.read { db in
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            let unique = try Row.fetchAll(db, sql: "PRAGMA index_list(campaign_addresses)").filter { ($0["unique"] as Int) == 1 }.map { $0["name"] as String }
            #expect(unique.contains("campaign_addresses_qr_slug"))
            let triggers = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'campaign_addresses'")
            #expect(triggers == 6)
        }
        // The index holds: a second address with a slug already given is refused.
        #expect(throws: DatabaseError.self) {
            try db.write { db in
                try db.execute(sql: """
                    INSERT INTO campaign_addresses (gers_id, campaign_id, formatted, match_method, confidence, distance_m, street_match, seq, qr_slug)
                    SELECT 'another', campaign_id, '', 'NONE', 0, 0, 0, 0, qr_slug FROM campaign_addresses LIMIT 1
                    """)
            }
        }
        try db.close()
        // Re-provisioned in place, the migrated campaign keeps its slugs and opens in GDAL.
        let again = try Provisioner.provision(try Fixtures.sampleInput(settings: "changed"), at: old)
        #expect(!again.unchanged)
        #expect(try slugs(try DatabaseQueue(path: old)) == before)
        #expect(try Fixtures.ogrinfo(old)["campaign_addresses"]?.count == input.addresses.count)
    }

    @Test func failureMidwayLeavesTheEarlierCampaignIntactAndMarksIt() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let ogrBefore = try Fixtures.ogrinfo(path)
        var failing = try Fixtures.sampleInput(dropBuildings: 50)
        failing.failAfterAddressRows = 100
        #expect(throws: ProvisionFault.self) { try Provisioner.provision(failing, at: path) }
        let after = try Fixtures.ogrinfo(path)
        #expect(after["buildings"] == ogrBefore["buildings"] && after["campaign_addresses"] == ogrBefore["campaign_addresses"])
        let db = try DatabaseQueue(path: path)
        #expect(try db.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        let row = try db.read { try Row.fetchOne($0, sql: "SELECT provision_status, provision_error FROM campaigns") }!
        #expect(row["provision_status"] as String == "failed")
        #expect((row["provision_error"] as String).contains("injected failure"))
    }

    @Test func failureOnANewFileLeavesNoFile() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("new.gpkg").path
        var failing = try Fixtures.sampleInput()
        failing.failAfterAddressRows = 10
        #expect(throws: ProvisionFault.self) { try Provisioner.provision(failing, at: path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// A fault injected into one provision fails that one only: provisions running at the same
    /// time (other suites, other threads) are not touched by it.
    @Test func anInjectedFaultFailsOnlyItsOwnProvision() throws {
        let dir = try Fixtures.tempDir()
        var faulty = try Fixtures.sampleInput()
        faulty.failAfterAddressRows = 1
        let failing = faulty
        let healthy = try Fixtures.sampleInput()
        final class Outcomes: @unchecked Sendable {
            let lock = NSLock()
            var results: [Int: Result<ProvisionSummary, Error>] = [:]
        }
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 8) { k in
            let path = dir.appendingPathComponent("c\(k).gpkg").path
            let r = Result { try Provisioner.provision(k % 2 == 0 ? failing : healthy, at: path) }
            outcomes.lock.withLock { outcomes.results[k] = r }
        }
        for k in 0..<8 {
            if k % 2 == 0 {
                #expect(throws: ProvisionFault.self) { try outcomes.results[k]!.get() }
            } else {
                #expect(try outcomes.results[k]!.get().addressesSaved == healthy.addresses.count)
            }
        }
    }
}

/// The map layers read by three scans joined in Swift give what one SQL join gives.
struct MapLayersTests {
    @Test func mapLayersMatchTheReferenceJoin() throws {
        let dir = try Fixtures.tempDir()
        let path = dir.appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let store = try CampaignStore(path: path)
        let ids = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT gers_id FROM buildings ORDER BY gers_id") }
        try store.mark(building: ids[3], status: "hot")
        try store.mark(building: ids[10], status: "visited")
        try GeoPackage.open(path).write { db in
            try db.execute(sql: "UPDATE building_stats SET scans_total = 4 WHERE gers_id = ?", arguments: [ids[20]])
            // A second address on a linked building, first in walking order: its number wins.
            try db.execute(sql: "UPDATE campaign_addresses SET seq = -1, number = 'first' WHERE fid = (SELECT max(fid) FROM campaign_addresses WHERE building_gers_id IS NOT NULL)")
        }
        let layers = try store.mapLayers()
        let reference = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: """
                SELECT b.gers_id, b.feature_status, coalesce(s.status, 'not_visited') AS status,
                       coalesce(s.scans_total, 0) AS scans_total,
                       (SELECT number FROM campaign_addresses a WHERE a.building_gers_id = b.gers_id ORDER BY a.seq LIMIT 1) AS number
                FROM buildings b LEFT JOIN building_stats s ON s.gers_id = b.gers_id ORDER BY b.gers_id
                """)
        }
        #expect(layers.buildings.count == reference.count)
        for (got, want) in zip(layers.buildings, reference) {
            #expect(got.gersID == want["gers_id"] as String)
            #expect(got.status == want["status"] as String)
            #expect(got.scansTotal == want["scans_total"] as Int)
            #expect(got.featureStatus == want["feature_status"] as String)
            #expect(got.houseNumber == want["number"] as String?)
        }
        #expect(layers.buildings.contains { $0.houseNumber == "first" })
        #expect(layers.buildings.filter { $0.status != "not_visited" || $0.scansTotal > 0 }.count == 3)
    }
}
