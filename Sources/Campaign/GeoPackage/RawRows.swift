import GRDB
import GRDBSQLite

/// Steps a prepared SELECT through the SQLite C API and reads columns in place: a blob is
/// handed out as the bytes SQLite holds (valid until the next step), with no `Row` or `Data`
/// made per row. For scans of whole tables (map layers); errors come back as `DatabaseError`s.
final class RawRows {
    private let statement: Statement
    private let sql: String
    private let connection: OpaquePointer?

    init(_ db: Database, sql: String) throws {
        statement = try db.makeStatement(sql: sql)
        self.sql = sql
        connection = db.sqliteConnection
    }

    private var handle: OpaquePointer { statement.sqliteStatement }

    /// Moves to the next row; false at the end.
    func next() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: sqlite3_reset(handle); return false
        case let rc: throw stepFailure(rc, handle, connection, sql)
        }
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(handle, column) else { return nil }
        let n = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    /// A text column's UTF-8 bytes, valid until the next call to `next()`; empty for NULL.
    func textBytes(_ column: Int32) -> UnsafeRawBufferPointer {
        let p = sqlite3_column_text(handle, column)
        let n = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n)
    }

    /// The column's bytes, valid until the next call to `next()`; empty for NULL.
    func blob(_ column: Int32) -> UnsafeRawBufferPointer {
        let p = sqlite3_column_blob(handle, column)
        let n = Int(sqlite3_column_bytes(handle, column))
        return UnsafeRawBufferPointer(start: p, count: p == nil ? 0 : n)
    }
}
