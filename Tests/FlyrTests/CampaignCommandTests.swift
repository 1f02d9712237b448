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

    /// A SIGKILL at any moment of a provision's write leaves exactly the old campaign or exactly
    /// the new one, row for row (every table, every R-tree through its table's ids), sound
    /// (`integrity_check`, `rtreecheck`); each counted kill is shown to land inside the write
    /// (its progress line printed, its summary not, the process ended by the signal).
    @Test func sigkillDuringAnInPlaceProvisionLeavesTheOldOrTheNewCampaign() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        let radius = ["50", "60"]
        #expect(try provision(out, ["--radius", radius[0]]).status == 0)
        var states: [[String: String]] = []
        var writeSeconds = 0.0
        for r in radius.reversed() + radius.reversed() {
            let (run, seconds) = try timedWrite(["-o", out, "--force", "--radius", r])
            #expect(run.status == 0, "\(run.stderr)")
            writeSeconds = max(writeSeconds, seconds)
            states.append(try CampaignContent.tables(out))
        }
        // The same settings give the same content run after run; the two settings differ.
        #expect(states[0] == states[2] && states[1] == states[3] && states[0] != states[1])
        let known = [states[0], states[1]]
        var killed = 0, attempt = 0
        while killed < 10 && attempt < 40 {
            let fraction = Double((attempt * 7) % 19 + 1) / 20
            let r = radius[attempt % 2]
            let landed = try killInsideWrite(["-o", out, "--force", "--radius", r], after: writeSeconds * fraction)
            // A kill that came after the write ended means the write runs faster now than when it
            // was timed (the machine was busier then): aim earlier from here on.
            if landed { killed += 1 } else { writeSeconds *= 0.7 }
            let now = try CampaignContent.tables(out)
            #expect(known.contains(now), "attempt \(attempt): the campaign is neither the old nor the new one")
            let problems = try CampaignContent.problems(out)
            #expect(problems.isEmpty, "attempt \(attempt): \(problems)")
            attempt += 1
        }
        #expect(killed == 10)
    }

    /// The same for a new file: a kill inside the write leaves no campaign at all (the
    /// temporary file it was building is there, and the next provision sweeps it), and a run
    /// let finish leaves a sound one.
    @Test func sigkillDuringANewProvisionLeavesNoFileAndTheNextRunSweepsItsTemporary() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        let (first, writeSeconds) = try timedWrite(["-o", out])
        #expect(first.status == 0)
        try FileManager.default.removeItem(atPath: out)
        var killed = 0, attempt = 0
        while killed < 5 && attempt < 20 {
            let fraction = Double((attempt * 7) % 19 + 1) / 20
            let inside = try killInsideWrite(["-o", out], after: writeSeconds * fraction)
            if inside && FileManager.default.fileExists(atPath: out) {
                // Killed between the rename and the summary line: the campaign is complete.
                let problems = try CampaignContent.problems(out)
                #expect(problems.isEmpty, "\(problems)")
                try FileManager.default.removeItem(atPath: out)
            } else if inside {
                killed += 1
                let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
                #expect(left.contains { $0.hasPrefix("c.gpkg.flyr-tmp-") }, "\(left)")
            } else {
                try? FileManager.default.removeItem(atPath: out)
            }
            attempt += 1
        }
        #expect(killed == 5)
        #expect(try provision(out).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["c.gpkg"])
        let problems = try CampaignContent.problems(out)
        #expect(problems.isEmpty, "\(problems)")
    }

    var provisionArgs: [String] { ["provision", "--name", "Sample", "--buildings", b, "--addresses", a, "--segments", s] }

    /// A provision run to its end, and the seconds from its first "writing" line to its exit.
    func timedWrite(_ extra: [String]) throws -> (CLI.Run, Double) {
        let p = try CLI.start(provisionArgs + extra)
        let clock = ContinuousClock()
        while p.process.isRunning && !p.stderrSoFar.contains("flyr provision: writing") { usleep(1000) }
        let t0 = clock.now
        let run = try p.wait()
        let d = clock.now - t0
        return (run, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
    }

    /// Starts a provision, waits for its write to begin, sends SIGKILL `seconds` later; true
    /// when the kill landed inside the write (false when the run had finished first).
    func killInsideWrite(_ extra: [String], after seconds: Double) throws -> Bool {
        let p = try CLI.start(provisionArgs + extra)
        while p.process.isRunning && !p.stderrSoFar.contains("flyr provision: writing") { usleep(1000) }
        usleep(useconds_t(seconds * 1e6))
        let sent = p.kill()
        let run = try p.wait()
        // A kill after the summary line (the write done, the process on its way out) did not
        // land inside the write.
        guard sent, p.process.terminationReason == .uncaughtSignal, run.status == SIGKILL,
              !run.stderr.contains("links_created") else { return false }
        #expect(run.stderr.contains("flyr provision: writing"), "\(run.stderr)")
        return true
    }
}

/// A campaign file's content, compared between runs: each table's rows as text, sorted, without
/// what differs between two runs of the same provision (fids, timestamps, the AUTOINCREMENT
/// counters); each R-tree as its table's gers_id and the box, so an entry pointing at no row
/// or at the wrong one shows.
enum CampaignContent {
    static let varying: Set<String> = ["fid", "provisioned_at", "last_change", "update_time"]

    static func tables(_ path: String) throws -> [String: String] {
        let db = try DatabaseQueue(path: path)
        defer { try? db.close() }
        return try db.read { db in
            var out: [String: String] = [:]
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                  AND name NOT GLOB 'rtree_*_node' AND name NOT GLOB 'rtree_*_parent' AND name NOT GLOB 'rtree_*_rowid'
                ORDER BY name
                """)
            for t in names {
                let sql: String
                if t.hasPrefix("rtree_"), t.hasSuffix("_geom") {
                    let table = String(t.dropFirst(6).dropLast(5))
                    // Rows by their feature's stable key (turfs have turf_id, the other layers gers_id).
                    let key = table == "turfs" ? "turf_id" : "gers_id"
                    sql = "SELECT quote(f.\(key)), r.minx, r.maxx, r.miny, r.maxy FROM \(t) r LEFT JOIN \(table) f ON f.fid = r.id"
                } else {
                    let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(t))").map { $0["name"] as String }
                        .filter { !varying.contains($0) }
                    sql = "SELECT " + columns.map { "quote(\($0))" }.joined(separator: ", ") + " FROM \(t)"
                }
                let rows = try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { "\($0)" }.joined(separator: "|") }
                out[t] = rows.sorted().joined(separator: "\n")
            }
            return out
        }
    }

    /// What `integrity_check` and `rtreecheck` find wrong (empty when the file is sound), and a
    /// campaign not marked ready.
    static func problems(_ path: String) throws -> [String] {
        let db = try DatabaseQueue(path: path)
        defer { try? db.close() }
        return try db.read { db in
            var found: [String] = []
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            if integrity != ["ok"] { found += integrity }
            for t in ["buildings", "campaign_addresses", "segments"] {
                let check = try String.fetchOne(db, sql: "SELECT rtreecheck('rtree_\(t)_geom')") ?? ""
                if check != "ok" { found.append("rtree_\(t)_geom: \(check)") }
            }
            let status = try String.fetchAll(db, sql: "SELECT provision_status FROM campaigns")
            if status != ["ready"] { found.append("provision_status \(status)") }
            return found
        }
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
