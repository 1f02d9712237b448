import Foundation
import GRDB
import Testing
@testable import Campaign

/// Rows gathered into several-row statements must land exactly as a statement per row would
/// put them: every value kind, NULL apart from the empty text and blob, rows in order across
/// full statements and the rest written by `finish()`, and a failing row reported as SQLite's error.
struct BulkInsertTests {
    func database() throws -> DatabaseQueue {
        try DatabaseQueue(path: try Fixtures.tempDir().appendingPathComponent("b.sqlite").path)
    }

    static func text(_ i: Int) -> String? {
        i % 5 == 0 ? nil : i % 5 == 1 ? "" : String(repeating: "é\(i)", count: i % 13)
    }
    static func blob(_ i: Int) -> [UInt8] { (0..<(i % 4 == 0 ? 0 : i % 300)).map { UInt8(($0 * 7 + i) & 0xff) } }

    @Test(arguments: [0, 1, 6, 7, 8, 100])
    func rowsLandAsWrittenAcrossStatements(count: Int) throws {
        let db = try database()
        try db.write { db in
            try db.execute(sql: "CREATE TABLE t (i INTEGER, d DOUBLE, s TEXT, b BLOB, n INTEGER)")
            let insert = try BulkInsert(db, into: "t", columns: ["i", "d", "s", "b", "n"], rowsPerStatement: 7)
            for i in 0..<count {
                insert.int(i)
                insert.double(i % 3 == 0 ? nil : Double(i) / 3)
                insert.text(Self.text(i))
                insert.blob(Self.blob(i))
                insert.int(i % 2 == 0 ? nil : -i)
                try insert.endRow()
            }
            try insert.finish()
        }
        let rows = try db.read { db in try Row.fetchAll(db, sql: "SELECT i, d, s, b, n, typeof(s), typeof(b) FROM t ORDER BY rowid") }
        #expect(rows.count == count)
        for (i, r) in rows.enumerated() {
            #expect(r[0] as Int == i)
            #expect(r[1] as Double? == (i % 3 == 0 ? nil : Double(i) / 3))
            #expect(r[2] as String? == Self.text(i))
            #expect(r[5] as String == (Self.text(i) == nil ? "null" : "text"))
            #expect(r[6] as String == "blob")
            #expect((r[3] as Data?).map { [UInt8]($0) } ?? [] == Self.blob(i))
            #expect(r[4] as Int? == (i % 2 == 0 ? nil : -i))
        }
    }

    @Test func aFailingRowIsReportedAndEarlierStatementsStay() throws {
        let db = try database()
        try db.write { db in
            try db.execute(sql: "CREATE TABLE u (k TEXT NOT NULL UNIQUE)")
            let insert = try BulkInsert(db, into: "u", columns: ["k"], rowsPerStatement: 4)
            for k in ["a", "b", "c", "d", "e"] { insert.text(k); try insert.endRow() }
            insert.text("a")
            let error = #expect(throws: DatabaseError.self) {
                try insert.endRow()
                try insert.finish()
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(try String.fetchAll(db, sql: "SELECT k FROM u ORDER BY rowid") == ["a", "b", "c", "d"])
        }
    }

    /// Chunks made on the pipe's thread arrive in order, all of them; a writer that fails
    /// stops the maker (which may be waiting on a full queue) and gets its error back.
    @Test func aPipeHandsOverEveryChunkInOrderAndStopsOnAnError() throws {
        let pipe = RowPipe(capacity: 2) { put in
            for i in 0..<500 {
                var v = RowValues()
                v.int(i); v.endRow()
                guard put([v]) else { return }
            }
        }
        var seen: [Int64] = []
        try pipe.drain { seen.append($0[0].words[0]) }
        #expect(seen == (0..<500).map(Int64.init))

        let made = Tally()
        let failing = RowPipe(capacity: 2) { put in
            for i in 0..<10_000 {
                var v = RowValues()
                v.int(i); v.endRow()
                guard put([v]) else { return }
                made.count = i + 1
            }
        }
        var taken = 0
        #expect(throws: ProvisionFault.self) {
            try failing.drain { _ in
                taken += 1
                if taken == 10 { throw ProvisionFault.injected(taken) }
            }
        }
        #expect(made.count < 10_000)
    }
}
