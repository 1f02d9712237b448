import Foundation
import PostgresNIO

/// Why a PostGIS operation failed, by what the user can do about it.
public enum PostGISError: Error, CustomStringConvertible, Sendable {
    /// The --postgres URL does not parse.
    case badURL(String)
    /// The server cannot be reached, refused the login, or has no such database.
    case unavailable(String)
    /// The database has no PostGIS extension (and flyr may not create it).
    case noPostGIS(String)
    /// The database's flyr_migrations are behind, ahead of, or different from this flyr's.
    case schema(String)
    /// No campaign with that id in the database.
    case campaignNotFound(String)
    /// The server refused a statement: its message, SQLSTATE and what flyr was doing.
    case server(String)
    /// A deadlock or serialization failure (SQLSTATE 40P01, 40001): the statement may be retried.
    case conflict(String)
    /// The campaign's data clashes with another campaign's in the database (a QR slug already
    /// printed for another campaign).
    case conflictingData(String)
    /// A row the database holds cannot be read as flyr writes it: the campaign, the row and what is wrong.
    case badData(String)

    public var description: String {
        switch self {
        case .badURL(let s), .unavailable(let s), .noPostGIS(let s), .schema(let s), .server(let s), .conflict(let s), .conflictingData(let s),
             .badData(let s):
            return s
        case .campaignNotFound(let id): return "no campaign '\(id)' in this database; flyr push campaign.gpkg --postgres URL puts one there"
        }
    }
}

/// One connection to the product database. Close it with `close()`; statements bind every
/// value as a parameter.
public final class PostGISConnection: Sendable {
    public let url: PostGISURL
    /// The PostgresNIO connection, for callers that run their own parameterised queries.
    public let connection: PostgresConnection
    let logger: Logger

    init(url: PostGISURL, connection: PostgresConnection, logger: Logger) {
        self.url = url; self.connection = connection; self.logger = logger
    }

    /// Connects and logs in; every failure to do so is `PostGISError.unavailable`.
    public static func connect(_ url: PostGISURL) async throws -> PostGISConnection {
        var logger = Logger(label: "flyr.postgis")
        logger.logLevel = .critical
        do {
            let c = try await PostgresConnection.connect(configuration: try url.configuration(), id: 1, logger: logger)
            return PostGISConnection(url: url, connection: c, logger: logger)
        } catch {
            throw PostGISError.unavailable("cannot connect to \(url): \(Self.reason(error))")
        }
    }

    /// Closes the connection; throws when it does not close cleanly.
    public func close() async throws { try await connection.close() }

    /// Runs a statement and returns its rows; a server error becomes `PostGISError.server`
    /// with the message, SQLSTATE and `what` (a lost or closed connection: `.unavailable`).
    @discardableResult
    public func rows(_ query: PostgresQuery, _ what: String) async throws -> [PostgresRow] {
        // A connection the server ended while it sat idle would take the query and never answer.
        if connection.isClosed { throw PostGISError.unavailable("lost the connection to \(url) while \(what): the server closed it") }
        do {
            return try await connection.query(query, logger: logger).collect()
        } catch {
            throw describe(error, what)
        }
    }

    /// Runs `body` between BEGIN and COMMIT; any error rolls back and is rethrown.
    public func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await rows("BEGIN", "starting a transaction")
        do {
            let v = try await body()
            try await rows("COMMIT", "committing")
            return v
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger).collect()
            throw error
        }
    }

    func describe(_ error: Error, _ what: String) -> Error {
        if let e = error as? PSQLError {
            switch e.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
                return PostGISError.unavailable("lost the connection to \(url) while \(what): \(Self.reason(error))")
            default: break
            }
            // The server ended the session (its backend terminated or shutting down, SQLSTATE
            // 57P01-57P03) or reports a connection failure (class 08): the connection is lost,
            // whether or not the socket has closed yet.
            if let state = Self.sqlState(error), state.hasPrefix("57P0") || state.hasPrefix("08") {
                return PostGISError.unavailable("lost the connection to \(url) while \(what): \(Self.reason(error))")
            }
            if let state = Self.sqlState(error), state == "40P01" || state == "40001" {
                return PostGISError.conflict("\(what): \(Self.reason(error))")
            }
            return PostGISError.server("\(what): \(Self.reason(error))")
        }
        return error
    }

    /// The SQLSTATE of a server error, nil for other errors.
    static func sqlState(_ error: Error) -> String? { (error as? PSQLError)?.serverInfo?[.sqlState] }

    /// A server error's message, detail and SQLSTATE; otherwise the error's own text.
    static func reason(_ error: Error) -> String {
        if let e = error as? PSQLError {
            if let info = e.serverInfo, let message = info[.message] {
                var s = message
                if let d = info[.detail] { s += " (\(d))" }
                if let code = info[.sqlState] { s += " [SQLSTATE \(code)]" }
                return s
            }
            if let u = e.underlying { return "\(u)" }
            return "\(e.code)"
        }
        return "\(error)"
    }
}
