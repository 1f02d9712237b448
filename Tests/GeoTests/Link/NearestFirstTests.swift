import Testing
@testable import Geo

/// The footprints handed out nearest first, read and measured lazily, against every footprint
/// within the radius measured and sorted.
@Suite struct NearestFirstTests {
    /// Rectangles scattered over 300 m (a fixed sequence), with pairs at one distance from the
    /// origin on either side of it, and one covering it.
    func footprints() -> [[Coord]] {
        var seed: UInt64 = 12345
        func random(_ range: ClosedRange<Double>) -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Double(seed >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [Coord] {
            [Coord(x, y), Coord(x + w, y), Coord(x + w, y + h), Coord(x, y + h), Coord(x, y)]
        }
        var out = (0..<400).map { _ in rect(random(-150...150), random(-150...150), random(3...25), random(3...25)) }
        for d in [7.0, 33.0, 39.99, 40.0, 61.0] { out += [rect(d, -2, 5, 4), rect(-d - 5, -2, 5, 4)] }
        out.append(rect(-3, -3, 6, 6))
        return out
    }

    func brute(_ rings: [[Coord]], _ p: Coord, _ r: Double) -> [(Int, Double)] {
        rings.indices.compactMap { b -> (Int, Double)? in
            let d = Planar.covers([rings[b]], p, tolerance: 0) ? 0 : Planar.nearestOnEdges(of: [rings[b]], to: p).distance
            return d <= r ? (b, d) : nil
        }.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
    }

    @Test func theOrderIsEveryFootprintsSortedAtAnyFirstReach() {
        let rings = footprints()
        let boxes = rings.map { BBox(covering: $0) }
        let index = GridIndex(boxes: boxes)
        for p in [Coord(0, 0), Coord(12.5, -40), Coord(140, 140)] {
            for r in [0.0, 20, 80] {
                let expected = brute(rings, p, r)
                for first in [0.0, 5, 40, 80, 200] {
                    var near = NearestFirst(index, boxes: boxes, near: p, within: r, first: first)
                    var got: [(Int, Double)] = []
                    while let f = near.next({ b in
                        let e = Planar.nearestOnEdges(of: [rings[b]], to: p)
                        return (Planar.covers([rings[b]], p, tolerance: 0) ? 0 : e.distance, e.point, Int32(b))
                    }) { got.append((f.building, f.distance)) }
                    #expect(got.map(\.0) == expected.map(\.0), "p \(p) r \(r) first \(first)")
                    #expect(got.map(\.1) == expected.map(\.1))
                }
            }
        }
    }

    @Test func theSearchStopsReadingWhereTheCallerStops() {
        // Asking for the nearest only measures the footprints whose box is no farther than it.
        let rings = footprints()
        let boxes = rings.map { BBox(covering: $0) }
        var measured = 0
        var near = NearestFirst(GridIndex(boxes: boxes), boxes: boxes, near: Coord(0, 0), within: 80, first: 40)
        let first = near.next { b in
            measured += 1
            let e = Planar.nearestOnEdges(of: [rings[b]], to: Coord(0, 0))
            return (Planar.covers([rings[b]], Coord(0, 0), tolerance: 0) ? 0 : e.distance, e.point, Int32(b))
        }
        #expect(first?.building == rings.count - 1 && first?.distance == 0)
        #expect(measured < 10)
    }
}
