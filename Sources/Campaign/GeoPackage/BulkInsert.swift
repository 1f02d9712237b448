import Foundation
import GRDB
import GRDBSQLite

/// The values of rows for one table, column by column, gathered apart from the database (so on
/// any thread): kind, then the integer, the double's bits, or the offset of the bytes in
/// `bytes` with their length. Texts and blobs of all the rows share the one byte buffer.
struct RowValues: Sendable {
    enum Kind: UInt8, Sendable { case null, int, double, text, blob }
    var kinds: [Kind] = []
    var words: [Int64] = []
    var lengths: [Int32] = []
    var bytes: [UInt8] = []
    private(set) var rows = 0

    init(capacity values: Int = 0) {
        kinds.reserveCapacity(values); words.reserveCapacity(values); lengths.reserveCapacity(values)
    }

    mutating func null() { kinds.append(.null); words.append(0); lengths.append(0) }

    mutating func int(_ v: Int64) { kinds.append(.int); words.append(v); lengths.append(0) }
    mutating func int(_ v: Int) { int(Int64(v)) }
    mutating func int(_ v: Int?) { if let v { int(Int64(v)) } else { null() } }
    mutating func bool(_ v: Bool) { int(Int64(v ? 1 : 0)) }

    mutating func double(_ v: Double) { kinds.append(.double); words.append(Int64(bitPattern: v.bitPattern)); lengths.append(0) }
    mutating func double(_ v: Double?) { if let v { double(v) } else { null() } }

    mutating func text(_ s: String?) {
        guard var s else { return null() }
        s.withUTF8 { text(utf8: $0) }
    }

    /// A text given as its UTF-8 bytes.
    mutating func text(utf8: UnsafeBufferPointer<UInt8>) {
        kinds.append(.text); words.append(Int64(bytes.count)); lengths.append(Int32(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func blob(_ b: [UInt8]) {
        kinds.append(.blob); words.append(Int64(bytes.count)); lengths.append(Int32(b.count))
        bytes.append(contentsOf: b)
    }

    /// Ends the row whose values were given since the last one.
    mutating func endRow() { rows += 1 }

    mutating func removeAll() {
        kinds.removeAll(keepingCapacity: true); words.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true); bytes.removeAll(keepingCapacity: true)
        rows = 0
    }
}

/// Bulk loads through the SQLite C API: rows are given column by column, gathered into
/// statements of several rows each (`INSERT … VALUES (…), (…), …`), and each statement is
/// stepped once. Bulk loads use it instead of GRDB's `execute(arguments:)`, which boxes every
/// value of every row into an argument array, and instead of a statement per row, which costs
/// SQLite a statement's start and end per row (and, on an AUTOINCREMENT table, a look-up and
/// an update of `sqlite_sequence`): at a million rows, several seconds.
///
/// Texts and blobs are bound from the rows' byte buffer without another copy (SQLITE_STATIC,
/// valid until the step), so SQLite allocates nothing per value. Rows go in in the order given;
/// errors come back as GRDB `DatabaseError`s. Rows are given here one value at a time (call
/// `finish()` after the last: rows of a statement not yet full are written then), or gathered
/// elsewhere into `RowValues` and written in one call (`write`).
final class BulkInsert {
    private let db: Database
    private let prefix: String
    private let rowSQL: String
    let columns: Int
    private let rowsPerStatement: Int
    /// The full statement, prepared once; shorter ones as they are needed, kept by row count.
    private let statement: Statement
    private var shorter: [Int: Statement] = [:]
    private let connection: OpaquePointer?
    /// The rows given here one value at a time and not written yet. (Unchecked: only this
    /// object touches it, one call at a time; the runtime's exclusivity checks cost more than
    /// the appends at a million rows.)
    @exclusivity(unchecked) private var pending: RowValues

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
        pending = RowValues(capacity: columns * self.rowsPerStatement)
    }

    /// How many rows a chunk of `RowValues` should hold to fill whole statements.
    func rows(filling statements: Int) -> Int { rowsPerStatement * statements }

    private static func sql(_ prefix: String, _ row: String, rows: Int) -> String {
        prefix + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// SQLite needs a non-null pointer for an empty text or blob (null would bind NULL).
    nonisolated(unsafe) private static let empty = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)

    func null() { pending.null() }
    func int(_ v: Int64) { pending.int(v) }
    func int(_ v: Int) { pending.int(v) }
    func int(_ v: Int?) { pending.int(v) }
    func bool(_ v: Bool) { pending.bool(v) }
    func double(_ v: Double) { pending.double(v) }
    func double(_ v: Double?) { pending.double(v) }
    func text(_ s: String?) { pending.text(s) }
    func text(utf8: UnsafeBufferPointer<UInt8>) { pending.text(utf8: utf8) }
    func blob(_ b: [UInt8]) { pending.blob(b) }

    /// Ends the row whose values were given since the last one; writes the gathered rows when
    /// they fill a statement.
    func endRow() throws {
        pending.endRow()
        if pending.rows == rowsPerStatement {
            defer { pending.removeAll() }
            try write(pending)
        }
    }

    /// Writes the rows not written yet.
    func finish() throws {
        guard pending.rows > 0 else { return }
        defer { pending.removeAll() }
        try write(pending)
    }

    /// Writes all the rows of `values` (gathered for this table's columns), in order.
    func write(_ values: RowValues) throws {
        precondition(values.kinds.count == values.rows * columns,
                     "BulkInsert: \(values.kinds.count) values for \(values.rows) rows of \(columns)")
        var row = 0
        while row < values.rows {
            let n = min(rowsPerStatement, values.rows - row)
            let s: Statement
            if n == rowsPerStatement { s = statement } else if let made = shorter[n] { s = made } else {
                s = try db.makeStatement(sql: Self.sql(prefix, rowSQL, rows: n))
                shorter[n] = s
            }
            try step(s, values, first: row * columns, count: n * columns)
            row += n
        }
    }

    /// Binds `count` values of `values` from `first` to the parameters of `statement`, steps it.
    private func step(_ statement: Statement, _ values: RowValues, first: Int, count: Int) throws {
        let handle = statement.sqliteStatement
        let rc: Int32 = values.bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress
            for k in 0..<count {
                let i = first + k, c = Int32(k + 1)
                switch values.kinds[i] {
                case .null: sqlite3_bind_null(handle, c)
                case .int: sqlite3_bind_int64(handle, c, values.words[i])
                case .double: sqlite3_bind_double(handle, c, Double(bitPattern: UInt64(bitPattern: values.words[i])))
                case .text, .blob:
                    let length = values.lengths[i]
                    let p = length == 0 ? UnsafeRawPointer(Self.empty) : base! + Int(values.words[i])
                    if values.kinds[i] == .text {
                        sqlite3_bind_text(handle, c, p.assumingMemoryBound(to: CChar.self), length, nil)
                    } else {
                        sqlite3_bind_blob(handle, c, p, length, nil)
                    }
                }
            }
            return sqlite3_step(handle)
        }
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
