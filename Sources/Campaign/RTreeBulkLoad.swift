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
        /// The entry's place in id order, for ties in the sorts.
        var rank: UInt32 = 0
        var cx: Float { minX / 2 + maxX / 2 }
        var cy: Float { minY / 2 + maxY / 2 }

        /// A sort key: the centre's bits in an order-keeping form (+ 0 turns -0 into +0, which
        /// compares equal to it), above the rank.
        @inline(__always) func key(x: Bool) -> UInt64 {
            let bits = ((x ? cx : cy) + 0).bitPattern
            let ordered = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
            return UInt64(ordered) << 32 | UInt64(rank)
        }
    }

    /// `rtree` is recreated empty (its triggers must be dropped by the caller), then filled
    /// with `entries` (feature id and envelope in degrees; empty envelopes are skipped).
    static func build(_ db: Database, rtree: String, entries: [(id: Int64, box: BBox)]) throws {
        let nodeSize = try create(db, rtree: rtree)
        try write(db, rtree: rtree, plan(entries, nodeSize: nodeSize))
    }

    /// Recreates `rtree` empty; returns the size of its nodes in bytes (what `plan` needs).
    static func create(_ db: Database, rtree: String) throws -> Int {
        try db.execute(sql: "DROP TABLE IF EXISTS \(rtree)")
        try db.execute(sql: "CREATE VIRTUAL TABLE \(rtree) USING rtree(id, minx, maxx, miny, maxy)")
        guard let nodeSize = try Int.fetchOne(db, sql: "SELECT length(data) FROM \(rtree)_node WHERE nodeno = 1") else {
            throw GeoPackageError.badGeometry("the R-tree \(rtree) has no root node")
        }
        return nodeSize
    }

    /// The packed tree, worked out without the database (so on any thread): each level's
    /// entries in node order with the nodes' ranges (leaves first; above, the nodes below as
    /// entries), and each feature's leaf and each node's parent, sorted by id.
    struct Plan: Sendable {
        var nodeSize: Int
        var levels: [(entries: [Entry], nodes: [Range<Int>], firstNode: Int64)] = []
        /// Each feature's leaf node, by the feature's rank in id order, and the ids in that
        /// order (nil when they run on by one from `firstID`, as a provision's fids do).
        var leafByRank: [Int32] = []
        var ids: [Int64]? = nil
        var firstID: Int64 = 0
        var parentOf: [(id: Int64, node: Int64)] = []
    }

    static func plan(_ entries: [(id: Int64, box: BBox)], nodeSize: Int) -> Plan {
        var plan = Plan(nodeSize: nodeSize)
        let perNode = (nodeSize - 4) / cellBytes
        var level = entries.compactMap { e -> Entry? in
            e.box.isEmpty ? nil : Entry(id: e.id, minX: roundDown(e.box.minX), maxX: roundUp(e.box.maxX),
                                        minY: roundDown(e.box.minY), maxY: roundUp(e.box.maxY))
        }
        guard !level.isEmpty else { return plan }
        // Ties in the sorts go by id: the entries' ranks in id order (provisions give them so).
        if !zip(level, level.dropFirst()).allSatisfy({ $0.id < $1.id }) { level.sort { $0.id < $1.id } }
        plan.firstID = level[0].id
        if !zip(level, level.dropFirst()).allSatisfy({ $1.id == $0.id &+ 1 }) { plan.ids = level.map(\.id) }
        // Node numbers: 1 is the root; the others from 2 in the order they are made.
        var nextNode: Int64 = 2
        while true {
            let groups = strGroups(&level, perNode: perNode)
            let isRoot = groups.count == 1
            let firstNode = isRoot ? 1 : nextNode
            if !isRoot { nextNode += Int64(groups.count) }
            var parents: [Entry] = []
            parents.reserveCapacity(groups.count)
            let leaves = plan.levels.isEmpty
            if leaves { plan.leafByRank = [Int32](repeating: 0, count: level.count) }
            for (k, g) in groups.enumerated() {
                let node = firstNode + Int64(k)
                var box = level[g.lowerBound]
                for e in level[g] {
                    box.minX = min(box.minX, e.minX); box.maxX = max(box.maxX, e.maxX)
                    box.minY = min(box.minY, e.minY); box.maxY = max(box.maxY, e.maxY)
                    // Leaves: where each feature sits (by its rank, which the first sort gave
                    // it); above: each child node's parent.
                    if leaves { plan.leafByRank[Int(e.rank)] = Int32(node) } else { plan.parentOf.append((e.id, node)) }
                }
                box.id = node
                parents.append(box)
            }
            plan.levels.append((level, groups, firstNode))
            if isRoot { break }
            level = parents   // made in node number order, so already in id order
        }
        plan.parentOf.sort { $0.id < $1.id }
        return plan
    }

    /// Writes a plan made for `rtree` (by `create`) into its shadow tables.
    static func write(_ db: Database, rtree: String, _ plan: Plan) throws {
        guard !plan.levels.isEmpty else { return }
        let writeNode = try BulkInsert(db, into: "\(rtree)_node", columns: ["nodeno", "data"], or: "REPLACE")
        let writeRowid = try BulkInsert(db, into: "\(rtree)_rowid", columns: ["rowid", "nodeno"], rowsPerStatement: 128)
        let writeParent = try BulkInsert(db, into: "\(rtree)_parent", columns: ["nodeno", "parentnode"], rowsPerStatement: 128)
        var blob = [UInt8](repeating: 0, count: plan.nodeSize)
        for (depth, l) in plan.levels.enumerated() {
            let isRoot = depth + 1 == plan.levels.count
            for (k, g) in l.nodes.enumerated() {
                let node = l.firstNode + Int64(k)
                for i in blob.indices { blob[i] = 0 }
                if isRoot { blob[0] = UInt8(depth >> 8); blob[1] = UInt8(depth & 0xff) }
                blob[2] = UInt8(g.count >> 8); blob[3] = UInt8(g.count & 0xff)
                var at = 4
                for e in l.entries[g] {
                    put(e.id.bigEndian, into: &blob, at: &at)
                    put(e.minX.bitPattern.bigEndian, into: &blob, at: &at)
                    put(e.maxX.bitPattern.bigEndian, into: &blob, at: &at)
                    put(e.minY.bitPattern.bigEndian, into: &blob, at: &at)
                    put(e.maxY.bitPattern.bigEndian, into: &blob, at: &at)
                }
                writeNode.int(node); writeNode.blob(blob)
                try writeNode.endRow()
            }
        }
        try writeNode.finish()
        // In key order, so each table grows at its end.
        for (rank, node) in plan.leafByRank.enumerated() {
            writeRowid.int(plan.ids?[rank] ?? plan.firstID + Int64(rank)); writeRowid.int(Int(node))
            try writeRowid.endRow()
        }
        try writeRowid.finish()
        for r in plan.parentOf {
            writeParent.int(r.id); writeParent.int(r.node)
            try writeParent.endRow()
        }
        try writeParent.finish()
    }

    static let cellBytes = 8 + 4 * 4

    /// Sort-Tile-Recursive: sorts `items` (given in id order) into vertical slices by centre
    /// x, each slice by centre y (ties by id, so the tree does not depend on input order),
    /// and cuts runs of `perNode`; returns the runs' index ranges.
    static func strGroups(_ items: inout [Entry], perNode: Int) -> [Range<Int>] {
        let n = items.count
        let nodes = (n + perNode - 1) / perNode
        let slices = Int(Double(nodes).squareRoot().rounded(.up))
        let perSlice = slices * perNode
        // Each item's rank in id order, for the ties.
        precondition(n < 1 << 32, "R-tree: too many entries")
        for i in 0..<n { items[i].rank = UInt32(i) }
        items.sort { $0.key(x: true) < $1.key(x: true) }
        var groups: [Range<Int>] = []
        groups.reserveCapacity(nodes)
        var start = 0
        while start < n {
            let end = min(n, start + perSlice)
            items[start..<end].sort { $0.key(x: false) < $1.key(x: false) }
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
