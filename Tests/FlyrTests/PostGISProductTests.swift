import Foundation
@testable import Campaign
import GRDB
import PostgresNIO
import Testing

/// The product's SQL functions, QR lookup and columns against a real server (`make test`), each
/// called with SELECT and compared with flyr's own output for the same campaign.
@Suite(.serialized) struct PostGISProductTests: PostGISTesting {
    static let box = (w: -73.742, s: 40.716, e: -73.738, n: 40.719)

    /// A provisioned sample campaign with field work in the file (one hot building; scans by
    /// building, by address, by QR slug, and a crawler's), pushed into a new database.
    struct Pushed {
        var url: String, gpkg: String, id: String, dir: URL
        /// Matched buildings, sorted by id.
        var buildings: [String]
        /// Addresses with a building and a QR slug: (GERS id, slug), sorted by id.
        var addresses: [(id: String, slug: String)]
    }

    func pushedCampaign() async throws -> Pushed? {
        guard let url = try await freshDatabase() else { return nil }
        let dir = try CLI.tempDir()
        let gpkg = dir.appendingPathComponent("c.gpkg").path
        #expect(try provision(gpkg).status == 0)
        let file = try DatabaseQueue(path: gpkg)
        let (buildings, addresses) = try await file.read { db in
            (try String.fetchAll(db, sql: "SELECT gers_id FROM buildings WHERE feature_status = 'matched' ORDER BY gers_id LIMIT 4"),
             try Row.fetchAll(db, sql: """
                SELECT gers_id, qr_slug FROM campaign_addresses WHERE qr_slug IS NOT NULL AND building_gers_id IS NOT NULL
                ORDER BY gers_id LIMIT 3
                """).map { (id: $0[0] as String, slug: $0[1] as String) })
        }
        try file.close()
        try #require(buildings.count == 4 && addresses.count == 3)
        #expect(try CLI.run(["mark", gpkg, "--building", buildings[0], "--status", "hot"]).status == 0)
        let scans = try events(dir, "a", [("a1", "gers_id", buildings[1], "10:00", false), ("a2", "address_id", addresses[0].id, "10:05", false),
                                          ("a3", "qr_slug", addresses[1].slug, "10:10", false), ("a4", "qr_slug", addresses[2].slug, "10:15", true)])
        #expect(try CLI.run(["scans", "ingest", gpkg, scans]).status == 0)
        let push = try CLI.run(["push", gpkg, "--postgres", url, "--json"])
        let id = try #require(json(push.stdout)["campaign_id"] as? String, "\(push.stderr)")
        return Pushed(url: url, gpkg: gpkg, id: id, dir: dir, buildings: buildings, addresses: addresses)
    }

    /// A JSON Lines file of scan events (id, target field, target, UTC time on 2021-06-01, crawler?).
    func events(_ dir: URL, _ name: String, _ list: [(String, String, String, String, Bool)]) throws -> String {
        let lines = list.map { e in
            let ua = e.4 ? "Mozilla/5.0 (compatible; Googlebot/2.1)" : "Mozilla/5.0 (iPhone)"
            return "{\"event_id\":\"\(e.0)\",\"\(e.1)\":\"\(e.2)\",\"scanned_at\":\"2021-06-01T\(e.3):00Z\",\"user_agent\":\"\(ua)\"}"
        }
        let f = dir.appendingPathComponent(name + ".jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: f, atomically: true, encoding: .utf8)
        return f.path
    }

    /// The text of the first column of the first row.
    func text(_ url: String, _ query: PostgresQuery) async throws -> String? {
        try await withStore(url) { store in try await store.db.rows(query, "test query").first?.decode(String?.self) }
    }

    func features(_ text: String) -> [[String: Any]] {
        (json(text)["features"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
    }

    /// Parsed JSON values equal: objects by keys, arrays in order, numbers by value.
    func same(_ a: Any, _ b: Any) -> Bool {
        if let x = a as? [String: Any], let y = b as? [String: Any] {
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
        }
        if let x = a as? [Any], let y = b as? [Any] { return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) } }
        if let x = a as? String, let y = b as? String { return x == y }
        if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
        if let x = a as? NSNumber, let y = b as? NSNumber { return x.doubleValue == y.doubleValue }
        return false
    }

    /// Expects the same features in the same order, compared as parsed JSON.
    func expectSameFeatures(_ got: [[String: Any]], _ want: [[String: Any]], _ what: String) {
        #expect(got.count == want.count, "\(what): \(got.count) features, flyr has \(want.count)")
        for (g, w) in zip(got, want) where !same(g, w) {
            Issue.record("\(what): feature \(w["id"] ?? "?") differs:\n\(g)\nflyr:\n\(w)")
            return
        }
    }

    @Test func functionsGiveFlyrsOwnOutputs() async throws {
        guard let p = try await pushedCampaign() else { return }
        // More field work, into the file and the database alike (a2 again is a duplicate).
        let more = try events(p.dir, "b", [("b1", "qr_slug", p.addresses[2].slug, "11:00", false), ("b2", "gers_id", p.buildings[0], "11:05", false),
                                           ("a2", "address_id", p.addresses[0].id, "10:05", false)])
        #expect(try CLI.run(["scans", "ingest", p.gpkg, more]).status == 0)
        #expect(try CLI.run(["scans", "ingest", "--postgres", p.url, "--campaign", p.id, more]).status == 0)

        let flyrFeatures = features(try CLI.run(["features", p.gpkg]).stdout)
        #expect(flyrFeatures.count > 100)
        #expect(flyrFeatures.contains { ($0["properties"] as? [String: Any])?["house_number"] is String })
        let sqlFeatures = features(try await text(p.url, "SELECT rpc_get_campaign_full_features(\(p.id)::uuid)::text") ?? "")
        expectSameFeatures(sqlFeatures, flyrFeatures, "rpc_get_campaign_full_features")

        let flyrStats = json(try CLI.run(["stats", p.gpkg, "--json"]).stdout)
        #expect((flyrStats["scanned"] as? Int ?? 0) >= 2 && (flyrStats["visited"] as? Int ?? 0) >= 3, "\(flyrStats)")
        let sqlStats = json(try await text(p.url, "SELECT get_campaign_stats(\(p.id)::uuid)::text") ?? "")
        #expect(same(sqlStats, flyrStats), "get_campaign_stats \(sqlStats), flyr stats \(flyrStats)")

        // The viewport: the same buildings as flyr query --postgres, each the same feature as above.
        let b = Self.box
        let query = try CLI.run(["query", "--postgres", p.url, "--campaign", p.id, "--bbox", "\(b.w),\(b.s),\(b.e),\(b.n)"])
        let queried = query.stdout.split(separator: "\n").map { json(String($0)) }
            .filter { ($0["properties"] as? [String: Any])?["layer"] as? String == "buildings" }.compactMap { $0["id"] as? String }
        #expect(queried.count > 5, "\(query.stderr)")
        let inBox = features(try await text(p.url, "SELECT rpc_get_buildings_in_bbox(\(b.w), \(b.s), \(b.e), \(b.n), \(p.id)::uuid)::text") ?? "")
        #expect(inBox.map { $0["id"] as? String } == queried)
        let byID = Dictionary(uniqueKeysWithValues: flyrFeatures.map { ($0["id"] as? String ?? "", $0) })
        expectSameFeatures(inBox, inBox.compactMap { byID[$0["id"] as? String ?? ""] }, "rpc_get_buildings_in_bbox")
        let anyCampaign = features(try await text(p.url, "SELECT rpc_get_buildings_in_bbox(\(b.w), \(b.s), \(b.e), \(b.n))::text") ?? "")
        #expect(anyCampaign.map { $0["id"] as? String } == queried)

        // The campaign's extent: the GeoPackage's exact extents of its buildings and addresses.
        let file = try DatabaseQueue(path: p.gpkg)
        let extent = try await file.read { db in
            try Row.fetchOne(db, sql: """
                SELECT min(min_x), min(min_y), max(max_x), max(max_y) FROM gpkg_contents WHERE table_name IN ('buildings', 'campaign_addresses')
                """).map { [$0[0] as Double, $0[1] as Double, $0[2] as Double, $0[3] as Double] }
        }
        try file.close()
        let bbox = try await withStore(p.url) { store in
            try await store.db.rows("SELECT get_campaign_bbox(\(p.id)::uuid)", "test")[0].decode([Double].self)
        }
        #expect(bbox == extent)
        // An unknown campaign is an error that says so, not an empty answer.
        await #expect(throws: PostGISError.self) {
            _ = try await text(p.url, "SELECT get_campaign_stats('00000000-0000-4000-8000-000000000000'::uuid)::text")
        }
    }

    @Test func qrCodesResolveBySlugAndQRScansAreRecordedOnce() async throws {
        guard let p = try await pushedCampaign() else { return }
        let more = try events(p.dir, "b", [("b1", "qr_slug", p.addresses[2].slug, "11:00", false), ("b2", "gers_id", p.buildings[0], "11:05", false),
                                           ("b3", "qr_slug", p.addresses[1].slug, "11:10", true), ("a3", "qr_slug", p.addresses[1].slug, "10:10", false)])
        for _ in 0..<2 { #expect(try CLI.run(["scans", "ingest", "--postgres", p.url, "--campaign", p.id, more]).status == 0) }
        try await withStore(p.url) { store in
            try await store.db.rows("UPDATE campaigns SET qr_destination_url = 'https://example.org/door' WHERE id = \(p.id)", "test")
            let slug = p.addresses[1].slug
            let row = try await store.db.rows("""
                SELECT campaign_id::text, address_id, destination_url, scans, to_char(last_scanned_at AT TIME ZONE 'UTC', 'HH24:MI')
                FROM qr_codes WHERE slug = \(slug)
                """, "test")
            #expect(row.count == 1)
            let (campaign, address, destination, scans, last) = try row[0].decode((String, String, String?, Int, String?).self)
            #expect(campaign == p.id && address == p.addresses[1].id && destination == "https://example.org/door" && scans == 1 && last == "10:10")
            try await store.db.rows("SET enable_seqscan = off", "test")
            let plan = try await store.db.rows("EXPLAIN SELECT * FROM qr_codes WHERE slug = \(slug)", "test")
                .map { try $0.decode(String.self) }.joined(separator: "\n")
            #expect(plan.contains("campaign_addresses_slug"), "\(plan)")
            // Events naming an address with a slug: a2 (by address, pushed from the file), a3 (by slug,
            // pushed), b1 (ingested); not by building (a1, b2), not crawlers (a4, b3); each once.
            let scanned = try await store.db.rows("SELECT event_id, slug FROM qr_code_scans WHERE campaign_id = \(p.id) ORDER BY event_id", "test")
                .map { try $0.decode((String, String).self) }
            #expect(scanned.map(\.0) == ["a2", "a3", "b1"])
            #expect(scanned.map(\.1) == [p.addresses[0].slug, p.addresses[1].slug, p.addresses[2].slug])
        }
    }

    @Test func eightConcurrentIncrementsGiveExactCounters() async throws {
        guard let p = try await pushedCampaign() else { return }
        let t = p.buildings
        // t[0] is hot (and stays hot); t[1] was scanned in the file (on an earlier day); t[2] has 7
        // scans from yesterday (scans_today starts again); t[3]'s stats row is gone (the insert path).
        let before = try await withStore(p.url) { store in
            try await store.db.rows("DELETE FROM building_stats WHERE campaign_id = \(p.id) AND gers_id = \(t[3])", "test")
            try await store.db.rows("""
                UPDATE building_stats SET scans_total = 7, scans_today = 7, scans_day = (now() AT TIME ZONE 'UTC')::date - 1
                WHERE campaign_id = \(p.id) AND gers_id = \(t[2])
                """, "test")
            var totals: [String: Int] = [t[3]: 0]
            for row in try await store.db.rows("SELECT gers_id, scans_total FROM building_stats WHERE campaign_id = \(p.id)", "test") {
                let (g, n) = try row.decode((String, Int).self)
                totals[g] = n
            }
            return totals
        }
        #expect(before[t[1]]! >= 1 && before[t[2]] == 7)
        var calls: [String: Int] = [:]
        let plan = (0..<8).map { w in (0..<25).map { i in t[(w * 3 + i) % 4] } }
        for list in plan { for g in list { calls[g, default: 0] += 1 } }
        let url = try PostGISURL(parsing: p.url), id = p.id
        try await withThrowingTaskGroup(of: Void.self) { group in
            for list in plan {
                group.addTask {
                    let store = try await PostGISStore.connect(url)
                    for g in list { try await store.db.rows("SELECT increment_building_scans(\(g), \(id)::uuid)", "incrementing") }
                    try await store.close()
                }
            }
            try await group.waitForAll()
        }
        try await withStore(p.url) { store in
            for g in t {
                let r = try await store.db.rows("""
                    SELECT status, scans_total, scans_today, scans_day = (now() AT TIME ZONE 'UTC')::date, last_scan_at IS NOT NULL
                    FROM building_stats WHERE campaign_id = \(id) AND gers_id = \(g)
                    """, "test")
                let (status, total, today, isToday, stamped) = try r[0].decode((String, Int, Int, Bool, Bool).self)
                let n = calls[g] ?? 0
                #expect(total == before[g]! + n && isToday && stamped, "\(g): \(total)")
                #expect(today == n, "\(g): scans_today \(today)")
                #expect(status == (g == t[0] ? "hot" : "visited"))
            }
            await #expect(throws: PostGISError.self) {
                try await store.db.rows("SELECT increment_building_scans('no-such-building', \(id)::uuid)", "test")
            }
        }
    }

    @Test func pushUpgradesOlderFunctionsInPlace() async throws {
        guard let p = try await pushedCampaign() else { return }
        let role = "flyr_app_" + String(UUID().uuidString.prefix(8)).lowercased()
        // What an older schema may hold: an older body (granted to the app's role), and versions
        // PostgreSQL cannot simply replace: another parameter name, another return type, a default.
        let oid = try await withStore(p.url) { store in
            for sql in [
                "CREATE OR REPLACE FUNCTION get_campaign_stats(campaign_id uuid) RETURNS jsonb LANGUAGE sql AS $$ SELECT '{}'::jsonb $$",
                "CREATE ROLE \(role)", "GRANT EXECUTE ON FUNCTION get_campaign_stats(uuid) TO \(role)",
                "DROP FUNCTION rpc_get_campaign_full_features(uuid)",
                "CREATE FUNCTION rpc_get_campaign_full_features(p_campaign_id uuid) RETURNS jsonb LANGUAGE sql AS $$ SELECT '{}'::jsonb $$",
                "DROP FUNCTION get_campaign_bbox(uuid)",
                "CREATE FUNCTION get_campaign_bbox(campaign_id uuid) RETURNS jsonb LANGUAGE sql AS $$ SELECT '[]'::jsonb $$",
                "DROP FUNCTION increment_building_scans(text, uuid)",
                "CREATE FUNCTION increment_building_scans(p_gers_id text, p_campaign_id uuid DEFAULT NULL) RETURNS void LANGUAGE sql AS $$ SELECT $$",
                "DELETE FROM flyr_migrations WHERE id = 4",
            ] { try await store.db.rows(PostgresQuery(unsafeSQL: sql), "test") }
            return try await store.db.rows("SELECT 'get_campaign_stats(uuid)'::regprocedure::oid::int8", "test")[0].decode(Int.self)
        }
        let behind = try CLI.run(["query", "--postgres", p.url, "--campaign", p.id, "--bbox", "-73.742,40.716,-73.738,40.719"])
        #expect(behind.status == 76, "reads refuse a schema that is behind")
        let push = try CLI.run(["push", p.gpkg, "--postgres", p.url, "--json"])
        #expect(push.status == 0 && (json(push.stdout)["migrations_applied"] as? [String]) == ["004 product functions"], "\(push.stderr)")
        try await withStore(p.url) { store in
            let r = try await store.db.rows("""
                SELECT 'get_campaign_stats(uuid)'::regprocedure::oid::int8, has_function_privilege(\(role), 'get_campaign_stats(uuid)', 'execute'),
                       pg_get_function_arguments('rpc_get_campaign_full_features(uuid)'::regprocedure),
                       pg_get_function_arguments('increment_building_scans(text, uuid)'::regprocedure),
                       pg_get_function_result('get_campaign_bbox(uuid)'::regprocedure)
                """, "test")
            let (sameOID, granted, args, incrementArgs, bboxType) = try r[0].decode((Int, Bool, String, String, String).self)
            #expect(sameOID == oid && granted, "replaced in place, grants kept")
            #expect(args == "campaign_id uuid" && incrementArgs == "p_gers_id text, p_campaign_id uuid" && bboxType == "double precision[]")
            try await store.db.rows("SELECT increment_building_scans(\(p.buildings[1]), \(p.id)::uuid)", "test")
            // Migrations 003 and 004 again, statement by statement: nothing fails, nothing changes.
            let stats = try await store.db.rows("SELECT get_campaign_stats(\(p.id)::uuid)::text", "test")[0].decode(String.self)
            for m in PostGISSchema.migrations where m.id >= 3 {
                for sql in PostGISStore.statements(m.sql) { try await store.db.rows(PostgresQuery(unsafeSQL: sql), "again: \(m.name)") }
            }
            #expect(try await store.db.rows("SELECT get_campaign_stats(\(p.id)::uuid)::text", "test")[0].decode(String.self) == stats)
        }
        let flyrFeatures = features(try CLI.run(["features", p.gpkg]).stdout)
        let sqlFeatures = features(try await text(p.url, "SELECT rpc_get_campaign_full_features(\(p.id)::uuid)::text") ?? "")
        #expect(sqlFeatures.count == flyrFeatures.count && sqlFeatures.count > 0)
    }

    @Test func aSlugAnotherCampaignHoldsIsRefusedAndAViewportSpansCampaigns() async throws {
        guard let p = try await pushedCampaign() else { return }
        let other = p.dir.appendingPathComponent("other.gpkg").path
        #expect(try provision(other, ["--bbox", "-73.742,40.716,-73.738,40.719"]).status == 0)
        let file = try GeoPackage.open(other)
        try await file.write { db in
            try db.execute(sql: "UPDATE campaign_addresses SET qr_slug = ? WHERE gers_id = (SELECT min(gers_id) FROM campaign_addresses)",
                           arguments: [p.addresses[0].slug])
        }
        try file.close()
        let push = try CLI.run(["push", other, "--postgres", p.url])
        #expect(push.status == 65 && push.stderr.contains("QR slug '\(p.addresses[0].slug)'"), "\(push.stderr)")
        let campaigns = try await int(p.url, "SELECT count(*)::int8 FROM campaigns")
        #expect(campaigns == 1, "the refused push wrote nothing")

        // With a slug of its own it goes in; a viewport without a campaign then holds both
        // campaigns' buildings, by id (the shared ones twice).
        let fixed = try GeoPackage.open(other)
        try await fixed.write { db in
            try db.execute(sql: "UPDATE campaign_addresses SET qr_slug = 'ZZZZZZZZZZ' WHERE qr_slug = ?", arguments: [p.addresses[0].slug])
        }
        try fixed.close()
        let second = try CLI.run(["push", other, "--postgres", p.url, "--json"])
        let otherID = try #require(json(second.stdout)["campaign_id"] as? String, "\(second.stderr)")
        let b = Self.box
        var both: [String] = []
        for id in [p.id, otherID] {
            both += try CLI.run(["query", "--postgres", p.url, "--campaign", id, "--bbox", "\(b.w),\(b.s),\(b.e),\(b.n)"]).stdout
                .split(separator: "\n").map { json(String($0)) }
                .filter { ($0["properties"] as? [String: Any])?["layer"] as? String == "buildings" }.compactMap { $0["id"] as? String }
        }
        let anyCampaign = features(try await text(p.url, "SELECT rpc_get_buildings_in_bbox(\(b.w), \(b.s), \(b.e), \(b.n))::text") ?? "")
        #expect(anyCampaign.compactMap { $0["id"] as? String } == both.sorted())
        #expect(Set(both).count < both.count, "the two campaigns share buildings")
    }
}
