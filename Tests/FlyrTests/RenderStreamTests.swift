import Foundation
import GRDB
import Testing

/// flyr render on a campaign GeoPackage streams the view's buildings from the file: the same
/// map as with every building loaded (--load-all), and a zoomed view reads only its part.
@Suite(.serialized) struct RenderStreamTests {
    /// The sample campaign with hot, visited and scanned buildings (every status painted).
    static func campaign(_ dir: URL) throws -> String {
        let c = try RenderTurfTests.campaign(dir)
        let ids = try DatabaseQueue(path: c).read { db in
            try String.fetchAll(db, sql: "SELECT gers_id FROM buildings WHERE feature_status = 'matched' ORDER BY gers_id LIMIT 30")
        }
        for (i, id) in ids.enumerated() where i % 3 != 2 {
            #expect(try CLI.run(["mark", c, "--building", id, "--status", i % 3 == 0 ? "hot" : "visited"]).status == 0)
        }
        try DatabaseQueue(path: c).write { db in
            try db.execute(sql: "UPDATE building_stats SET scans_total = 3 WHERE gers_id IN (\(ids.suffix(6).map { "'\($0)'" }.joined(separator: ",")))")
        }
        return c
    }

    /// Renders `c` streamed and with --load-all; both files' bytes and the streamed stderr.
    static func both(_ c: String, _ dir: URL, _ name: String, _ args: [String]) throws -> (streamed: Data, loaded: Data, stderr: String) {
        let s = dir.appendingPathComponent("s-" + name).path, m = dir.appendingPathComponent("m-" + name).path
        let streamed = try CLI.run(["render", c, "-o", s] + args)
        let loaded = try CLI.run(["render", c, "-o", m, "--load-all"] + args)
        #expect(streamed.status == 0 && loaded.status == 0, "\(streamed.stderr) \(loaded.stderr)")
        return (try Data(contentsOf: URL(fileURLWithPath: s)), try Data(contentsOf: URL(fileURLWithPath: m)), streamed.stderr)
    }

    /// The figure before `label` in a render's summary line, e.g. "809 buildings,".
    static func number(before label: String, in text: String) -> Int? {
        guard let r = text.range(of: " " + label) else { return nil }
        return Int(text[..<r.lowerBound].split(separator: " ").last ?? "")
    }

    @Test func theStreamedMapIsTheLoadedMapByteForByte() throws {
        let dir = try CLI.tempDir()
        let c = try Self.campaign(dir)
        for (name, args) in [("fit.png", ["--size", "1200x900"]), ("one-thread.png", ["--size", "1200x900", "--draw-threads", "1"]),
                             ("zoom.png", ["--center=-73.738,40.718", "--zoom", "18.5", "--size", "1000x800"]),
                             ("map.svg", ["--size", "900x700"])] {
            let r = try Self.both(c, dir, name, args)
            #expect(r.streamed.count > 1000 && r.streamed == r.loaded, "\(name) differs")
            // Six scanned over the hot and visited they were: the priority order decides.
            #expect(name.hasPrefix("zoom") || r.stderr.contains("scanned 6 hot 8 visited 8"), "\(r.stderr)")
        }
    }

    @Test func aZoomedViewReadsOnlyTheBuildingsItCanShow() throws {
        let dir = try CLI.tempDir()
        let c = try Self.campaign(dir)
        let total = try DatabaseQueue(path: c).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM buildings") ?? 0 }
        let whole = try Self.both(c, dir, "whole.png", ["--size", "800x600", "--draw-threads", "1"])
        #expect(Self.number(before: "buildings read", in: whole.stderr) == total, "\(whole.stderr)")
        // A western longitude after a space, as the README writes it, is the option's value.
        let zoomed = try Self.both(c, dir, "z19.png", ["--center", "-73.738,40.718", "--zoom", "19", "--size", "800x600", "--draw-threads", "1"])
        #expect(zoomed.streamed == zoomed.loaded)
        let read = Self.number(before: "buildings read", in: zoomed.stderr) ?? -1
        let drawn = Self.number(before: "buildings,", in: zoomed.stderr) ?? -1
        // Read: the R-tree's candidates, at least every building drawn and far fewer than all.
        #expect(drawn > 0 && read >= drawn && read < total / 4, "read \(read), drawn \(drawn), of \(total)")
    }

    @Test func aFileWhoseRowsAreNotInIDOrderIsDrawnInIDOrderAllTheSame() throws {
        let dir = try CLI.tempDir()
        let c = try Self.campaign(dir)
        // Rows renamed past every other id, as an edit in another program could leave them;
        // the R-tree's update triggers call functions only a GeoPackage reader registers.
        try DatabaseQueue(path: c).write { db in
            for t in 1...4 { try db.execute(sql: "DROP TRIGGER rtree_buildings_geom_update\(t)") }
            try db.execute(sql: "UPDATE buildings SET gers_id = 'ffff' || gers_id WHERE fid IN (5, 300, 600)")
        }
        for (name, threads) in [("u2.png", "2"), ("u1.png", "1")] {
            let r = try Self.both(c, dir, name, ["--size", "1000x800", "--draw-threads", threads])
            #expect(r.streamed == r.loaded, "\(name) differs")
        }
    }
}
