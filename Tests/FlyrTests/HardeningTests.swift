import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import GRDB
import Testing

/// Faults, concurrency and hostile values: flyr must fail cleanly or not at all.
@Suite(.serialized) struct HardeningTests {
    let b = CLI.sample("buildings.geojson"), a = CLI.sample("addresses-streetside.geojsonseq")
    let s = CLI.sample("segments.geojson")
    static let bad = CLI.root.appendingPathComponent("Tests/Fixtures/bad").path

    func provision(_ out: String, _ extra: [String] = []) throws -> CLI.Run {
        try CLI.run(["provision", "--name", "Sample", "--buildings", b, "--addresses", a, "--segments", s, "-o", out] + extra)
    }

    /// A campaign of one building and one address, quick to write.
    func tinyCampaign(_ dir: URL, name: String = "Tiny") throws -> String {
        let out = dir.appendingPathComponent("tiny.gpkg").path
        let r = try CLI.run(["provision", "--name", name, "--buildings", Self.bad + "/z-3d.geojson",
                             "--addresses", Self.bad + "/support-address.geojsonseq", "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        return out
    }

    func counts(_ path: String) throws -> (String, Int, Int, Int) {
        let db = try DatabaseQueue(path: path)
        defer { try? db.close() }
        return try db.read { db in
            (try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "",
             try Int.fetchOne(db, sql: "SELECT count(*) FROM campaign_addresses") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM buildings") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM building_address_links") ?? -1)
        }
    }

    // MARK: A full disk

    @Test func fileSizeLimitDuringANewProvisionLeavesNoFile() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        // 256 blocks of 512 bytes: far less than the sample campaign needs.
        let r = try CLI.shell("ulimit -f 256; exec \"$FLYR\" provision --name Full --buildings '\(b)' --addresses '\(a)' --segments '\(s)' -o '\(out)'")
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("flyr: error: cannot write \(out)"))
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }

    @Test func fileSizeLimitDuringAReprovisionKeepsThePreviousCampaign() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        #expect(try provision(out).status == 0)
        let before = try counts(out)
        let r = try CLI.shell("ulimit -f 64; exec \"$FLYR\" provision --name Sample --buildings '\(b)' --addresses '\(a)' --segments '\(s)' -o '\(out)' --force --radius 60")
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("cannot write \(out)"))
        let after = try counts(out)
        #expect(after.0 == "ok" && after.1 == before.1 && after.2 == before.2 && after.3 == before.3, "\(after)")
        // The campaign still opens and answers.
        #expect(try CLI.run(["stats", out, "--json"]).status == 0)
    }

    @Test func fileSizeLimitOnAnOutputFileLeavesNoPartialFile() throws {
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("links.csv").path
        let r = try CLI.shell("ulimit -f 8; exec \"$FLYR\" link --buildings '\(b)' --addresses '\(a)' -o '\(out)'")
        #expect(r.status == 73, "\(r.stderr)")
        #expect(r.stderr.contains("cannot write \(out)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    // MARK: Concurrency

    @Test func eightConcurrentIngestsOfTenThousandEventsGiveExactCounters() throws {
        let dir = try CLI.tempDir()
        let out = try tinyCampaign(dir)
        let db = try DatabaseQueue(path: out)
        let target = try db.read { try String.fetchOne($0, sql: "SELECT gers_id FROM campaign_addresses WHERE building_gers_id IS NOT NULL") }!
        try db.close()
        // Eight files of 10 000 events; each shares 1 000 event ids (10 %) with the next.
        var distinct = Set<Int>()
        var files: [String] = []
        for p in 0..<8 {
            var text = ""
            for i in 0..<10_000 {
                let n = p * 9_000 + i
                distinct.insert(n)
                text += "{\"event_id\":\"ev-\(n)\",\"address_id\":\"\(target)\",\"scanned_at\":\"2026-11-22T10:00:00Z\"}\n"
            }
            let f = dir.appendingPathComponent("events-\(p).jsonl").path
            try text.write(toFile: f, atomically: true, encoding: .utf8)
            files.append(f)
        }
        let results = try files.map { try CLI.start(["scans", "ingest", out, $0]) }.map { try $0.wait() }
        for r in results {
            #expect(r.status == 0, "\(r.stderr)")
            #expect(!r.stderr.contains("locked") && !r.stdout.contains("locked"))
        }
        let successes = results.map { $0.stdout.components(separatedBy: "\"result\":\"success\"").count - 1 }.reduce(0, +)
        let duplicates = results.map { $0.stdout.components(separatedBy: "\"result\":\"duplicate\"").count - 1 }.reduce(0, +)
        #expect(successes == distinct.count && successes + duplicates == 80_000)
        let db2 = try DatabaseQueue(path: out)
        defer { try? db2.close() }
        let (events, total, scans) = try db2.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM scan_events"),
             try Int.fetchOne(db, sql: "SELECT sum(scans_total) FROM building_stats"),
             try Int.fetchOne(db, sql: "SELECT scans FROM campaign_addresses WHERE gers_id = ?", arguments: [target]))
        }
        #expect(events == distinct.count && total == distinct.count && scans == distinct.count)
    }

    // MARK: Hostile values

    @Test func sqlInTheIdsIsStoredAsData() throws {
        let dir = try CLI.tempDir()
        let evil = "'); DROP TABLE buildings;--"
        let evilAddress = "a\"; DELETE FROM campaign_addresses; --"
        let square = "[[[-73.7410,40.7170],[-73.7408,40.7170],[-73.7408,40.7172],[-73.7410,40.7172],[-73.7410,40.7170]]]"
        let buildings = dir.appendingPathComponent("b.geojson").path
        try "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"id\":\"\(evil)\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":\(square)},\"properties\":{}}]}"
            .write(toFile: buildings, atomically: true, encoding: .utf8)
        let addresses = dir.appendingPathComponent("a.geojsonseq").path
        try "{\"type\":\"Feature\",\"id\":\"a\\\"; DELETE FROM campaign_addresses; --\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[-73.7409,40.7171]},\"properties\":{\"number\":\"1'--\",\"street\":\"Main St\"}}\n"
            .write(toFile: addresses, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("c.gpkg").path
        let p = try CLI.run(["provision", "--name", "x'); DROP TABLE campaigns;--", "--buildings", buildings, "--addresses", addresses, "-o", out])
        #expect(p.status == 0, "\(p.stderr)")
        #expect(try CLI.run(["mark", out, "--building", evil, "--status", "hot"]).status == 0)
        let events = dir.appendingPathComponent("e.jsonl").path
        let eventLines = [
            ["event_id": "e1'; DROP TABLE scan_events;--", "gers_id": evil, "scanned_at": "2026-11-22T10:00:00Z"],
            ["event_id": "e2", "address_id": evilAddress, "scanned_at": "2026-11-22T10:01:00Z"],
            ["event_id": "e3", "gers_id": "x' OR '1'='1", "scanned_at": "2026-11-22T10:02:00Z"],
        ].map { String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: .sortedKeys), as: UTF8.self) }
        try eventLines.joined(separator: "\n").write(toFile: events, atomically: true, encoding: .utf8)
        let ingest = try CLI.run(["scans", "ingest", out, events])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(ingest.stdout.components(separatedBy: "\"result\":\"success\"").count - 1 == 2)
        #expect(ingest.stdout.contains("unknown building gers_id 'x' OR '1'='1'"))
        let db = try DatabaseQueue(path: out)
        defer { try? db.close() }
        func strings(_ sql: String, _ args: StatementArguments = []) throws -> [String] {
            try db.read { try String.fetchAll($0, sql: sql, arguments: args) }
        }
        #expect(try strings("SELECT gers_id FROM buildings") == [evil])
        #expect(try strings("SELECT gers_id FROM campaign_addresses") == [evilAddress])
        #expect(try strings("SELECT status FROM building_stats WHERE gers_id = ?", [evil]) == ["hot"])
        #expect(try strings("SELECT CAST(scans_total AS TEXT) FROM building_stats WHERE gers_id = ?", [evil]) == ["2"])
        #expect(try strings("SELECT event_id FROM scan_events ORDER BY event_id") == ["e1'; DROP TABLE scan_events;--", "e2"])
        #expect(try strings("SELECT name FROM campaigns") == ["x'); DROP TABLE campaigns;--"])
        let features = try CLI.run(["features", out])
        let fc = try JSONSerialization.jsonObject(with: Data(features.stdout.utf8)) as! [String: Any]
        #expect(((fc["features"] as! [[String: Any]]).first?["id"] as? String) == evil)
        let csv = try CLI.run(["export", out, "--csv", "-"])
        #expect(csv.stdout.contains("\"a\"\"; DELETE FROM campaign_addresses; --\""))
    }

    @Test func markupInNamesIsEscapedInSVG() throws {
        let dir = try CLI.tempDir()
        let addresses = dir.appendingPathComponent("a.geojsonseq").path
        try "{\"type\":\"Feature\",\"id\":\"a1\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[-73.7409,40.7171]},\"properties\":{\"number\":\"12<b>&amp\",\"street\":\"<script>alert(1)</script> & Main\"}}\n"
            .write(toFile: addresses, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("c.gpkg").path
        let p = try CLI.run(["provision", "--name", "<script>alert('x')</script> Hollis & Co", "--buildings", Self.bad + "/z-3d.geojson",
                             "--addresses", addresses, "-o", out])
        #expect(p.status == 0, "\(p.stderr)")
        let svg = dir.appendingPathComponent("m.svg").path
        let r = try CLI.run(["render", out, "-o", svg])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(!text.contains("<script") && !text.contains("<b>"))
        #expect(!text.contains("& ") && !text.contains("&amp\""))
        // The XML parses: every & starts an entity or a character reference.
        let parser = XMLParser(data: Data(text.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test func everyCommandThatWritesAFileRefusesToReplaceItWithoutForce() throws {
        let dir = try CLI.tempDir()
        let campaign = try tinyCampaign(dir)
        let mine = "my precious file\n"
        let writers: [(String, [String])] = [
            ("links.csv", ["link", "--buildings", b, "--addresses", a, "-o"]),
            ("orient.csv", ["orient", "--buildings", b, "--addresses", a, "--segments", s, "-o"]),
            ("select.csv", ["select", "--addresses", a, "--near", "-73.7405,40.7175", "--count", "5", "--format", "csv", "-o"]),
            ("other.gpkg", ["provision", "--name", "X", "--buildings", b, "--addresses", a, "-o"]),
            ("features.geojson", ["features", campaign, "-o"]),
            ("mail.csv", ["export", campaign, "--csv"]),
            ("map.svg", ["render", campaign, "-o"]),
            ("manifest.csv", ["export", campaign, "--vdp"]),
            ("codes.zip", ["qr", campaign, "-o"]),
            ("labels.pdf", ["print", campaign, "--labels", "avery-5160", "-o"]),
        ]
        for (name, args) in writers {
            let target = dir.appendingPathComponent(name).path
            try mine.write(toFile: target, atomically: true, encoding: .utf8)
            let refused = try CLI.run(args + [target])
            #expect(refused.status == 73, "\(args[0]): \(refused.stderr)")
            #expect(refused.stderr.contains("\(target) exists; add --force to replace it"), "\(args[0]): \(refused.stderr)")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == mine, "\(args[0]) touched \(name)")
            let forced = try CLI.run(args + [target, "--force"])
            #expect(forced.status == 0, "\(args[0]) --force: \(forced.stderr)")
            #expect(try String(contentsOfFile: target, encoding: .isoLatin1) != mine)
        }
    }
}
