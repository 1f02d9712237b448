import Foundation
import PostgresNIO

/// Where to connect, and how: a `postgres://` or `postgresql://` URL
/// (`postgres://[USER[:PASSWORD]@]HOST[:PORT][/DATABASE][?sslmode=MODE&sslrootcert=FILE]`),
/// completed as libpq completes it: what the URL leaves out comes from `PGHOST`, `PGPORT`,
/// `PGUSER`, `PGDATABASE`, `PGSSLMODE` and `PGSSLROOTCERT`, then the defaults (port 5432,
/// user `postgres`, database named as the user, sslmode `prefer`); the password from the URL,
/// else `PGPASSWORD`, else the first matching line of the password file (`PGPASSFILE`, or
/// `~/.pgpass`; ignored when others than its owner may read it).
public struct PostGISURL: Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    /// disable, allow, prefer, require, verify-ca or verify-full, with libpq's meanings:
    /// allow and prefer try TLS and fall back to none; require insists on TLS; verify-ca also
    /// checks the server's certificate against the roots, verify-full its host name too.
    public var sslMode: String
    /// PEM file of the certificate authorities trusted by verify-ca and verify-full (the
    /// system's when nil).
    public var sslRootCert: String?

    public static let sslModes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostGISError) {
        let example = "e.g. --postgres postgres://flyr@127.0.0.1:5432/flyr"
        guard let c = URLComponents(string: text), let scheme = c.scheme?.lowercased(),
              scheme == "postgres" || scheme == "postgresql" else {
            throw .badURL("bad --postgres URL '\(PostGISURL.redacted(text))': give postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, \(example)")
        }
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        guard let host = (c.host.flatMap { $0.isEmpty ? nil : $0 }) ?? env("PGHOST") else {
            throw .badURL("bad --postgres URL '\(PostGISURL.redacted(text))': it names no host (nor does PGHOST), \(example)")
        }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let port = c.port ?? env("PGPORT").map({ Int($0) ?? -1 }) ?? 5432
        guard (1...65535).contains(port) else {
            throw .badURL("bad port in PGPORT '\(env("PGPORT") ?? "")': give a number from 1 to 65535")
        }
        self.port = port
        user = c.user?.removingPercentEncoding ?? env("PGUSER") ?? "postgres"
        let path = c.path.hasPrefix("/") ? String(c.path.dropFirst()) : c.path
        database = path.isEmpty ? env("PGDATABASE") ?? user : (path.removingPercentEncoding ?? path)
        func query(_ name: String) -> String? { c.queryItems?.first(where: { $0.name == name })?.value }
        sslMode = query("sslmode") ?? env("PGSSLMODE") ?? "prefer"
        guard Self.sslModes.contains(sslMode) else {
            throw .badURL("bad sslmode '\(sslMode)': use one of \(Self.sslModes.joined(separator: ", "))")
        }
        sslRootCert = query("sslrootcert") ?? env("PGSSLROOTCERT")
        password = c.password?.removingPercentEncoding ?? env("PGPASSWORD")
            ?? PostGISURL.passwordFile(environment).flatMap { PgPass.password(in: $0, host: self.host, port: port, database: database, user: user) }
    }

    /// The URL without its password, for messages.
    public var description: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    /// The URL `text` with whatever stands between `//USER:` and its last `@` replaced by `…`,
    /// found by pattern, so that a URL that does not parse is redacted too (spaces, `@` or `/`
    /// in the password included).
    public static func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: #"(?s)(://[^:/@\s]*):.*@"#, with: "$1:…@", options: .regularExpression)
    }

    /// The password file libpq reads: `PGPASSFILE`, else `~/.pgpass`.
    static func passwordFile(_ environment: [String: String]) -> String? {
        if let f = environment["PGPASSFILE"], !f.isEmpty { return f }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.pgpass"
    }

    func configuration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        var settings = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case "verify-ca", "verify-full":
            settings.certificateVerification = sslMode == "verify-full" ? .fullVerification : .noHostnameVerification
            if let sslRootCert { settings.trustRoots = .file(sslRootCert) }
            tls = .require(try NIOSSLContext(configuration: settings))
        case "require":
            settings.certificateVerification = .none
            tls = .require(try NIOSSLContext(configuration: settings))
        case "allow", "prefer":
            settings.certificateVerification = .none
            tls = .prefer(try NIOSSLContext(configuration: settings))
        default:
            tls = .disable
        }
        var config = PostgresConnection.Configuration(host: host, port: port, username: user, password: password,
                                                      database: database, tls: tls)
        if sslMode == "verify-full" { config.options.tlsServerName = host }
        return config
    }
}

/// libpq's password file: lines `host:port:database:user:password`, `*` matching anything,
/// `\:` and `\\` escaped, `#` starting a comment; the first line that matches wins.
enum PgPass {
    static func password(in path: String, host: String, port: Int, database: String, user: String) -> String? {
        var info = stat()
        // libpq ignores a file that its group or others may read or write.
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 == 0,
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let wanted = [host, String(port), database, user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = self.fields(line)
            guard fields.count >= 5 else { continue }
            guard zip(fields[0...3], wanted).allSatisfy({ $0 == "*" || $0 == $1 }) else { continue }
            return fields[4...].joined(separator: ":")
        }
        return nil
    }

    /// A line's fields, split at unescaped colons, escapes removed.
    static func fields(_ line: Substring) -> [String] {
        var out: [String] = [], field = "", escaped = false
        for ch in line {
            if escaped { field.append(ch); escaped = false } else if ch == "\\" { escaped = true } else if ch == ":" {
                out.append(field); field = ""
            } else { field.append(ch) }
        }
        out.append(field)
        return out
    }
}
