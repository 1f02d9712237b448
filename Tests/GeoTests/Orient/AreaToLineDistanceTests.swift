import Testing
@testable import Geo

/// The area-to-line distance skips edge pairs and whole lines only where they cannot win:
/// it must give what measuring every pair gives, bound or no bound.
struct AreaToLineDistanceTests {
    /// Every pair of edges measured, and 0 when the line starts inside the area.
    static func everyPair(_ ring: [Coord], _ line: [Coord]) -> Double {
        if Planar.covers([ring], line[0], tolerance: 0) { return 0 }
        var best = Double.infinity
        for j in 0..<max(1, line.count - 1) {
            let q1 = line[j], q2 = line.count > 1 ? line[j + 1] : line[j]
            for i in 0..<(ring.count - 1) { best = min(best, Planar.segmentDistance(ring[i], ring[i + 1], q1, q2)) }
        }
        return best
    }

    @Test func areaToLineDistanceEqualsEveryPairMeasured() {
        var g = SeededRandom(seed: 20261124)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        for _ in 0..<3000 {
            // A house-like ring (a rotated box, sometimes with an extra vertex) around the origin
            // of a local projection, and a road of 1 to 12 vertices somewhere within 60 m.
            let (w, h, a) = (r(4...20), r(4...20), r(0...3.2))
            var ring = [Coord(-w, -h), Coord(w, -h), Coord(w, h), Coord(-w, h)]
            if r(0...1) < 0.3 { ring.insert(Coord(0, h + r(0...5)), at: 3) }
            ring = ring.map { Planar.rotate($0, radians: a) }
            ring.append(ring[0])
            var line: [Coord] = [], p = Coord(r(-60...60), r(-60...60))
            for _ in 0..<Int(r(1...12)) { line.append(p); p = Coord(p.x + r(-25...25), p.y + r(-25...25)) }
            let box = BBox(covering: ring)
            let exact = AreaToLineDistanceTests.everyPair(ring, line)
            #expect(Planar.distance(rings: [ring], ringsBox: box, line: line, maxDistance: .infinity) == exact)
            // With a bound: the same value when within it (ties included), nil beyond it.
            for bound in [exact, exact * 1.5, exact * 0.5, r(0...80)] {
                let d = Planar.distance(rings: [ring], ringsBox: box, line: line, maxDistance: bound)
                #expect(d == (exact <= bound ? exact : nil))
            }
        }
    }

    @Test func segmentDistanceTakesTheLeastEndDistance() {
        // Parallel segments 3 apart, overlapping: the ends' distances are 3 and more.
        #expect(Planar.segmentDistance(Coord(0, 0), Coord(10, 0), Coord(5, 3), Coord(20, 3)) == 3)
        // Crossing: 0. Apart along a line: the gap between the nearest ends.
        #expect(Planar.segmentDistance(Coord(0, 0), Coord(10, 10), Coord(0, 10), Coord(10, 0)) == 0)
        #expect(Planar.segmentDistance(Coord(0, 0), Coord(1, 0), Coord(4, 0), Coord(9, 0)) == 3)
        #expect(Planar.segmentDistance(Coord(0, 0), Coord(3, 4), Coord(3, 4), Coord(3, 4)) == 0)
        #expect(Planar.segmentDistance(Coord(0, 0), Coord(0, 0), Coord(3, 4), Coord(3, 4)) == 5)
    }
}
