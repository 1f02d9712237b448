import Foundation
import Campaign
import PostgresNIO
import Testing

/// TLS and passwords against the throwaway server of scripts/with-postgres.sh, which speaks TLS
/// with a certificate of its own (FLYR_TEST_POSTGRES_CA) and has a role, flyr_password, that
/// must give its password. Without that server every test here fails, saying so.
@Suite(.serialized) struct PostGISSafetyTests {
    func server() throws -> (url: String, port: Int, ca: String) {
        let env = ProcessInfo.processInfo.environment
        guard let url = env["FLYR_TEST_POSTGRES_URL"], let ca = env["FLYR_TEST_POSTGRES_CA"], let port = URLComponents(string: url)?.port else {
            Issue.record("FLYR_TEST_POSTGRES_URL or FLYR_TEST_POSTGRES_CA is not set: run `make test` (scripts/with-postgres.sh swift test)")
            throw CancellationError()
        }
        return (url, port, ca)
    }

    /// Whether a connection to `url` is encrypted, as the server sees it.
    func encrypted(_ url: String) async throws -> Bool {
        let store = try await PostGISStore.connect(try PostGISURL(parsing: url, environment: [:]))
        do {
            let ssl = try await store.db.rows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", "asking for TLS")[0].decode(Bool.self)
            try await store.close()
            return ssl
        } catch {
            try? await store.close()
            throw error
        }
    }

    @Test func connectionsUseTLSByDefault() async throws {
        let s = try server()
        #expect(try await encrypted(s.url))
        #expect(try await encrypted(s.url + "?sslmode=disable") == false)
    }

    @Test func verifyFullChecksTheCertificateAndTheHostName() async throws {
        let s = try server()
        let local = "postgres://postgres@localhost:\(s.port)/flyr_test"
        #expect(try await encrypted(local + "?sslmode=verify-full&sslrootcert=\(s.ca)"))
        // Not signed by a root the system trusts: refused, with the reason.
        do {
            _ = try await encrypted(local + "?sslmode=verify-full")
            Issue.record("a self-signed certificate passed verify-full")
        } catch let e as PostGISError {
            guard case .unavailable(let message) = e else { Issue.record("\(e)"); return }
            #expect(message.contains("cannot connect to postgres://postgres@localhost"), "\(message)")
        }
        // verify-ca checks the certificate but not the name.
        #expect(try await encrypted("postgres://postgres@127.0.0.1:\(s.port)/flyr_test?sslmode=verify-ca&sslrootcert=\(s.ca)"))
    }

    /// The password is taken from PGPASSWORD or the password file, as libpq does: without
    /// either the login fails (exit 69), with either it goes through.
    @Test func thePasswordComesFromPGPASSWORDOrThePasswordFile() throws {
        let s = try server()
        let dir = try CLI.tempDir()
        let out = dir.appendingPathComponent("c.gpkg").path
        let url = "postgres://flyr_password@127.0.0.1:\(s.port)/flyr_password"
        let pull = "exec \"$FLYR\" pull --postgres '\(url)' --campaign none -o '\(out)'"
        let none = try CLI.shell("unset PGPASSWORD PGPASSFILE; HOME='\(dir.path)' \(pull)")
        #expect(none.status == 69 && none.stderr.contains("cannot connect to postgres://flyr_password@127.0.0.1"), "\(none.stderr)")
        let env = try CLI.shell("PGPASSWORD=flyr-test-password \(pull)")
        // Logged in: the database has no PostGIS (exit 78), which only a logged-in connection can tell.
        #expect(env.status == 78 && env.stderr.contains("has no PostGIS extension"), "\(env.stderr)")
        let file = dir.appendingPathComponent("pgpass").path
        try "127.0.0.1:\(s.port):*:flyr_password:flyr-test-password\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let passfile = try CLI.shell("unset PGPASSWORD; PGPASSFILE='\(file)' \(pull)")
        #expect(passfile.status == 78 && passfile.stderr.contains("has no PostGIS extension"), "\(passfile.stderr)")
        #expect(!none.stderr.contains("flyr-test-password") && !env.stderr.contains("flyr-test-password"))
    }

    /// Needs no server: the URL is refused before any connection.
    @Test func aPasswordInABadURLIsNeverPrinted() throws {
        let dir = try CLI.tempDir()
        for url in ["postgres://flyr:s3cr et@127.0.0.1:port/flyr", "postgres://flyr:s3c@ret@[::1/flyr"] {
            let r = try CLI.run(["pull", "--postgres", url, "--campaign", "x", "-o", dir.appendingPathComponent("c.gpkg").path])
            #expect(r.status == 64, "\(r.stderr)")
            #expect(!r.stderr.contains("s3cr") && r.stderr.contains("flyr:…@"), "\(r.stderr)")
        }
    }
}
