import Testing
@testable import Geo

/// `Planar.depthRange`: how far a footprint's corners lie beyond a point along a direction, the
/// least being the footprint's front as seen from the street.
struct PlanarDepthTests {
    /// A 4 × 3 m rectangle with a corner at the origin.
    let rect = [[Coord(0, 0), Coord(4, 0), Coord(4, 3), Coord(0, 3), Coord(0, 0)]]

    @Test func theRangeIsTheCornersDepthsAlongTheDirection() {
        let north = Planar.depthRange(of: rect, from: Coord(2, -5), along: Coord(0, 1))
        #expect(north.lo == 5 && north.hi == 8)
        // Seen from the east, looking west.
        let west = Planar.depthRange(of: rect, from: Coord(10, 1), along: Coord(-1, 0))
        #expect(west.lo == 6 && west.hi == 10)
        // A point inside: corners on both sides.
        let inside = Planar.depthRange(of: rect, from: Coord(1, 1), along: Coord(0, 1))
        #expect(inside.lo == -1 && inside.hi == 2)
    }

    @Test func noCornersGiveAnEmptyRange() {
        let none = Planar.depthRange(of: [[Coord]](), from: Coord(0, 0), along: Coord(1, 0))
        #expect(none.lo == .infinity && none.hi == -.infinity)
    }

    /// `Planar.nearestOnEdges`: the nearest point of the edges and its distance, from outside
    /// and from inside (where `distance(from:toRings:)` says 0); none for rings without an edge.
    @Test func theNearestPointOfTheEdges() {
        let outside = Planar.nearestOnEdges(of: rect, to: Coord(2, -5))
        #expect(outside.point == Coord(2, 0) && outside.distance == 5)
        let inside = Planar.nearestOnEdges(of: rect, to: Coord(3.5, 1))
        #expect(inside.point == Coord(4, 1) && inside.distance == 0.5)
        #expect(Planar.distance(from: Coord(3.5, 1), toRings: rect) == 0)
        let none = Planar.nearestOnEdges(of: [[Coord(1, 1)]], to: Coord(0, 0))
        #expect(none.point == Coord(0, 0) && none.distance == .infinity)
    }
}
