/// A static R-tree over boxes, packed Sort-Tile-Recursive, that finds the items nearest a
/// point in order (best-first search: a node is opened only when nothing known is nearer).
/// For addresses far from every footprint, where a box query around the point would hold
/// almost all of them.
struct PackedRTree {
    /// Nodes level by level from the leaves up; a node spans `count` entries of the level below
    /// (items for the leaves) from `first`.
    private struct Node { var box: BBox; var first: Int32; var count: Int32 }
    private var levels: [[Node]] = []
    /// Item ids in leaf order, and their boxes in the same order.
    private var items: [Int] = []
    private var itemBoxes: [BBox] = []
    static let fanout = 16

    /// Indexes item `i` by `boxes[i]`; empty boxes are left out.
    init(boxes: [BBox]) {
        let kept = boxes.indices.filter { !boxes[$0].isEmpty }
        items = PackedRTree.strOrder(kept, boxes: boxes)
        itemBoxes = items.map { boxes[$0] }
        guard !items.isEmpty else { return }
        var level = PackedRTree.group(itemBoxes)
        levels.append(level)
        while level.count > 1 {
            let order = PackedRTree.strOrder(Array(level.indices), boxes: level.map(\.box))
            // Parents over the STR-ordered children: the level is stored in that order.
            let reordered = order.map { level[$0] }
            levels[levels.count - 1] = reordered
            level = PackedRTree.group(reordered.map(\.box))
            levels.append(level)
        }
    }

    /// Sort-Tile-Recursive order of `ids` (indexes into `boxes`): by centre x into vertical
    /// slices, each slice by centre y; ties by id.
    private static func strOrder(_ ids: [Int], boxes: [BBox]) -> [Int] {
        let cx = boxes.map { ($0.minX + $0.maxX) / 2 }, cy = boxes.map { ($0.minY + $0.maxY) / 2 }
        let byX = ids.sorted { cx[$0] != cx[$1] ? cx[$0] < cx[$1] : $0 < $1 }
        let nodes = (byX.count + fanout - 1) / fanout
        let slices = max(1, Int(Double(nodes).squareRoot().rounded(.up)))
        let perSlice = max(1, slices * fanout)
        return stride(from: 0, to: byX.count, by: perSlice).flatMap { s in
            byX[s..<min(byX.count, s + perSlice)].sorted { cy[$0] != cy[$1] ? cy[$0] < cy[$1] : $0 < $1 }
        }
    }

    /// Consecutive runs of `fanout` boxes as nodes.
    private static func group(_ boxes: [BBox]) -> [Node] {
        stride(from: 0, to: boxes.count, by: fanout).map { s in
            let e = min(boxes.count, s + fanout)
            var b = BBox.empty
            for i in s..<e { b.expand(boxes[i]) }
            return Node(box: b, first: Int32(s), count: Int32(e - s))
        }
    }

    /// Items in order of `exact` distance from `p` (never less than the distance to the item's
    /// box), with that distance, until `enough` says to stop; it sees each item as it comes.
    func nearest(to p: Coord, exact: (Int) -> Double, enough: (_ item: Int, _ distance: Double) -> Bool) {
        guard let top = levels.last else { return }
        // Entries: (lower bound, level (-1: an item with its exact distance, -2: an item by its
        // box), index in that level).
        var heap = MinHeap()
        for (i, n) in top.enumerated() { heap.push(.init(d: n.box.distance(to: p), level: Int32(levels.count - 1), index: Int32(i))) }
        while let e = heap.pop() {
            switch e.level {
            case -1:
                if enough(items[Int(e.index)], e.d) { return }
            case -2:
                heap.push(.init(d: max(e.d, exact(items[Int(e.index)])), level: -1, index: e.index))
            default:
                let n = levels[Int(e.level)][Int(e.index)]
                for c in Int(n.first)..<Int(n.first + n.count) {
                    if e.level == 0 {
                        heap.push(.init(d: itemBoxes[c].distance(to: p), level: -2, index: Int32(c)))
                    } else {
                        heap.push(.init(d: levels[Int(e.level) - 1][c].box.distance(to: p), level: e.level - 1, index: Int32(c)))
                    }
                }
            }
        }
    }

    /// A binary min-heap by distance; among equal distances, items before nodes.
    private struct MinHeap {
        struct Entry { var d: Double; var level: Int32; var index: Int32 }
        private var a: [Entry] = []
        private static func less(_ x: Entry, _ y: Entry) -> Bool {
            x.d != y.d ? x.d < y.d : (x.level, x.index) < (y.level, y.index)
        }
        mutating func push(_ e: Entry) {
            a.append(e)
            var i = a.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard Self.less(a[i], a[parent]) else { break }
                a.swapAt(i, parent); i = parent
            }
        }
        mutating func pop() -> Entry? {
            guard let first = a.first else { return nil }
            let last = a.removeLast()
            if a.isEmpty { return first }
            a[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < a.count && Self.less(a[l], a[m]) { m = l }
                if r < a.count && Self.less(a[r], a[m]) { m = r }
                if m == i { break }
                a.swapAt(i, m); i = m
            }
            return first
        }
    }
}
