import Testing
@testable import Geo

/// The affine map a footprint's vertices make between degrees and metres, for its label point.
@Suite struct AffineMapTests {
    /// A square in degrees and the same square turned, stretched and moved in metres: every
    /// vertex, and the middle, land where the map between them says.
    @Test func aFootprintsVerticesCarryAnyPointOfIt() throws {
        let from = [Coord(-73.75, 40.72), Coord(-73.7499, 40.72), Coord(-73.7499, 40.7201), Coord(-73.75, 40.7201), Coord(-73.75, 40.72)]
        let turn = { (c: Coord) -> Coord in
            let x = (c.x + 73.75) * 84_000, y = (c.y - 40.72) * 111_000
            return Coord(1000 + 0.99 * x - 0.02 * y, -500 + 0.02 * x + 0.99 * y)
        }
        let map = try #require(AffineMap(from: from, to: from.map(turn)))
        for c in from + [Coord(-73.74995, 40.72005)] {
            let got = map.apply(c), want = turn(c)
            #expect(abs(got.x - want.x) < 1e-6 && abs(got.y - want.y) < 1e-6)
        }
    }

    @Test func verticesOnOneLineMakeNoMap() {
        let line = [Coord(0, 0), Coord(1, 1), Coord(2, 2), Coord(0, 0)]
        #expect(AffineMap(from: line, to: line) == nil)
        #expect(AffineMap(from: [Coord](), to: [Coord]()) == nil)
    }
}
