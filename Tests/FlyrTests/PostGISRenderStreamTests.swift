import Foundation
import Campaign
import GRDB
import Geo
import PostgresNIO
import Testing

/// flyr render --postgres streams the view's buildings through a server-side cursor: the same
/// map as with every building loaded (--load-all) and as drawn from the campaign file, a zoomed
/// view reads only its part, and a lost connection or a bad row names the campaign and building.
@Suite(.serialized) struct PostGISRenderStreamTests: PostGISTesting {
    /// The sample campaign with every status painted (`RenderStreamTests.campaign`), pushed to a
    /// fresh database: its file, URL and id.
    func pushed() async throws -> (gpkg: String, url: String, id: String, dir: URL)? {
        guard let url = try await freshDatabase() else { return nil }
        let dir = try CLI.tempDir()
        let c = try RenderStreamTests.campaign(dir)
        let push = try CLI.run(["push", c, "--postgres", url, "--json"])
        #expect(push.status == 0, "\(push.stderr)")
        guard let id = json(push.stdout)["campaign_id"] as? String else { return nil }
        return (c, url, id, dir)
    }

    /// Renders the pushed campaign streamed and with --load-all, and the file streamed: the three
    /// outputs' bytes and the streamed and loaded stderr.
    func three(_ p: (gpkg: String, url: String, id: String, dir: URL), _ name: String, _ args: [String])
        throws -> (streamed: Data, loaded: Data, file: Data, stderr: String, loadedStderr: String) {
        let s = p.dir.appendingPathComponent("pg-s-" + name).path, m = p.dir.appendingPathComponent("pg-m-" + name).path
        let f = p.dir.appendingPathComponent("file-" + name).path
        let db = ["--postgres", p.url, "--campaign", p.id]
        let streamed = try CLI.run(["render"] + db + ["-o", s] + args)
        let loaded = try CLI.run(["render"] + db + ["-o", m, "--load-all"] + args)
        let file = try CLI.run(["render", p.gpkg, "-o", f] + args)
        #expect(streamed.status == 0 && loaded.status == 0 && file.status == 0, "\(streamed.stderr) \(loaded.stderr) \(file.stderr)")
        func read(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
        return (try read(s), try read(m), try read(f), streamed.stderr, loaded.stderr)
    }

    @Test func theStreamedMapIsTheLoadedMapAndTheFilesMapByteForByte() async throws {
        guard let p = try await pushed() else { return }
        let total = try await DatabaseQueue(path: p.gpkg).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM buildings") ?? 0 }
        for (name, args) in [("fit.png", ["--size", "1200x900"]), ("one-thread.png", ["--size", "1200x900", "--draw-threads", "1"]),
                             ("zoom.png", ["--center=-73.738,40.718", "--zoom", "18.5", "--size", "1000x800"]),
                             ("map.svg", ["--size", "900x700"])] {
            let r = try three(p, name, args)
            #expect(r.streamed.count > 1000 && r.streamed == r.loaded, "\(name): streamed and loaded differ")
            #expect(r.streamed == r.file, "\(name): the database's map differs from the file's")
            // Every building drawn, tallied as loaded: a dropped row changes the counts.
            let drawn = RenderStreamTests.number(before: "buildings,", in: r.stderr)
            #expect(drawn != nil && drawn == RenderStreamTests.number(before: "buildings,", in: r.loadedStderr), "\(r.stderr)")
            if !name.hasPrefix("zoom") {
                #expect(drawn == total && r.stderr.contains("scanned 6 hot 8 visited 8"), "\(r.stderr)")
                #expect(RenderStreamTests.number(before: "buildings read", in: r.stderr) == total, "\(r.stderr)")
            }
        }
    }

    @Test func aZoomedViewReadsOnlyTheRowsItsBoxMeets() async throws {
        guard let p = try await pushed() else { return }
        let total = try await int(p.url, "SELECT count(*)::int FROM buildings")
        let args = ["--center=-73.738,40.718", "--zoom", "19", "--size", "800x600", "--draw-threads", "1"]
        let r = try three(p, "z19.png", args)
        #expect(r.streamed == r.loaded)
        let read = RenderStreamTests.number(before: "buildings read", in: r.stderr) ?? -1
        let drawn = RenderStreamTests.number(before: "buildings,", in: r.stderr) ?? -1
        #expect(r.stderr.contains("buildings read from the database"), "\(r.stderr)")
        #expect(drawn > 0 && read >= drawn && read < total / 4, "read \(read), drawn \(drawn), of \(total)")
    }

    @Test func aLostConnectionNamesTheCampaignAndTheLastBuildingRead() async throws {
        guard let p = try await pushed() else { return }
        let url = try PostGISURL(parsing: p.url)
        let store = try await PostGISStore.connect(url)
        let cursor = PostGISBuildingCursor(store: store, campaign: p.id)
        try await cursor.open(area: BBox(minX: -180, minY: -85, maxX: 180, maxY: 85))
        var batch = CampaignMapReader.Batch(), numbers: [String?] = []
        let last = try batch.append(postGISRows: try await cursor.fetch(5, after: nil), campaign: p.id, labels: &numbers)
        #expect(batch.rows.count == 5 && numbers.count == 5 && batch.rows.map(\.gersID) == batch.rows.map(\.gersID).sorted())
        try await withStore(p.url) { other in
            try await other.db.rows("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'
                """, "test")
        }
        do {
            _ = try await cursor.fetch(5, after: last)
            Issue.record("a fetch over a terminated connection succeeded")
        } catch let PostGISError.unavailable(message) {
            #expect(message.contains("campaign '\(p.id)'") && message.contains("after building \(last ?? "?")"), "\(message)")
        }
        await cursor.abandon()
        try? await store.close()
    }

    @Test func aRowThatCannotBeReadNamesTheCampaignAndTheBuilding() async throws {
        guard let p = try await pushed() else { return }
        let rows = try await withStore(p.url) { store in
            try await store.db.rows("""
                SELECT 'b-good', ST_AsBinary('MULTIPOLYGON(((0 0,1 0,1 1,0 0)))'::geometry), 'matched', 'hot', 2, '12'
                UNION ALL SELECT 'b-bad', '\\x0106000000ff'::bytea, 'matched', 'hot', 2, NULL
                """, "test")
        }
        var batch = CampaignMapReader.Batch(), numbers: [String?] = []
        #expect(try batch.append(postGISRows: Array(rows.prefix(1)), campaign: p.id, labels: &numbers) == "b-good")
        #expect(batch.rows.count == 1 && batch.rows[0].status == "hot" && batch.rows[0].scansTotal == 2 && numbers == ["12"])
        #expect(batch.coords.count == 4 && batch.rings == [0..<4])
        do {
            _ = try batch.append(postGISRows: Array(rows.suffix(1)), campaign: p.id, labels: &numbers)
            Issue.record("a truncated geometry was read")
        } catch let e as PostGISError {
            guard case .badData(let m) = e else { Issue.record("\(e)"); return }
            #expect(m.contains("campaign '\(p.id)'") && m.contains("building b-bad") && m.contains("geometry"), "\(m)")
        }
    }

    @Test func anUnknownCampaignIsNoInput() async throws {
        guard let p = try await pushed() else { return }
        let r = try CLI.run(["render", "--postgres", p.url, "--campaign", "nope", "-o", p.dir.appendingPathComponent("n.png").path])
        #expect(r.status == 66 && r.stderr.contains("no campaign 'nope'"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: p.dir.appendingPathComponent("n.png").path))
    }
}
