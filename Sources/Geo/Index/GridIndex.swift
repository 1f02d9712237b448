/// A static index of boxes on a uniform grid, for box queries: each box is listed in every
/// cell it meets, and a query reads only the cells its own box meets. Built once from all
/// the boxes, in plain Swift: the linker's tiles query it about ten times per address, and
/// a GEOS STRtree would need a geometry for every box and every query. Results are exact (each
/// listed box is tested against the query box), so the cell size changes only the speed.
struct GridIndex {
    private let originX: Double, originY: Double, cellSize: Double
    private let columns: Int, rows: Int
    /// The items of cell c are `entries[cellStarts[c]..<cellStarts[c + 1]]`, ascending.
    private let cellStarts: [Int32]
    private let entries: [Int32]
    /// Each entry's box, in the entries' order: a query reads a cell's boxes one after the
    /// other instead of fetching each by its item's index from wherever that stands.
    private let entryBoxes: [BBox]
    /// Each entry's item's first cell (lowest column and row), in the entries' order, so that a
    /// query over several cells reports an item once without working out its cells again.
    private let entryFirst: [(column: Int32, row: Int32)]

    /// Indexes item `i` by `boxes[i]`; empty boxes are left out.
    init(boxes: [BBox]) {
        var extent = BBox.empty
        for b in boxes where !b.isEmpty { extent.expand(b) }
        let kept = boxes.reduce(0) { $0 + ($1.isEmpty ? 0 : 1) }
        let width = extent.isEmpty ? 0 : extent.maxX - extent.minX, height = extent.isEmpty ? 0 : extent.maxY - extent.minY
        // About four boxes to a cell; coarser when there would be far more cells than boxes (a long,
        // thin extent), or when the boxes would be listed in too many cells (long roads).
        var size = max((4 * width * height / Double(max(kept, 1))).squareRoot(), 1e-9)
        var columns = 1, rows = 1, listed = 0
        // Each box's cells at the size tried last: worked out once, then read to count and fill.
        var spans = [(column0: Int32, column1: Int32, row0: Int32, row1: Int32)](repeating: (0, -1, 0, -1), count: boxes.count)
        while true {
            columns = Int(width / size) + 1
            rows = Int(height / size) + 1
            if Double(columns) * Double(rows) > Double(kept + 64) { size *= 2; continue }
            listed = 0
            for (k, b) in boxes.enumerated() where !b.isEmpty {
                let c = GridIndex.cells(b, originX: extent.minX, originY: extent.minY, size: size)
                spans[k] = (Int32(c.columns.lowerBound), Int32(c.columns.upperBound), Int32(c.rows.lowerBound), Int32(c.rows.upperBound))
                listed += c.columns.count * c.rows.count
            }
            if listed <= 8 * kept + 1024 { break }
            size *= 2
        }
        originX = extent.isEmpty ? 0 : extent.minX
        originY = extent.isEmpty ? 0 : extent.minY
        cellSize = size
        self.columns = columns
        self.rows = rows

        var starts = [Int32](repeating: 0, count: columns * rows + 1)
        for (k, b) in boxes.enumerated() where !b.isEmpty {
            let c = spans[k]
            for j in Int(c.row0)...Int(c.row1) { for i in Int(c.column0)...Int(c.column1) { starts[j * columns + i + 1] += 1 } }
        }
        for c in 0..<(columns * rows) { starts[c + 1] += starts[c] }
        var fill = starts
        var entries = [Int32](repeating: 0, count: listed)
        var entryBoxes = [BBox](repeating: .empty, count: listed)
        var entryFirst = [(column: Int32, row: Int32)](repeating: (0, 0), count: listed)
        for (k, b) in boxes.enumerated() where !b.isEmpty {
            let c = spans[k]
            for j in Int(c.row0)...Int(c.row1) {
                for i in Int(c.column0)...Int(c.column1) {
                    let slot = Int(fill[j * columns + i])
                    entries[slot] = Int32(k)
                    entryBoxes[slot] = b
                    entryFirst[slot] = (c.column0, c.row0)
                    fill[j * columns + i] += 1
                }
            }
        }
        cellStarts = starts
        self.entries = entries
        self.entryBoxes = entryBoxes
        self.entryFirst = entryFirst
    }

    /// The items whose box meets `box`, boundaries included (as `BBox.intersects`), ascending.
    func query(_ box: BBox) -> [Int] {
        var out: [Int] = []
        forEach(meeting: box) { out.append($0) }
        // Ascending within a cell; across cells, runs to merge (the sort finds them).
        out.sort()
        return out
    }

    /// Calls `body` with each item whose box meets `box` (as `query`), once each, in no set
    /// order, with no array made: an item listed in several of the cells read is reported in
    /// the first of them (lowest row, then column) that it shares with the query.
    func forEach<E: Error>(meeting box: BBox, _ body: (Int) throws(E) -> Void) throws(E) {
        guard !box.isEmpty, !entries.isEmpty else { return }
        let c = GridIndex.cells(box, originX: originX, originY: originY, size: cellSize)
        let i0 = max(0, c.columns.lowerBound), i1 = min(columns - 1, c.columns.upperBound)
        let j0 = max(0, c.rows.lowerBound), j1 = min(rows - 1, c.rows.upperBound)
        guard i0 <= i1, j0 <= j1 else { return }
        let single = i0 == i1 && j0 == j1
        for j in j0...j1 {
            for i in i0...i1 {
                let cell = j * columns + i
                for k in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                    guard entryBoxes[k].intersects(box) else { continue }
                    if !single {
                        let first = entryFirst[k]
                        guard max(Int(first.column), i0) == i, max(Int(first.row), j0) == j else { continue }
                    }
                    try body(Int(entries[k]))
                }
            }
        }
    }

    /// The cells a box meets, by column and row, for a grid from `origin` in cells of `size`:
    /// the same arithmetic when boxes are listed and when a query looks them up, so a box
    /// touching the query box always shares a cell with it. Clamped to Int32's range, so that a
    /// box far outside the grid stays finite.
    private static func cells(_ b: BBox, originX: Double, originY: Double, size: Double)
        -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
        func cell(_ offset: Double) -> Int {
            let v = (offset / size).rounded(.down)
            return v < -1 ? -1 : v > Double(Int32.max) ? Int(Int32.max) : Int(v)
        }
        return (cell(b.minX - originX)...cell(b.maxX - originX), cell(b.minY - originY)...cell(b.maxY - originY))
    }
}
