import Foundation
import GRDB
import Testing
@testable import Campaign

/// flyr turf, stats per turf and print --walk-list, read back with real tools (pdftotext).
@Suite(.serialized) struct TurfCommandTests {
    @Test func turfThenWalkListPrintsEveryDoorInWalkingOrder() throws {
        let dir = try CLI.tempDir()
        let c = dir.appendingPathComponent("c.gpkg").path
        let made = try CLI.run(["provision", "--name", "Sample", "--buildings", CLI.sample("buildings.geojson"),
                                "--addresses", CLI.sample("addresses-streetside.geojsonseq"), "--segments", CLI.sample("segments.geojson"), "-o", c])
        #expect(made.status == 0, "\(made.stderr)")
        let pdf = dir.appendingPathComponent("walk.pdf").path
        let early = try CLI.run(["print", c, "--walk-list", "-o", pdf])
        #expect(early.status == 65 && early.stderr.contains("flyr turf") && !FileManager.default.fileExists(atPath: pdf))
        #expect(try CLI.run(["turf", c, "--doors", "0"]).status == 64)

        let cut = try CLI.run(["turf", c, "--doors", "60"])
        #expect(cut.status == 0, "\(cut.stderr)")
        let rows = cut.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        #expect(rows.count >= 5 && rows.reduce(0) { $0 + Int($1[1])! } == 558)
        let stats = try CLI.run(["stats", c])
        #expect(stats.stdout.contains("turf 1: doors \(rows[0][1]),"))

        let printed = try CLI.run(["print", c, "--walk-list", "-o", pdf])
        #expect(printed.status == 0, "\(printed.stderr)")
        let text = try PrintTools.tool("pdftotext", ["-layout", pdf, "-"])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

        let db = try DatabaseQueue(path: c, configuration: { var k = Configuration(); k.readonly = true; return k }())
        let doors = try db.read { try Row.fetchAll($0, sql: "SELECT turf_id, turf_seq, number, street FROM campaign_addresses WHERE turf_id NOT NULL ORDER BY turf_id, turf_seq") }
        try db.close()
        // Each door, turf by turf in walking order, on a later line than the one before:
        // its place, its number, then its street.
        var at = 0, found = 0
        for d in doors {
            let place: Int = d["turf_seq"], number: String = d["number"] ?? "", street: String = d["street"] ?? ""
            if place == 1 {
                while at < lines.count && !lines[at].contains("Turf \(d["turf_id"] as Int) ·") { at += 1 }
            }
            while at < lines.count {
                let words = lines[at].split(separator: " ").map(String.init)
                defer { at += 1 }
                if words.first == "\(place)", let n = words.firstIndex(of: number), lines[at].contains(street),
                   lines[at].range(of: street)!.lowerBound > lines[at].range(of: " \(number) ")!.lowerBound, n > 0 {
                    found += 1
                    break
                }
            }
        }
        #expect(found == 558)
        #expect(try CLI.run(["print", c, "--walk-list", "-o", pdf]).status == 73)

        // Provisioned again from other address points: the turfs are cut again, and said so.
        let again = try CLI.run(["provision", "--name", "Sample", "--buildings", CLI.sample("buildings.geojson"),
                                 "--addresses", CLI.sample("addresses.geojsonseq"), "--segments", CLI.sample("segments.geojson"),
                                 "-o", c, "--force", "--json"])
        #expect(again.status == 0, "\(again.stderr)")
        let recut = try #require(again.stdout.range(of: #""turfs_recut":(\d+)"#, options: .regularExpression).map { again.stdout[$0] })
        let turfs = Int(recut.split(separator: ":")[1])!
        #expect(turfs >= 5 && again.stderr.contains("the turfs were cut again"))
        let db2 = try DatabaseQueue(path: c, configuration: { var k = Configuration(); k.readonly = true; return k }())
        let (stored, unplaced) = try db2.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM turfs")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM campaign_addresses WHERE turf_id IS NULL OR turf_id NOT IN (SELECT turf_id FROM turfs)")!)
        }
        try db2.close()
        #expect(stored == turfs && unplaced == 0)
    }
}
