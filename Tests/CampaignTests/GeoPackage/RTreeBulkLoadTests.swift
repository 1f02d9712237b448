import Foundation
import GRDB
import Testing
@testable import Campaign
import Geo

/// The packed R-tree must be one SQLite's rtree module accepts as its own: rtreecheck() ok,
/// the same 32-bit bounds row-by-row inserts store, the same answers to window queries, and
/// edits through the virtual table afterwards keep it valid.
struct RTreeBulkLoadTests {
    /// Boxes at random places and sizes (points among them), deterministic.
    static func boxes(_ n: Int, seed: UInt64) -> [(id: Int64, box: BBox)] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<n).map { i in
            let x = -74 + next() * 0.5, y = 40.5 + next() * 0.3
            let w = i % 7 == 0 ? 0 : next() * 1e-3, h = i % 7 == 0 ? 0 : next() * 1e-3
            return (Int64(i + 1), BBox(minX: x, minY: y, maxX: x + w, maxY: y + h))
        }
    }

    func database() throws -> DatabaseQueue {
        let path = try Fixtures.tempDir().appendingPathComponent("r.sqlite").path
        return try DatabaseQueue(path: path)
    }

    @Test(arguments: [0, 1, 50, 51, 52, 2_601, 2_602, 20_000])
    func packedTreeIsValidAndStoresWhatInsertsStore(count: Int) throws {
        let entries = Self.boxes(count, seed: UInt64(count) + 7)
        let db = try database()
        try db.write { db in
            try RTreeBulkLoad.build(db, rtree: "packed", entries: entries)
            try db.execute(sql: "CREATE VIRTUAL TABLE inserted USING rtree(id, minx, maxx, miny, maxy)")
            for e in entries {
                try db.execute(sql: "INSERT INTO inserted VALUES (?, ?, ?, ?, ?)",
                               arguments: [e.id, e.box.minX, e.box.maxX, e.box.minY, e.box.maxY])
            }
        }
        try db.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('packed')") == "ok")
            let rows = "SELECT id, minx, maxx, miny, maxy FROM %@ ORDER BY id"
            let packed = try Row.fetchAll(db, sql: rows.replacingOccurrences(of: "%@", with: "packed"))
            let inserted = try Row.fetchAll(db, sql: rows.replacingOccurrences(of: "%@", with: "inserted"))
            #expect(packed.count == count)
            #expect(packed == inserted)
        }
    }

    @Test func windowQueriesMatchAScanAndEditsKeepTheTreeValid() throws {
        let entries = Self.boxes(30_000, seed: 42)
        let db = try database()
        try db.write { db in try RTreeBulkLoad.build(db, rtree: "r", entries: entries) }
        let windows = Self.boxes(200, seed: 9).map { w in w.box.expanded(by: 0.01) }
        try db.read { db throws in
            for w in windows {
                let got = try Int64.fetchAll(db, sql: "SELECT id FROM r WHERE minx <= ? AND maxx >= ? AND miny <= ? AND maxy >= ? ORDER BY id",
                                             arguments: [w.maxX, w.minX, w.maxY, w.minY])
                // The stored bounds are rounded outward, so the index may return a few more.
                let exact = entries.filter { $0.box.intersects(w) }.map(\.id)
                #expect(Set(exact).isSubset(of: Set(got)))
                let loose = entries.filter { $0.box.expanded(by: 1e-4).intersects(w) }.map(\.id)
                #expect(Set(got).isSubset(of: Set(loose)))
            }
        }
        try db.write { db in
            try db.execute(sql: "DELETE FROM r WHERE id % 3 = 0")
            for i in 0..<5_000 {
                try db.execute(sql: "INSERT INTO r VALUES (?, ?, ?, ?, ?)", arguments: [100_000 + i, -73.9, -73.8, 40.6, 40.7])
            }
            try db.execute(sql: "UPDATE r SET minx = minx - 0.1 WHERE id % 5 = 1")
        }
        try db.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('r')") == "ok")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM r") == 30_000 - 10_000 + 5_000)
        }
    }

    /// The sorts break ties by id, so entries given in any order (ties included: many boxes
    /// share a centre here) pack into the very same nodes. Ids with gaps (not a provision's
    /// run of fids) land in the rowid table as given.
    @Test func theTreeDoesNotDependOnTheEntriesOrder() throws {
        let entries = Self.boxes(5_000, seed: 3).map { e in
            (id: e.id * 7 + 3, box: e.id % 3 == 0 ? BBox(minX: -73.9, minY: 40.6, maxX: -73.9, maxY: 40.6) : e.box)
        }
        var shuffled = entries
        var rng = SystemRandomNumberGenerator()
        shuffled.shuffle(using: &rng)
        let db = try database()
        try db.write { db in
            try RTreeBulkLoad.build(db, rtree: "a", entries: entries)
            try RTreeBulkLoad.build(db, rtree: "b", entries: shuffled)
        }
        try db.read { db throws in
            for shadow in ["node", "rowid", "parent"] {
                let a = try Row.fetchAll(db, sql: "SELECT * FROM a_\(shadow) ORDER BY 1")
                let b = try Row.fetchAll(db, sql: "SELECT * FROM b_\(shadow) ORDER BY 1")
                #expect(a == b && !a.isEmpty)
            }
            #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('b')") == "ok")
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM b ORDER BY id") == entries.map(\.id))
        }
    }

    @Test func rebuildingReplacesTheWholeTree() throws {
        let db = try database()
        try db.write { db in
            try RTreeBulkLoad.build(db, rtree: "r", entries: Self.boxes(10_000, seed: 1))
            try RTreeBulkLoad.build(db, rtree: "r", entries: Self.boxes(300, seed: 2))
        }
        try db.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('r')") == "ok")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM r") == 300)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM r_rowid") == 300)
        }
    }

    @Test func outwardRoundingBracketsTheDouble() {
        for d in [0.0, 1e-9, -1e-9, 40.712345678901, -73.987654321012, 1e30, -1e30, 0.1, -0.1] {
            #expect(Double(RTreeBulkLoad.roundDown(d)) <= d)
            #expect(Double(RTreeBulkLoad.roundUp(d)) >= d)
        }
    }
}
