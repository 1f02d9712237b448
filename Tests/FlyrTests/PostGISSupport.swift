import Foundation
import Campaign
import PostgresNIO
import Testing

/// What the suites that drive a real PostgreSQL + PostGIS server share: a new database per test
/// on the server `make test` starts (FLYR_TEST_POSTGRES_URL), connections, the sample campaign
/// and JSON parsing.
protocol PostGISTesting {}

extension PostGISTesting {
    /// A new, empty database on the test server (so each test starts from no schema), or nil
    /// with an issue recorded when there is no test server.
    func freshDatabase() async throws -> String? {
        guard let base = ProcessInfo.processInfo.environment["FLYR_TEST_POSTGRES_URL"], !base.isEmpty else {
            Issue.record("FLYR_TEST_POSTGRES_URL is not set: run `make test`, which starts a throwaway PostgreSQL 15 + PostGIS (scripts/with-postgres.sh swift test)")
            return nil
        }
        let name = "flyr_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withStore(base) { store in try await store.db.rows("CREATE DATABASE \(unescaped: name)", "creating a test database") }
        var c = URLComponents(string: base)!
        c.path = "/" + name
        return c.string!
    }

    @discardableResult
    func withStore<T: Sendable>(_ url: String, _ body: (PostGISStore) async throws -> T) async throws -> T {
        try await PostGISStore.using(try PostGISURL(parsing: url), body)
    }

    func int(_ url: String, _ query: PostgresQuery) async throws -> Int {
        try await withStore(url) { store in try await store.db.rows(query, "test query")[0].decode(Int.self) }
    }

    func provision(_ out: String, _ extra: [String] = []) throws -> CLI.Run {
        try CLI.run(["provision", "--name", "Sample", "--buildings", CLI.sample("buildings.geojson"),
                     "--addresses", CLI.sample("addresses-streetside.geojsonseq"), "--segments", CLI.sample("segments.geojson"), "-o", out] + extra)
    }

    func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    func jsonArray(_ text: String) -> NSArray? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? NSArray
    }

    func ids(_ geojsonseq: String) -> [String] {
        geojsonseq.split(separator: "\n").compactMap { json(String($0))["id"] as? String }
    }
}
