import GRDB
import Geo

/// Builds the R-tree of a GeoPackage feature table (SQLite's rtree module, extension
/// gpkg_rtree_index) in one pass: the entries are packed Sort-Tile-Recursive into full nodes
/// and written straight into the module's shadow tables (`%_node`, `%_rowid`, `%_parent`),
/// in the format rtree.c reads (big-endian cells of an 8-byte id and four 32-bit floats,
/// node 1 the root with the tree's depth in its first two bytes). Inserting through the
/// virtual table costs about 10 µs an entry at a million entries (ChooseLeaf and R*-splits);
/// packing costs a sort. SQLite's `rtreecheck()` accepts the result (tested).
enum RTreeBulkLoad {
    struct Entry {
        var id: Int64
        var minX: Float, maxX: Float, minY: Float, maxY: Float
        var cx: Float { minX / 2 + maxX / 2 }
        var cy: Float { minY / 2 + maxY / 2 }
    }

    /// `rtree` is recreated empty (its triggers must be dropped by the caller), then filled
    /// with `entries` (feature id and envelope in degrees; empty envelopes are skipped).
    static func build(_ db: Database, rtree: String, entries: [(id: Int64, box: BBox)]) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(rtree)")
        try db.execute(sql: "CREATE VIRTUAL TABLE \(rtree) USING rtree(id, minx, maxx, miny, maxy)")
        guard let nodeSize = try Int.fetchOne(db, sql: "SELECT length(data) FROM \(rtree)_node WHERE nodeno = 1") else {
            throw GeoPackageError.badGeometry("the R-tree \(rtree) has no root node")
        }
        let perNode = (nodeSize - 4) / cellBytes
        var level = entries.compactMap { e -> Entry? in
            e.box.isEmpty ? nil : Entry(id: e.id, minX: roundDown(e.box.minX), maxX: roundUp(e.box.maxX),
                                        minY: roundDown(e.box.minY), maxY: roundUp(e.box.maxY))
        }
        guard !level.isEmpty else { return }

        let writeNode = try BulkInsert(db, into: "\(rtree)_node", columns: ["nodeno", "data"], or: "REPLACE")
        let writeRowid = try BulkInsert(db, into: "\(rtree)_rowid", columns: ["rowid", "nodeno"], rowsPerStatement: 128)
        let writeParent = try BulkInsert(db, into: "\(rtree)_parent", columns: ["nodeno", "parentnode"], rowsPerStatement: 128)
        // Node numbers: 1 is the root; the others from 2 in the order they are made.
        var nextNode: Int64 = 2
        var depth = 0
        var blob = [UInt8](repeating: 0, count: nodeSize)
        var leafOf: [(id: Int64, node: Int64)] = [], parentOf: [(id: Int64, node: Int64)] = []
        leafOf.reserveCapacity(level.count)
        while true {
            let groups = strGroups(&level, perNode: perNode)
            let isRoot = groups.count == 1
            var parents: [Entry] = []
            parents.reserveCapacity(groups.count)
            for g in groups {
                let node: Int64 = isRoot ? 1 : nextNode
                if !isRoot { nextNode += 1 }
                for i in blob.indices { blob[i] = 0 }
                if isRoot { blob[0] = UInt8(depth >> 8); blob[1] = UInt8(depth & 0xff) }
                blob[2] = UInt8(g.count >> 8); blob[3] = UInt8(g.count & 0xff)
                var box = level[g.lowerBound]
                var at = 4
                for e in level[g] {
                    put(e.id.bigEndian, into: &blob, at: &at)
                    put(e.minX.bitPattern.bigEndian, into: &blob, at: &at)
                    put(e.maxX.bitPattern.bigEndian, into: &blob, at: &at)
                    put(e.minY.bitPattern.bigEndian, into: &blob, at: &at)
                    put(e.maxY.bitPattern.bigEndian, into: &blob, at: &at)
                    box.minX = min(box.minX, e.minX); box.maxX = max(box.maxX, e.maxX)
                    box.minY = min(box.minY, e.minY); box.maxY = max(box.maxY, e.maxY)
                }
                box.id = node
                parents.append(box)
                writeNode.int(node); writeNode.blob(blob)
                try writeNode.endRow()
                // Leaves: where each feature id sits; above: each child node's parent.
                for e in level[g] {
                    if depth == 0 { leafOf.append((e.id, node)) } else { parentOf.append((e.id, node)) }
                }
            }
            if isRoot { break }
            level = parents
            depth += 1
        }
        try writeNode.finish()
        // In key order, so each table grows at its end.
        for (rows, insert) in [(leafOf, writeRowid), (parentOf, writeParent)] {
            for r in rows.sorted(by: { $0.id < $1.id }) {
                insert.int(r.id); insert.int(r.node)
                try insert.endRow()
            }
            try insert.finish()
        }
    }

    static let cellBytes = 8 + 4 * 4

    /// Sort-Tile-Recursive: sorts `items` into vertical slices by centre x, each slice by
    /// centre y (ties by id, so the tree does not depend on input order), and cuts runs of
    /// `perNode`; returns the runs' index ranges.
    static func strGroups(_ items: inout [Entry], perNode: Int) -> [Range<Int>] {
        let n = items.count
        let nodes = (n + perNode - 1) / perNode
        let slices = Int(Double(nodes).squareRoot().rounded(.up))
        let perSlice = slices * perNode
        items.sort { ($0.cx, $0.id) < ($1.cx, $1.id) }
        var groups: [Range<Int>] = []
        groups.reserveCapacity(nodes)
        var start = 0
        while start < n {
            let end = min(n, start + perSlice)
            items[start..<end].sort { ($0.cy, $0.id) < ($1.cy, $1.id) }
            var g = start
            while g < end {
                groups.append(g..<min(end, g + perNode))
                g += perNode
            }
            start = end
        }
        return groups
    }

    private static func put<T: FixedWidthInteger>(_ v: T, into blob: inout [UInt8], at: inout Int) {
        withUnsafeBytes(of: v) { for b in $0 { blob[at] = b; at += 1 } }
    }

    /// The rtree module stores 32-bit floats rounded outward: the largest float not above a
    /// minimum, the smallest not below a maximum (rtreeValueDown / rtreeValueUp in rtree.c).
    static func roundDown(_ d: Double) -> Float {
        var f = Float(d)
        if Double(f) > d { f = Float(d * (d < 0 ? 1 + 1.0 / 8_388_608 : 1 - 1.0 / 8_388_608)) }
        return f
    }

    static func roundUp(_ d: Double) -> Float {
        var f = Float(d)
        if Double(f) < d { f = Float(d * (d < 0 ? 1 - 1.0 / 8_388_608 : 1 + 1.0 / 8_388_608)) }
        return f
    }
}
