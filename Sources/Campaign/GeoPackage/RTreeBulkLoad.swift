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
    /// An envelope as the module stores it (32-bit floats, rounded outward).
    struct Box: Sendable {
        var minX: Float, maxX: Float, minY: Float, maxY: Float
        init(_ b: BBox) {
            minX = roundDown(b.minX); maxX = roundUp(b.maxX); minY = roundDown(b.minY); maxY = roundUp(b.maxY)
        }
        /// A sort key: the centre's x or y bits in an order-keeping form (+ 0 turns -0 into +0,
        /// which compares equal to it), above `rank`, the entry's place in id order (for ties).
        @inline(__always) func key(x: Bool, rank: Int) -> UInt64 {
            let bits = ((x ? minX / 2 + maxX / 2 : minY / 2 + maxY / 2) + 0).bitPattern
            let ordered = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
            return UInt64(ordered) << 32 | UInt64(rank)
        }
        mutating func cover(_ b: Box) {
            minX = min(minX, b.minX); maxX = max(maxX, b.maxX); minY = min(minY, b.minY); maxY = max(maxY, b.maxY)
        }
    }

    /// `rtree` is recreated empty (its triggers must be dropped by the caller), then filled
    /// with `entries` (feature id and envelope in degrees; empty envelopes are skipped).
    static func build(_ db: Database, rtree: String, entries: [(id: Int64, box: BBox)]) throws {
        let nodeSize = try create(db, rtree: rtree)
        let sorted = zip(entries, entries.dropFirst()).allSatisfy { $0.id < $1.id } ? entries : entries.sorted { $0.id < $1.id }
        try write(db, rtree: rtree, plan(count: sorted.count, nodeSize: nodeSize, id: { sorted[$0].id }, box: { sorted[$0].box }))
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

    /// One level of the packed tree: its entries by rank (their place in id order) with their
    /// ids (`ids`, or from `firstID` on by one: a provision's fids, the node numbers of the
    /// level below), the ranks in node order (`order`, cut into `nodes`, numbered from
    /// `firstNode`), and the node that holds each rank.
    struct Level: Sendable {
        var boxes: [Box]
        var ids: [Int64]? = nil
        var firstID: Int64
        var order: [UInt32] = []
        var nodes: [Range<Int>] = []
        var firstNode: Int64 = 0
        var nodeOfRank: [Int32] = []
        func id(_ rank: Int) -> Int64 { ids?[rank] ?? firstID + Int64(rank) }
    }

    /// The packed tree, worked out without the database (so on any thread): its levels,
    /// leaves first. About 24 bytes an entry (the boxes, their order and their leaves).
    struct Plan: Sendable {
        var nodeSize: Int
        var levels: [Level] = []
    }

    /// Packs `count` entries given in increasing id order (`id(k)`, `box(k)`).
    static func plan(count: Int, nodeSize: Int, id: (Int) -> Int64, box: (Int) -> BBox) -> Plan {
        var plan = Plan(nodeSize: nodeSize)
        let perNode = (nodeSize - 4) / cellBytes
        var boxes: [Box] = []
        boxes.reserveCapacity(count)
        var firstID: Int64? = nil, consecutive = true
        for k in 0..<count {
            let b = box(k)
            if b.isEmpty { continue }
            if let f = firstID { if id(k) != f + Int64(boxes.count) { consecutive = false } } else { firstID = id(k) }
            boxes.append(Box(b))
        }
        guard let firstID else { return plan }
        var level = Level(boxes: boxes, firstID: firstID)
        boxes = []
        if !consecutive { level.ids = (0..<count).filter { !box($0).isEmpty }.map(id) }
        // Node numbers: 1 is the root; the others from 2 in the order they are made.
        var nextNode: Int64 = 2
        while true {
            (level.order, level.nodes) = strOrder(level.boxes, perNode: perNode)
            let isRoot = level.nodes.count == 1
            level.firstNode = isRoot ? 1 : nextNode
            if !isRoot { nextNode += Int64(level.nodes.count) }
            level.nodeOfRank = [Int32](repeating: 0, count: level.boxes.count)
            var parents: [Box] = []
            parents.reserveCapacity(level.nodes.count)
            for (k, g) in level.nodes.enumerated() {
                var cover = level.boxes[Int(level.order[g.lowerBound])]
                for r in level.order[g] {
                    cover.cover(level.boxes[Int(r)])
                    level.nodeOfRank[Int(r)] = Int32(level.firstNode + Int64(k))
                }
                parents.append(cover)
            }
            let above = Level(boxes: parents, firstID: level.firstNode)
            plan.levels.append(level)
            if isRoot { break }
            level = above   // made in node number order, so already in id order
        }
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
                for r in l.order[g] {
                    let e = l.boxes[Int(r)]
                    put(l.id(Int(r)).bigEndian, into: &blob, at: &at)
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
        // Each feature's leaf, then each node's parent: in key order (ranks, then levels
        // numbered up from the leaves), so each table grows at its end.
        for (depth, l) in plan.levels.enumerated() {
            let insert = depth == 0 ? writeRowid : writeParent
            for (rank, node) in l.nodeOfRank.enumerated() {
                insert.int(l.id(rank)); insert.int(Int(node))
                try insert.endRow()
            }
        }
        try writeRowid.finish()
        try writeParent.finish()
    }

    static let cellBytes = 8 + 4 * 4

    /// Sort-Tile-Recursive: the ranks of `boxes` (given in id order) sorted into vertical
    /// slices by centre x, each slice by centre y (ties by rank, so the tree does not depend
    /// on input order), and cut into runs of `perNode`. Sorts 8-byte keys (centre and rank).
    static func strOrder(_ boxes: [Box], perNode: Int) -> (order: [UInt32], nodes: [Range<Int>]) {
        let n = boxes.count
        let nodes = (n + perNode - 1) / perNode
        let slices = Int(Double(nodes).squareRoot().rounded(.up))
        let perSlice = slices * perNode
        precondition(n < 1 << 32, "R-tree: too many entries")
        var keys = boxes.indices.map { boxes[$0].key(x: true, rank: $0) }
        keys.sort()
        var groups: [Range<Int>] = []
        groups.reserveCapacity(nodes)
        var start = 0
        while start < n {
            let end = min(n, start + perSlice)
            for k in start..<end {
                let rank = Int(truncatingIfNeeded: keys[k] & 0xFFFF_FFFF)
                keys[k] = boxes[rank].key(x: false, rank: rank)
            }
            keys[start..<end].sort()
            var g = start
            while g < end {
                groups.append(g..<min(end, g + perNode))
                g += perNode
            }
            start = end
        }
        return (keys.map { UInt32(truncatingIfNeeded: $0) }, groups)
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
