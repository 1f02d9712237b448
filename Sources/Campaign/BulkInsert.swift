import GRDB
import GRDBSQLite

/// Bulk loads through the SQLite C API: rows are given column by column, gathered into
/// statements of several rows each (`INSERT … VALUES (…), (…), …`), and each statement is
/// stepped once. Bulk loads use it instead of GRDB's `execute(arguments:)`, which boxes every
/// value of every row into an argument array, and instead of a statement per row, which costs
/// SQLite a statement's start and end per row (and, on an AUTOINCREMENT table, a look-up and
/// an update of `sqlite_sequence`): at a million rows, several seconds.
///
/// Texts and blobs are copied into one buffer of the statement's rows and bound from there
/// without another copy (SQLITE_STATIC, valid until the step), so SQLite allocates nothing per
/// value. Rows go in in the order given; errors come back as GRDB `DatabaseError`s. Call
/// `finish()` after the last row: rows of a statement not yet full are written then.
final class BulkInsert {
    private let db: Database
    private let prefix: String
    private let rowSQL: String
    private let columns: Int
    private let rowsPerStatement: Int
    /// The full statement, prepared once; a shorter one for the rows left at `finish()`.
    private let statement: Statement
    private let connection: OpaquePointer?

    private enum Kind: UInt8 { case null, int, double, text, blob }
    /// The values of the rows gathered so far: kind, then the integer, the double's bits, or
    /// the offset of the bytes in `bytes` with their length in `lengths`.
    /// (Unchecked: only this object touches them, one call at a time; the runtime's
    /// exclusivity checks cost more than the appends at a million rows.)
    @exclusivity(unchecked) private var kinds: [Kind] = []
    @exclusivity(unchecked) private var words: [Int64] = []
    @exclusivity(unchecked) private var lengths: [Int32] = []
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    @exclusivity(unchecked) private var rows = 0

    /// `INSERT [OR conflict] INTO table (columns) VALUES …`, `rowsPerStatement` rows a statement.
    init(_ db: Database, into table: String, columns names: [String], or conflict: String? = nil,
         rowsPerStatement: Int = 32) throws {
        self.db = db
        columns = names.count
        // Within SQLite's limit on the parameters of one statement.
        let limit = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        self.rowsPerStatement = max(1, min(rowsPerStatement, limit / max(1, names.count)))
        prefix = "INSERT \(conflict.map { "OR \($0) " } ?? "")INTO \(table) (\(names.joined(separator: ", "))) VALUES "
        rowSQL = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        statement = try db.makeStatement(sql: Self.sql(prefix, rowSQL, rows: self.rowsPerStatement))
        connection = db.sqliteConnection
        let values = columns * self.rowsPerStatement
        kinds.reserveCapacity(values); words.reserveCapacity(values); lengths.reserveCapacity(values)
    }

    private static func sql(_ prefix: String, _ row: String, rows: Int) -> String {
        prefix + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// SQLite needs a non-null pointer for an empty text or blob (null would bind NULL).
    nonisolated(unsafe) private static let empty = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

    func null() { kinds.append(.null); words.append(0); lengths.append(0) }

    func int(_ v: Int64) { kinds.append(.int); words.append(v); lengths.append(0) }
    func int(_ v: Int) { int(Int64(v)) }
    func int(_ v: Int?) { if let v { int(Int64(v)) } else { null() } }
    func bool(_ v: Bool) { int(Int64(v ? 1 : 0)) }

    func double(_ v: Double) { kinds.append(.double); words.append(Int64(bitPattern: v.bitPattern)); lengths.append(0) }
    func double(_ v: Double?) { if let v { double(v) } else { null() } }

    func text(_ s: String?) {
        guard var s else { return null() }
        let start = bytes.count
        s.withUTF8 { bytes.append(contentsOf: $0) }
        kinds.append(.text); words.append(Int64(start)); lengths.append(Int32(bytes.count - start))
    }

    /// A text given as its UTF-8 bytes.
    func text(utf8: UnsafeBufferPointer<UInt8>) {
        kinds.append(.text); words.append(Int64(bytes.count)); lengths.append(Int32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    func blob(_ b: [UInt8]) {
        kinds.append(.blob); words.append(Int64(bytes.count)); lengths.append(Int32(b.count))
        bytes.append(contentsOf: b)
    }

    /// Ends the row whose values were given since the last one; writes the gathered rows when
    /// they fill a statement.
    func endRow() throws {
        rows += 1
        precondition(kinds.count == rows * columns, "BulkInsert: a row of \(kinds.count - (rows - 1) * columns) values, not \(columns)")
        if rows == rowsPerStatement { try flush(statement) }
    }

    /// Writes the rows not written yet.
    func finish() throws {
        guard rows > 0 else { return }
        try flush(try db.makeStatement(sql: Self.sql(prefix, rowSQL, rows: rows)))
    }

    private func flush(_ statement: Statement) throws {
        let handle = statement.sqliteStatement
        let rc: Int32 = bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress
            for i in kinds.indices {
                let c = Int32(i + 1)
                switch kinds[i] {
                case .null: sqlite3_bind_null(handle, c)
                case .int: sqlite3_bind_int64(handle, c, words[i])
                case .double: sqlite3_bind_double(handle, c, Double(bitPattern: UInt64(bitPattern: words[i])))
                case .text, .blob:
                    let p = lengths[i] == 0 ? UnsafeRawPointer(Self.empty) : base! + Int(words[i])
                    if kinds[i] == .text {
                        sqlite3_bind_text(handle, c, p.assumingMemoryBound(to: CChar.self), lengths[i], nil)
                    } else {
                        sqlite3_bind_blob(handle, c, p, lengths[i], nil)
                    }
                }
            }
            return sqlite3_step(handle)
        }
        kinds.removeAll(keepingCapacity: true); words.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true); bytes.removeAll(keepingCapacity: true)
        rows = 0
        guard rc == SQLITE_DONE else { throw stepFailure(rc, handle, connection, statement.sql) }
        sqlite3_reset(handle)
    }
}

/// A failed `sqlite3_step` as a GRDB `DatabaseError` (with SQLite's message), the statement
/// reset so it can run again.
func stepFailure(_ rc: Int32, _ statement: OpaquePointer, _ connection: OpaquePointer?, _ sql: String) -> DatabaseError {
    let message = String(cString: sqlite3_errmsg(connection))
    sqlite3_reset(statement)
    return DatabaseError(resultCode: ResultCode(rawValue: rc), message: message, sql: sql)
}
