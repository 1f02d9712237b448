import Testing
@testable import Geo

/// The linker's grid index against a scan of every box: same items, ascending, each once.
struct GridIndexTests {
    static func scan(_ boxes: [BBox], _ q: BBox) -> [Int] { boxes.indices.filter { boxes[$0].intersects(q) } }

    @Test(arguments: [1, 7, 500, 5000])
    func queriesMatchAScanOfEveryBox(count: Int) {
        var rng = SeededRandom(seed: UInt64(count))
        var boxes: [BBox] = []
        for k in 0..<count {
            let x = Double.random(in: 0..<1000, using: &rng), y = Double.random(in: 0..<1000, using: &rng)
            switch k % 5 {
            case 0: boxes.append(BBox(minX: x, minY: y, maxX: x, maxY: y))  // a point
            case 1: boxes.append(BBox(minX: x, minY: y, maxX: x + 800, maxY: y + 3))  // a long road
            case 2: boxes.append(.empty)
            default: boxes.append(BBox(minX: x, minY: y, maxX: x + Double.random(in: 0..<20, using: &rng), maxY: y + 12))
            }
        }
        let index = GridIndex(boxes: boxes)
        var queries: [BBox] = [
            BBox(minX: -5000, minY: -5000, maxX: 5000, maxY: 5000),  // everything
            BBox(minX: 3000, minY: 3000, maxX: 3001, maxY: 3001),  // outside
            .empty,
        ]
        // Boxes touching an item's box exactly on an edge or a corner, and the item's own box.
        for b in boxes.prefix(40) where !b.isEmpty {
            queries.append(b)
            queries.append(BBox(minX: b.maxX, minY: b.maxY, maxX: b.maxX + 5, maxY: b.maxY + 5))
            queries.append(BBox(minX: b.minX - 5, minY: b.minY, maxX: b.minX, maxY: b.minY))
        }
        for _ in 0..<200 {
            let x = Double.random(in: -100..<1100, using: &rng), y = Double.random(in: -100..<1100, using: &rng)
            let r = Double.random(in: 0..<150, using: &rng)
            queries.append(BBox(minX: x - r, minY: y - r, maxX: x + r, maxY: y + r))
        }
        for q in queries {
            #expect(index.query(q) == Self.scan(boxes, q), "\(q)")
            // forEach: the same items, each once (in its own order).
            var seen: [Int] = []
            index.forEach(meeting: q) { seen.append($0) }
            #expect(seen.sorted() == Self.scan(boxes, q), "\(q)")
        }
    }

    @Test func allBoxesAtOnePointAndNoBoxes() {
        let p = BBox(minX: 2, minY: 3, maxX: 2, maxY: 3)
        let index = GridIndex(boxes: [p, p, p])
        #expect(index.query(p) == [0, 1, 2])
        #expect(index.query(BBox(minX: 2.5, minY: 3, maxX: 4, maxY: 4)).isEmpty)
        #expect(GridIndex(boxes: []).query(p).isEmpty)
        #expect(GridIndex(boxes: [.empty]).query(p).isEmpty)
    }
}
