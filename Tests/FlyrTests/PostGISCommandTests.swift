import Foundation
import Campaign
import GRDB
import PostgresNIO
import Testing

/// The PostGIS store against a real server: `make test` starts a throwaway PostgreSQL 15 with
/// PostGIS (scripts/with-postgres.sh) and passes its URL in FLYR_TEST_POSTGRES_URL. Without it
/// every test here fails with a message saying so: they never pass without a server.
@Suite(.serialized) struct PostGISCommandTests: PostGISTesting {
    let b = CLI.sample("buildings.geojson"), a = CLI.sample("addresses-streetside.geojsonseq")
    let s = CLI.sample("segments.geojson")
    static let box = "-73.742,40.716,-73.738,40.719"

    @Test func pushMatchesTheFileAndASecondPushIsANoOp() async throws {
        guard let url = try await freshDatabase() else { return }
        let gpkg = try CLI.tempDir().appendingPathComponent("c.gpkg").path
        #expect(try provision(gpkg).status == 0)
        let start = ContinuousClock.now
        let first = try CLI.run(["push", gpkg, "--postgres", url, "--json"])
        let pushTime = ContinuousClock.now - start
        #expect(first.status == 0, "\(first.stderr)")
        let summary = json(first.stdout)
        let id = try #require(summary["campaign_id"] as? String)
        #expect(summary["unchanged"] as? Bool == false)
        #expect((summary["migrations_applied"] as? [String]) == PostGISSchema.migrations.map(\.name))
        print("push of the sample campaign: \(pushTime)")

        // Row counts equal the GeoPackage's.
        let file = try DatabaseQueue(path: gpkg)
        for (table, keyed) in [("buildings", false), ("campaign_addresses", true), ("segments", false), ("building_address_links", true),
                               ("building_stats", false), ("scan_events", false)] {
            let n = try await file.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? -1 }
            let m = try await int(url, PostgresQuery(unsafeSQL: "SELECT count(*)::int8 FROM \(table) WHERE campaign_id = $1",
                                                     binds: { var b = PostgresBindings(); b.append(id); return b }()))
            #expect(n == m, "\(table): \(n) in the file, \(m) in PostGIS (keyed \(keyed))")
        }
        try file.close()
        // Every geometry valid, with SRID 4326.
        for table in ["buildings", "campaign_addresses", "segments"] {
            let bad = try await int(url, PostgresQuery(unsafeSQL: "SELECT count(*)::int8 FROM \(table) WHERE NOT ST_IsValid(geom) OR ST_SRID(geom) <> 4326"))
            #expect(bad == 0, "\(table): \(bad) invalid geometries")
        }
        // The same ids from the file (R-tree + exact test), PostGIS (&& + ST_Intersects) and the extracts.
        let fromFile = try CLI.run(["query", gpkg, "--bbox", Self.box])
        let fromDB = try CLI.run(["query", "--postgres", url, "--campaign", id, "--bbox", Self.box])
        let fromExtracts = try CLI.run(["query", "--buildings", b, "--addresses", a, "--segments", s, "--bbox", Self.box])
        #expect(fromFile.status == 0 && fromDB.status == 0, "\(fromFile.stderr) \(fromDB.stderr)")
        #expect(!ids(fromFile.stdout).isEmpty)
        #expect(ids(fromFile.stdout) == ids(fromDB.stdout))
        #expect(ids(fromFile.stdout) == ids(fromExtracts.stdout))
        // The query plan uses the GiST index.
        let plan = try await withStore(url) { store in
            try await store.db.rows("SET enable_seqscan = off", "test")
            return try await store.db.rows("""
                EXPLAIN SELECT gers_id FROM buildings WHERE geom && ST_MakeEnvelope(-73.742, 40.716, -73.738, 40.719, 4326)
                """, "explain").map { try $0.decode(String.self) }.joined(separator: "\n")
        }
        #expect(plan.contains("buildings_geom"), "\(plan)")

        // A second push changes nothing and says so.
        let before = try await withStore(url) { store in
            try await store.db.rows("SELECT pushed_at::text FROM campaigns WHERE id = \(id)", "test")[0].decode(String.self)
        }
        let second = try CLI.run(["push", gpkg, "--postgres", url, "--json"])
        #expect(second.status == 0 && json(second.stdout)["unchanged"] as? Bool == true, "\(second.stdout)")
        let after = try await withStore(url) { store in
            try await store.db.rows("SELECT pushed_at::text FROM campaigns WHERE id = \(id)", "test")[0].decode(String.self)
        }
        #expect(before == after)
        let text = try CLI.run(["push", gpkg, "--postgres", url])
        #expect(text.status == 0 && text.stderr.contains("nothing changed"))
    }

    @Test func pushAfterReprovisionKeepsFieldDataOfBuildingsThatStillExist() async throws {
        guard let url = try await freshDatabase() else { return }
        let dir = try CLI.tempDir()
        let gpkg = dir.appendingPathComponent("c.gpkg").path
        #expect(try provision(gpkg).status == 0)
        let id = try #require(json(try CLI.run(["push", gpkg, "--postgres", url, "--json"]).stdout)["campaign_id"] as? String)
        // One matched building inside the box (kept by the narrower provision), one far outside (dropped).
        let (inside, outside) = try await withStore(url) { store -> (String, String) in
            let i = try await store.db.rows("""
                SELECT gers_id FROM buildings WHERE campaign_id = \(id) AND feature_status = 'matched'
                  AND ST_Intersects(geom, ST_MakeEnvelope(-73.742, 40.716, -73.738, 40.719, 4326)) ORDER BY gers_id LIMIT 1
                """, "test")[0].decode(String.self)
            let o = try await store.db.rows("""
                SELECT gers_id FROM buildings WHERE campaign_id = \(id)
                  AND NOT geom && ST_Expand(ST_MakeEnvelope(-73.742, 40.716, -73.738, 40.719, 4326), 0.002) ORDER BY gers_id LIMIT 1
                """, "test")[0].decode(String.self)
            try await store.db.rows("UPDATE building_stats SET status = 'hot' WHERE campaign_id = \(id) AND gers_id IN (\(i), \(o))", "test")
            return (i, o)
        }
        let scans = dir.appendingPathComponent("scans.jsonl")
        try "{\"event_id\":\"r1\",\"gers_id\":\"\(inside)\",\"scanned_at\":\"2026-11-22T14:05:00Z\"}\n".write(to: scans, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["scans", "ingest", "--postgres", url, "--campaign", id, scans.path]).status == 0)

        let again = try provision(gpkg, ["--force", "--bbox", Self.box])
        #expect(again.status == 0, "\(again.stderr)")
        let push = try CLI.run(["push", gpkg, "--postgres", url, "--json"])
        let summary = json(push.stdout)
        #expect(push.status == 0 && summary["unchanged"] as? Bool == false && summary["campaign_id"] as? String == id, "\(push.stderr)")
        let file = try DatabaseQueue(path: gpkg)
        let (fileBuildings, fileLinks) = try await file.read {
            (try Int.fetchOne($0, sql: "SELECT count(*) FROM buildings") ?? -1, try Int.fetchOne($0, sql: "SELECT count(*) FROM building_address_links") ?? -1)
        }
        try file.close()
        #expect(summary["buildings"] as? Int == fileBuildings && summary["links"] as? Int == fileLinks)
        try await withStore(url) { store in
            let row = try await store.db.rows("SELECT status, scans_total FROM building_stats WHERE campaign_id = \(id) AND gers_id = \(inside)", "test")
            let (status, total) = try row[0].decode((String, Int).self)
            #expect(status == "hot" && total == 1)
            let gone = try await store.db.rows("SELECT count(*)::int8 FROM building_stats WHERE campaign_id = \(id) AND gers_id = \(outside)", "test")
            #expect(try gone[0].decode(Int.self) == 0)
            let stats = try await store.db.rows("SELECT count(*)::int8 FROM building_stats WHERE campaign_id = \(id)", "test")
            #expect(try stats[0].decode(Int.self) == fileBuildings)
        }
    }

    @Test func fourConcurrentIngestsGiveExactCounters() async throws {
        guard let url = try await freshDatabase() else { return }
        let dir = try CLI.tempDir()
        let gpkg = dir.appendingPathComponent("c.gpkg").path
        #expect(try provision(gpkg).status == 0)
        let id = try #require(json(try CLI.run(["push", gpkg, "--postgres", url, "--json"]).stdout)["campaign_id"] as? String)
        let targets = try await withStore(url) { store in
            try await store.db.rows("SELECT gers_id FROM buildings WHERE campaign_id = \(id) AND feature_status = 'matched' ORDER BY gers_id LIMIT 40", "test")
                .map { try $0.decode(String.self) }
        }
        // Four files of 200 events; each shares 50 event ids with the next; 1 in 20 is a crawler.
        var expected: [String: Int] = [:]
        var seen = Set<String>()
        var files: [String] = []
        for p in 0..<4 {
            var lines: [String] = []
            for i in 0..<200 {
                let n = p * 150 + i
                let bot = n % 20 == 0
                let target = targets[n % targets.count]
                let ua = bot ? "Mozilla/5.0 (compatible; Googlebot/2.1)" : "Mozilla/5.0 (iPhone)"
                lines.append("{\"event_id\":\"ev-\(n)\",\"gers_id\":\"\(target)\",\"scanned_at\":\"2026-11-22T14:\(String(format: "%02d", n % 60)):00Z\",\"user_agent\":\"\(ua)\"}")
                if !bot, seen.insert("ev-\(n)").inserted { expected[target, default: 0] += 1 }
            }
            let f = dir.appendingPathComponent("scans\(p).jsonl")
            try (lines.joined(separator: "\n") + "\n").write(to: f, atomically: true, encoding: .utf8)
            files.append(f.path)
        }
        let runs = try files.map { try CLI.start(["scans", "ingest", "--postgres", url, "--campaign", id, $0]) }
        var successes = 0
        for r in runs {
            let done = try r.wait()
            #expect(done.status == 0, "\(done.stderr)")
            successes += done.stdout.split(separator: "\n").filter { $0.contains("\"result\":\"success\"") }.count
        }
        #expect(successes == seen.count)
        try await withStore(url) { store in
            let events = try await store.db.rows("SELECT count(*)::int8 FROM scan_events WHERE campaign_id = \(id)", "test")
            #expect(try events[0].decode(Int.self) == seen.count)
            for row in try await store.db.rows("SELECT gers_id, scans_total, scans_today, status FROM building_stats WHERE campaign_id = \(id) AND scans_total > 0", "test") {
                let (g, total, today, status) = try row.decode((String, Int, Int, String).self)
                #expect(total == expected[g] && today == total && status == "visited", "\(g)")
            }
            let sum = try await store.db.rows("SELECT sum(scans_total)::int8 FROM building_stats WHERE campaign_id = \(id)", "test")
            #expect(try sum[0].decode(Int.self) == seen.count)
        }
    }

    @Test func pullThenRenderShowsTheFieldWork() async throws {
        guard let url = try await freshDatabase() else { return }
        let dir = try CLI.tempDir()
        let gpkg = dir.appendingPathComponent("c.gpkg").path
        #expect(try provision(gpkg).status == 0)
        let id = try #require(json(try CLI.run(["push", gpkg, "--postgres", url, "--json"]).stdout)["campaign_id"] as? String)
        let hot = try await withStore(url) { store in
            let g = try await store.db.rows("SELECT gers_id FROM buildings WHERE campaign_id = \(id) AND feature_status = 'matched' ORDER BY gers_id LIMIT 1", "test")[0].decode(String.self)
            try await store.db.rows("UPDATE building_stats SET status = 'hot' WHERE campaign_id = \(id) AND gers_id = \(g)", "test")
            return g
        }
        let scans = dir.appendingPathComponent("scans.jsonl")
        try "{\"event_id\":\"p1\",\"gers_id\":\"\(hot)\",\"scanned_at\":\"2026-11-22T14:05:00.250+02:00\"}\n".write(to: scans, atomically: true, encoding: .utf8)
        #expect(try CLI.run(["scans", "ingest", "--postgres", url, "--campaign", id, scans.path]).status == 0)

        let pulled = dir.appendingPathComponent("pulled.gpkg").path
        let pull = try CLI.run(["pull", "--postgres", url, "--campaign", id, "-o", pulled])
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(try CLI.run(["pull", "--postgres", url, "--campaign", id, "-o", pulled]).status == 73)
        let store = try CampaignStore(path: pulled, readOnly: true)
        let snap = try store.snapshot()
        try store.close()
        let original = try CampaignStore(path: gpkg, readOnly: true)
        let before = try original.snapshot()
        try original.close()
        // JSON columns are jsonb in PostGIS: the same JSON, not always the same text.
        var campaign = snap.campaign
        #expect(jsonArray(campaign.sourceFiles) == jsonArray(before.campaign.sourceFiles))
        campaign.sourceFiles = before.campaign.sourceFiles
        #expect(campaign == before.campaign)
        #expect(snap.buildings.map(\.gersID) == before.buildings.map(\.gersID) && snap.buildings.map(\.polygons) == before.buildings.map(\.polygons))
        #expect(snap.addresses.map(\.point) == before.addresses.map(\.point) && snap.addresses.map(\.qrSlug) == before.addresses.map(\.qrSlug))
        #expect(snap.segments.map(\.line) == before.segments.map(\.line) && snap.links == before.links)
        let row = try #require(snap.stats.first { $0.gersID == hot })
        #expect(row.status == "hot" && row.scansTotal == 1 && row.lastScanAt == "2026-11-22T12:05:00.250Z" && row.scansDay == "2026-11-22")
        #expect(snap.events.map(\.eventID) == ["p1"])
        let stats = try CLI.run(["stats", pulled, "--json"])
        #expect(stats.stdout.contains("\"scanned\":1"))
        let png = dir.appendingPathComponent("map.png").path
        let render = try CLI.run(["render", pulled, "-o", png, "--size", "400x300"])
        #expect(render.status == 0 && render.stderr.contains("scanned 1"), "\(render.stderr)")
        let direct = try CLI.run(["render", "--postgres", url, "--campaign", id, "-o", dir.appendingPathComponent("db.png").path, "--size", "400x300"])
        #expect(direct.status == 0 && direct.stderr.contains("scanned 1"), "\(direct.stderr)")
        // Street names come from the database's segments as from the file's.
        let names = { (s: String) in s.components(separatedBy: " street names").first?.split(separator: " ").last.map(String.init) }
        #expect(names(direct.stderr) == names(render.stderr) && (Int(names(direct.stderr) ?? "") ?? 0) > 0, "\(direct.stderr)")
        // Pushing the pulled file back changes nothing.
        let back = try CLI.run(["push", pulled, "--postgres", url, "--json"])
        #expect(back.status == 0 && json(back.stdout)["unchanged"] as? Bool == true)
    }

    @Test func connectionPostGISAndSchemaErrorsHaveTheirExitCodes() async throws {
        guard let url = try await freshDatabase() else { return }
        let gpkg = try CLI.tempDir().appendingPathComponent("c.gpkg").path
        #expect(try provision(gpkg).status == 0)
        // Nothing listens on port 1 of the loopback.
        let refused = try CLI.run(["push", gpkg, "--postgres", "postgres://postgres@127.0.0.1:1/flyr"])
        #expect(refused.status == 69 && refused.stderr.contains("cannot connect to postgres://postgres@127.0.0.1:1/flyr"), "\(refused.stderr)")
        let badURL = try CLI.run(["push", gpkg, "--postgres", "mysql://x"])
        #expect(badURL.status == 64)
        // A database without PostGIS: reads say so; a role that may not create it cannot push.
        let noPostGIS = try CLI.run(["query", "--postgres", url, "--campaign", "x", "--bbox", Self.box])
        #expect(noPostGIS.status == 78 && noPostGIS.stderr.contains("CREATE EXTENSION postgis"), "\(noPostGIS.stderr)")
        let role = "flyr_plain_" + String(UUID().uuidString.prefix(8)).lowercased()
        try await withStore(url) { store in
            try await store.db.rows("CREATE ROLE \(unescaped: role) LOGIN", "test")
            try await store.db.rows("GRANT ALL ON SCHEMA public TO \(unescaped: role)", "test")
        }
        var plain = URLComponents(string: url)!
        plain.user = role
        let denied = try CLI.run(["push", gpkg, "--postgres", plain.string!])
        #expect(denied.status == 78 && denied.stderr.contains("may not create it"), "\(denied.stderr)")

        // A schema behind: reads refuse and name the fix; push applies the missing migration.
        let first = try CLI.run(["push", gpkg, "--postgres", url, "--json"])
        let id = try #require(json(first.stdout)["campaign_id"] as? String)
        try await withStore(url) { store in
            for index in ["buildings_geom", "campaign_addresses_geom", "segments_geom", "campaigns_bbox"] {
                try await store.db.rows("DROP INDEX \(unescaped: index)", "test")
            }
            try await store.db.rows("DELETE FROM flyr_migrations WHERE id = 2", "test")
        }
        let behind = try CLI.run(["query", "--postgres", url, "--campaign", id, "--bbox", Self.box])
        #expect(behind.status == 76 && behind.stderr.contains("has 1 of this flyr's \(PostGISSchema.migrations.count) migrations"), "\(behind.stderr)")
        let catchUp = try CLI.run(["push", gpkg, "--postgres", url, "--json"])
        #expect(catchUp.status == 0 && (json(catchUp.stdout)["migrations_applied"] as? [String]) == ["002 spatial indexes"], "\(catchUp.stderr)")
        // A schema ahead (a newer flyr): every command refuses.
        try await withStore(url) { store in try await store.db.rows("INSERT INTO flyr_migrations (id, name) VALUES (99, '099 from the future')", "test") }
        let ahead = try CLI.run(["push", gpkg, "--postgres", url])
        #expect(ahead.status == 76 && ahead.stderr.contains("099 from the future") && ahead.stderr.contains("newer flyr"), "\(ahead.stderr)")
        let aheadRead = try CLI.run(["pull", "--postgres", url, "--campaign", id, "-o", gpkg + ".pulled.gpkg"])
        #expect(aheadRead.status == 76)
        // An unknown campaign.
        try await withStore(url) { store in try await store.db.rows("DELETE FROM flyr_migrations WHERE id = 99", "test") }
        let missing = try CLI.run(["pull", "--postgres", url, "--campaign", "nope", "-o", gpkg + ".nope.gpkg"])
        #expect(missing.status == 66 && missing.stderr.contains("no campaign 'nope'"), "\(missing.stderr)")
    }
}
