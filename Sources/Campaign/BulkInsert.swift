import GRDB
import GRDBSQLite

/// A prepared statement stepped once per row, its values bound column by column through the
/// SQLite C API. Bulk loads use it instead of GRDB's `execute(arguments:)`, which boxes every
/// value of every row into an argument array. Errors come back as GRDB `DatabaseError`s.
final class BulkInsert {
    private let statement: Statement
    private let sql: String
    private let connection: OpaquePointer?
    private var column: Int32 = 0

    init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        self.sql = sql
        connection = db.sqliteConnection
    }

    private var handle: OpaquePointer { statement.sqliteStatement }
    /// SQLite copies the bytes before the bind call returns.
    nonisolated(unsafe) private static let emptyText = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func null() { column += 1; sqlite3_bind_null(handle, column) }

    func int(_ v: Int64) { column += 1; sqlite3_bind_int64(handle, column, v) }
    func int(_ v: Int) { int(Int64(v)) }
    func int(_ v: Int?) { if let v { int(Int64(v)) } else { null() } }
    func bool(_ v: Bool) { int(Int64(v ? 1 : 0)) }

    func double(_ v: Double) { column += 1; sqlite3_bind_double(handle, column, v) }
    func double(_ v: Double?) { if let v { double(v) } else { null() } }

    func text(_ s: String?) {
        guard var s else { return null() }
        column += 1
        let c = column, h = handle
        s.withUTF8 { p in
            // An empty string still binds a (zero-length) text, not NULL.
            let bytes = UnsafeRawPointer(p.baseAddress) ?? UnsafeRawPointer(Self.emptyText)
            _ = sqlite3_bind_text(h, c, bytes.assumingMemoryBound(to: CChar.self), Int32(p.count), Self.transient)
        }
    }

    func blob(_ bytes: [UInt8]) {
        column += 1
        let c = column, h = handle
        bytes.withUnsafeBytes { p in _ = sqlite3_bind_blob(h, c, p.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(p.count), Self.transient) }
    }

    /// Runs the statement with the values bound since the last row; returns the new rowid.
    @discardableResult
    func insert() throws -> Int64 {
        defer { column = 0 }
        let rc = sqlite3_step(handle)
        guard rc == SQLITE_DONE else { throw stepFailure(rc, handle, connection, sql) }
        sqlite3_reset(handle)
        return sqlite3_last_insert_rowid(connection)
    }
}

/// A failed `sqlite3_step` as a GRDB `DatabaseError` (with SQLite's message), the statement
/// reset so it can run again.
func stepFailure(_ rc: Int32, _ statement: OpaquePointer, _ connection: OpaquePointer?, _ sql: String) -> DatabaseError {
    let message = String(cString: sqlite3_errmsg(connection))
    sqlite3_reset(statement)
    return DatabaseError(resultCode: ResultCode(rawValue: rc), message: message, sql: sql)
}
