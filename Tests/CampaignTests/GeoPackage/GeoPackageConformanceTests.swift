import Foundation
import GRDB
import Testing
@testable import Campaign
import Geo

/// A provisioned campaign against GDAL itself: its GeoPackage checker (`validate_gpkg.py`, of
/// Debian's python3-gdal) and `ogrinfo`, which warns on a version it only partly supports.
@Suite(.serialized) struct GeoPackageConformanceTests {
    static let validator = "/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py"

    @Test func gdalsCheckerPassesAndOgrinfoPrintsNoWarning() throws {
        let path = try Fixtures.tempDir().appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let (status, report) = try Fixtures.run("/usr/bin/python3", [Self.validator, path])
        #expect(status == 0, "\(report)")
        #expect(report.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(report)")
        let (ogrStatus, ogr) = try Fixtures.run("ogrinfo", ["-so", "-al", path])
        #expect(ogrStatus == 0)
        #expect(!ogr.contains("Warning") && !ogr.contains("ERROR"), "\(ogr)")
    }

    /// A campaign as flyr wrote it before (GeoPackage 1.4: user_version 10400, the seven
    /// triggers of 1.4, TEXT primary keys in the attribute tables) fails the checker; opened for
    /// writing, it is brought to 1.2 with every row kept, and passes.
    @Test func aCampaignWrittenAs14IsMigratedTo12() throws {
        let dir = try Fixtures.tempDir()
        let current = dir.appendingPathComponent("current.gpkg").path
        let path = dir.appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: current)
        let db = try GeoPackage.open(path)
        try CampaignSchema.migrator.migrate(db, upTo: "004 qr_slug unique index")
        try db.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA user_version = 10400")
            try db.execute(sql: "ATTACH DATABASE ? AS cur", arguments: [current])
            try db.inTransaction {
                for t in ["buildings", "campaign_addresses", "segments"] {
                    try GeoPackage.dropSpatialIndexTriggers(db, table: t)
                    try db.execute(sql: Self.triggers14(t))
                }
                for t in ["campaigns", "buildings", "campaign_addresses", "segments", "building_address_links", "building_stats", "scan_events"] {
                    try Fixtures.copyRows(db, table: t, from: "cur")
                }
                for t in ["buildings", "campaign_addresses", "segments"] { try GeoPackage.updateExtent(db, table: t) }
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE cur")
        }
        let links = try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM building_address_links") }
        try db.close()
        let (oldStatus, oldReport) = try Fixtures.run("/usr/bin/python3", [Self.validator, path])
        #expect(oldStatus != 0, "\(oldReport)")
        try CampaignStore(path: path).close()
        let after = try DatabaseQueue(path: path)
        defer { try? after.close() }
        #expect(try after.read { try Int.fetchOne($0, sql: "PRAGMA user_version") } == 10200)
        #expect(try after.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM building_address_links") } == links)
        #expect(try after.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'") } == 24)  // 6 R-tree triggers × 4 feature tables
        let (status, report) = try Fixtures.run("/usr/bin/python3", [Self.validator, path])
        #expect(status == 0, "\(report)")
    }

    /// GeoPackage 1.4's R-tree triggers (F.3), as earlier campaigns have them.
    static func triggers14(_ t: String) -> String {
        let r = "rtree_\(t)_geom"
        let box = "ST_MinX(NEW.geom), ST_MaxX(NEW.geom), ST_MinY(NEW.geom), ST_MaxY(NEW.geom)"
        let same = "OLD.fid = NEW.fid", moved = "OLD.fid != NEW.fid"
        let new = "(NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))", newEmpty = "(NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))"
        return """
            CREATE TRIGGER \(r)_insert AFTER INSERT ON \(t) WHEN \(new)
            BEGIN INSERT OR REPLACE INTO \(r) VALUES (NEW.fid, \(box)); END;
            CREATE TRIGGER \(r)_update6 AFTER UPDATE OF geom ON \(t)
            WHEN \(same) AND \(new) AND (OLD.geom NOTNULL AND NOT ST_IsEmpty(OLD.geom))
            BEGIN UPDATE \(r) SET minx = ST_MinX(NEW.geom), maxx = ST_MaxX(NEW.geom), miny = ST_MinY(NEW.geom), maxy = ST_MaxY(NEW.geom) WHERE id = NEW.fid; END;
            CREATE TRIGGER \(r)_update7 AFTER UPDATE OF geom ON \(t)
            WHEN \(same) AND \(new) AND (OLD.geom ISNULL OR ST_IsEmpty(OLD.geom))
            BEGIN INSERT INTO \(r) VALUES (NEW.fid, \(box)); END;
            CREATE TRIGGER \(r)_update2 AFTER UPDATE OF geom ON \(t) WHEN \(same) AND \(newEmpty)
            BEGIN DELETE FROM \(r) WHERE id = OLD.fid; END;
            CREATE TRIGGER \(r)_update5 AFTER UPDATE ON \(t) WHEN \(moved) AND \(new)
            BEGIN DELETE FROM \(r) WHERE id = OLD.fid; INSERT OR REPLACE INTO \(r) VALUES (NEW.fid, \(box)); END;
            CREATE TRIGGER \(r)_update4 AFTER UPDATE ON \(t) WHEN \(moved) AND \(newEmpty)
            BEGIN DELETE FROM \(r) WHERE id IN (OLD.fid, NEW.fid); END;
            CREATE TRIGGER \(r)_delete AFTER DELETE ON \(t) WHEN old.geom NOT NULL
            BEGIN DELETE FROM \(r) WHERE id = OLD.fid; END;
            """
    }

    /// The triggers keep the R-tree right through every kind of change: a geometry moved, set
    /// empty and back, a row's fid changed, a row deleted; `rtreecheck` agrees after each.
    @Test func rtreeTriggersFollowEveryChange() throws {
        let path = try Fixtures.tempDir().appendingPathComponent("c.gpkg").path
        _ = try Provisioner.provision(try Fixtures.sampleInput(), at: path)
        let db = try GeoPackage.open(path)
        defer { try? db.close() }
        let moved = GeoPackageGeometry.point(Coord(-73.7, 40.7)).encode()
        let empty = GeoPackageGeometry.multiPolygon([]).encode()
        func entry(_ fid: Int64) throws -> [Double]? {
            try db.read { db in
                try Row.fetchOne(db, sql: "SELECT minx, maxx, miny, maxy FROM rtree_campaign_addresses_geom WHERE id = ?",
                                 arguments: [fid]).map { [$0[0], $0[1], $0[2], $0[3]] }
            }
        }
        func check() throws {
            for t in ["buildings", "campaign_addresses", "segments"] {
                #expect(try db.read { try String.fetchOne($0, sql: "SELECT rtreecheck('rtree_\(t)_geom')") } == "ok")
            }
        }
        let fid = try db.read { try Int64.fetchOne($0, sql: "SELECT min(fid) FROM campaign_addresses") }!
        try db.write { try $0.execute(sql: "UPDATE campaign_addresses SET geom = ? WHERE fid = ?", arguments: [moved, fid]) }
        let e = try #require(try entry(fid))
        #expect(e[0] <= -73.7 && e[1] >= -73.7 && e[2] <= 40.7 && e[3] >= 40.7)
        try check()
        let bfid = try db.read { try Int64.fetchOne($0, sql: "SELECT min(fid) FROM buildings") }!
        try db.write { try $0.execute(sql: "UPDATE buildings SET geom = ? WHERE fid = ?", arguments: [empty, bfid]) }
        #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM rtree_buildings_geom WHERE id = ?", arguments: [bfid]) } == 0)
        try check()
        let newFID = fid + 1_000_000
        try db.write { try $0.execute(sql: "UPDATE campaign_addresses SET fid = ? WHERE fid = ?", arguments: [newFID, fid]) }
        #expect(try entry(fid) == nil && entry(newFID) == e)
        try check()
        try db.write { try $0.execute(sql: "DELETE FROM campaign_addresses WHERE fid = ?", arguments: [newFID]) }
        #expect(try entry(newFID) == nil)
        try check()
    }
}
