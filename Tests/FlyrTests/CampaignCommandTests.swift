import Foundation
import Campaign
import GRDB
import Testing

@Suite(.serialized) struct CampaignCommandTests {
    let b = CLI.sample("buildings.geojson"), a = CLI.sample("addresses-streetside.geojsonseq")
    let s = CLI.sample("segments.geojson")

    func provision(_ out: String, _ extra: [String] = []) throws -> CLI.Run {
        try CLI.run(["provision", "--name", "Sample", "--buildings", b, "--addresses", a, "--segments", s, "-o", out] + extra)
    }

    @Test func provisionThenReprovisionIsANoOp() throws {
        let out = try CLI.tempDir().appendingPathComponent("c.gpkg").path
        let first = try provision(out, ["--json"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("\"addresses_saved\":558") && first.stdout.contains("\"unchanged\":false"))
        let refused = try provision(out)
        #expect(refused.status == 73 && refused.stderr.contains("--force"))
        let again = try provision(out, ["--force", "--json"])
        #expect(again.status == 0 && again.stdout.contains("\"unchanged\":true"))
    }

    @Test func markAndStatsAndExports() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        #expect(try provision(out).status == 0)
        let features = try CLI.run(["features", out])
        let fc = try JSONSerialization.jsonObject(with: Data(features.stdout.utf8)) as! [String: Any]
        let first = (fc["features"] as! [[String: Any]]).first { ($0["properties"] as! [String: Any])["feature_status"] as? String == "matched" }!
        let id = (first["properties"] as! [String: Any])["gers_id"] as! String
        #expect(try CLI.run(["mark", out, "--building", id, "--status", "hot"]).status == 0)
        let unknown = try CLI.run(["mark", out, "--building", "nope", "--status", "hot"])
        #expect(unknown.status == 65 && unknown.stderr.contains("nope"))
        let bad = try CLI.run(["mark", out, "--building", id, "--status", "burning"])
        #expect(bad.status == 64 && bad.stderr.contains("hot, visited or not_visited"))
        let stats = try CLI.run(["stats", out, "--json"])
        #expect(stats.stdout.contains("\"visited\":1"))
        let csv = try CLI.run(["export", out, "--csv", "-"])
        let rows = csv.stdout.split(separator: "\n")
        #expect(rows.first?.hasPrefix("seq,address_id,formatted") == true && rows.count == 559)
        let after = try CLI.run(["features", out])
        #expect(after.stdout.contains("\"status\":\"hot\""))
    }

    @Test func fourConcurrentIngestsGiveExactCounters() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        #expect(try provision(out).status == 0)
        let db = try DatabaseQueue(path: out)
        let targets = try db.read { try String.fetchAll($0, sql: "SELECT gers_id FROM campaign_addresses WHERE building_gers_id IS NOT NULL ORDER BY gers_id") }
        try db.close()
        // Four files of 600 events; each shares 150 event ids with the next, and 1 in 20 is a crawler.
        var distinctHuman = Set<String>()
        var files: [String] = []
        for p in 0..<4 {
            var lines: [String] = []
            for i in 0..<600 {
                let n = p * 450 + i
                let bot = n % 20 == 0
                let ua = bot ? "facebookexternalhit/1.1" : "Mozilla/5.0 (iPhone)"
                if !bot { distinctHuman.insert("ev-\(n)") }
                lines.append("{\"event_id\":\"ev-\(n)\",\"address_id\":\"\(targets[n % targets.count])\",\"scanned_at\":\"2026-11-22T10:00:00Z\",\"user_agent\":\"\(ua)\"}")
            }
            let f = dir.appendingPathComponent("events-\(p).jsonl").path
            try lines.joined(separator: "\n").write(toFile: f, atomically: true, encoding: .utf8)
            files.append(f)
        }
        let results = try files.map { f in try CLI.start(["scans", "ingest", out, f]) }.map { try $0.wait() }
        for r in results {
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("locked"))
        }
        let db2 = try DatabaseQueue(path: out)
        let total = try db2.read { try Int.fetchOne($0, sql: "SELECT sum(scans_total) FROM building_stats") }
        let events = try db2.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM scan_events") }
        let addressScans = try db2.read { try Int.fetchOne($0, sql: "SELECT sum(scans) FROM campaign_addresses") }
        #expect(total == distinctHuman.count && events == distinctHuman.count && addressScans == distinctHuman.count)
        let successes = results.map { $0.stdout.components(separatedBy: "\"result\":\"success\"").count - 1 }.reduce(0, +)
        #expect(successes == distinctHuman.count)
    }

    @Test func sigkillDuringProvisionLeavesTheOldOrTheNewCampaign() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        #expect(try provision(out, ["--radius", "50"]).status == 0)
        func state() throws -> (String, Int, Int, String, Int) {
            let db = try DatabaseQueue(path: out)
            defer { try? db.close() }
            let ok = try db.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } ?? ""
            let addresses = try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM campaign_addresses") } ?? -1
            let buildings = try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM rtree_buildings_geom") } ?? -1
            let status = try db.read { try String.fetchOne($0, sql: "SELECT provision_status FROM campaigns") } ?? ""
            let links = try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM building_address_links") } ?? -1
            return (ok, addresses, buildings, status, links)
        }
        let before = try state()
        // How long one full provision takes here, so the ten kills spread over a whole run.
        let clock = ContinuousClock(), t0 = clock.now
        #expect(try provision(out, ["--force", "--radius", "55"]).status == 0)
        let full = clock.now - t0
        let fullMicros = Double(full.components.seconds) * 1e6 + Double(full.components.attoseconds) * 1e-12
        // Kill at spread-out moments of a run until ten runs died midway (runs that finish
        // first are checked too); alternate the settings so every run has real work to do.
        var killed = 0, attempt = 0
        while killed < 10 && attempt < 60 {
            let fraction = Double((attempt * 7) % 19 + 1) / 20   // 0.05 … 0.95, shuffled
            let p = try CLI.start(["provision", "--name", "Sample", "--buildings", b, "--addresses", a, "--segments", s,
                                   "-o", out, "--force", "--radius", attempt % 2 == 0 ? "60" : "50"])
            usleep(useconds_t(fullMicros * fraction))
            if p.kill() { killed += 1 }
            _ = try p.wait()
            let now = try state()
            #expect(now.0 == "ok")
            #expect(now.1 == before.1 && now.2 == before.2 && now.4 == before.4, "attempt \(attempt): \(now)")
            #expect(now.3 == "ready")
            attempt += 1
        }
        #expect(killed == 10)
    }
}

extension CampaignCommandTests {
    @Test func provisionWithinATerritoryKeepsItsAddressesAndTheirBuildings() throws {
        let dir = try CLI.tempDir()
        let territory = dir.appendingPathComponent("t.geojson")
        try #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[-73.741,40.716],[-73.738,40.716],[-73.738,40.718],[-73.741,40.718],[-73.741,40.716]]]}}"#
            .write(to: territory, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("t.gpkg").path
        let r = try provision(out, ["--within", territory.path, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let db = try GeoPackage.open(out, readOnly: true)
        let outside = try db.read { try Int.fetchOne($0, sql: """
            SELECT count(*) FROM campaign_addresses WHERE NOT (ST_MinX(geom) BETWEEN -73.741 AND -73.738 AND ST_MinY(geom) BETWEEN 40.716 AND 40.718)
            """) }
        let dangling = try db.read { try Int.fetchOne($0, sql: """
            SELECT count(*) FROM building_address_links l LEFT JOIN buildings b ON b.gers_id = l.building_id WHERE b.gers_id IS NULL
            """) }
        let addresses = try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM campaign_addresses") } ?? 0
        #expect(outside == 0 && dangling == 0 && addresses > 20 && addresses < 558)
        let both = try provision(out, ["--within", territory.path, "--bbox", "-73.75,40.71,-73.73,40.73", "--force"])
        #expect(both.status == 64)
    }
}
