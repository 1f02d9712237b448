import Foundation
import Testing
@testable import Campaign

/// The --postgres URL completed like libpq: PG* variables, the password file, sslmode; and
/// never a password in a message.
struct PostGISURLTests {
    @Test func tlsIsTriedByDefaultAndVerifiedWhenAsked() throws {
        #expect(try PostGISURL(parsing: "postgres://flyr@db.example/flyr", environment: [:]).sslMode == "prefer")
        let full = try PostGISURL(parsing: "postgres://flyr@db.example/flyr?sslmode=verify-full&sslrootcert=/etc/ca.pem", environment: [:])
        #expect(full.sslMode == "verify-full" && full.sslRootCert == "/etc/ca.pem")
        let system = try PostGISURL(parsing: "postgres://flyr@db.example/flyr?sslmode=verify-full", environment: [:])
        #expect(try system.configuration().options.tlsServerName == "db.example")
        #expect(try PostGISURL(parsing: "postgres://flyr@h/f", environment: ["PGSSLMODE": "require"]).sslMode == "require")
        #expect(throws: PostGISError.self) { try PostGISURL(parsing: "postgres://flyr@h/f?sslmode=maybe", environment: [:]) }
    }

    @Test func whatTheURLLeavesOutComesFromThePGVariables() throws {
        let env = ["PGHOST": "envhost", "PGPORT": "6543", "PGUSER": "envuser", "PGDATABASE": "envdb", "PGPASSWORD": "envpw"]
        let bare = try PostGISURL(parsing: "postgres://", environment: env)
        #expect(bare.host == "envhost" && bare.port == 6543 && bare.user == "envuser" && bare.database == "envdb" && bare.password == "envpw")
        let given = try PostGISURL(parsing: "postgres://u:urlpw@h:5433/d", environment: env)
        #expect(given.host == "h" && given.port == 5433 && given.user == "u" && given.database == "d" && given.password == "urlpw")
        #expect(throws: PostGISError.self) { try PostGISURL(parsing: "postgres://", environment: [:]) }
        #expect(throws: PostGISError.self) { try PostGISURL(parsing: "postgres://", environment: ["PGHOST": "h", "PGPORT": "many"]) }
    }

    @Test func thePasswordFileIsReadLikeLibpq() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("flyr-pgpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("pgpass").path
        try """
            # comment
            other:5432:flyr:flyr:wrong
            db.example:5432:flyr:flyr:pa\\:ss\\\\word
            *:*:*:flyr:fallback
            """.write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let env = ["PGPASSFILE": file]
        #expect(try PostGISURL(parsing: "postgres://flyr@db.example/flyr", environment: env).password == "pa:ss\\word")
        #expect(try PostGISURL(parsing: "postgres://flyr@elsewhere:5555/x", environment: env).password == "fallback")
        #expect(try PostGISURL(parsing: "postgres://nobody@db.example/flyr", environment: env).password == nil)
        // PGPASSWORD comes before the file; the file is ignored when others may read it.
        #expect(try PostGISURL(parsing: "postgres://flyr@db.example/flyr", environment: env.merging(["PGPASSWORD": "env"]) { a, _ in a }).password == "env")
        chmod(file, 0o644)
        #expect(try PostGISURL(parsing: "postgres://flyr@db.example/flyr", environment: env).password == nil)
        // ~/.pgpass without PGPASSFILE.
        try FileManager.default.moveItem(atPath: file, toPath: dir.appendingPathComponent(".pgpass").path)
        chmod(dir.appendingPathComponent(".pgpass").path, 0o600)
        #expect(try PostGISURL(parsing: "postgres://flyr@db.example/flyr", environment: ["HOME": dir.path]).password == "pa:ss\\word")
    }

    @Test func aPasswordIsNeverEchoed() throws {
        let bad = ["postgres://flyr:s3cret@host:notaport/db", "postgres://flyr:s3c@ret@[::1/db", "postgres://flyr:s3cret@/db",
                   "mysql://flyr:s3cret@host/db", "postgres://flyr:s3cr et@host:x/db"]
        for url in bad {
            do {
                _ = try PostGISURL(parsing: url, environment: [:])
                Issue.record("\(url) parsed")
            } catch {
                #expect(!error.description.contains("s3c"), "\(error.description)")
                #expect(error.description.contains("flyr:…@"), "\(error.description)")
            }
        }
        #expect(PostGISURL.redacted("postgres://a:b@h/d") == "postgres://a:…@h/d")
        #expect(PostGISURL.redacted("postgresql://c:d/e f@g@h:x/d") == "postgresql://c:…@h:x/d")
        #expect(PostGISURL.redacted("postgres://a@h/d") == "postgres://a@h/d")
        #expect(try PostGISURL(parsing: "postgres://flyr:s3cret@h/d", environment: [:]).description == "postgres://flyr@h:5432/d")
    }
}
