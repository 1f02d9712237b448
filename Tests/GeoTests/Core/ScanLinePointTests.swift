import Foundation
import Testing
@testable import Geo

/// The label point worked out in Swift against GEOS's point on surface, bit for bit.
@Suite struct ScanLinePointTests {
    let ctx = GEOSContext()

    private func geos(_ ring: [Coord]) throws -> Coord {
        try Geometry.polygon(ctx, [PolygonCoords(rings: [ring])]).pointOnSurface().pointCoord()
    }

    private func same(_ a: Coord, _ b: Coord) -> Bool {
        a.x.bitPattern == b.x.bitPattern && a.y.bitPattern == b.y.bitPattern
    }

    /// Random rings on a small grid (vertices at the scan line's height, level edges, rings that
    /// cross themselves) and random rings in degrees near New York: wherever a point comes, it is
    /// GEOS's; the grid's rings with area nearly all get one.
    @Test func randomRingsGetGEOSsPoint() throws {
        var rng = SeededRandom(seed: 31)
        var answered = 0
        for k in 0..<6000 {
            let n = Int.random(in: 3...12, using: &rng)
            var ring: [Coord]
            if k % 2 == 0 {
                ring = (0..<n).map { _ in Coord(Double(Int.random(in: 0...8, using: &rng)), Double(Int.random(in: 0...8, using: &rng))) }
            } else {
                ring = (0..<n).map { _ in
                    Coord(-73.74 + Double.random(in: 0..<0.0003, using: &rng), 40.72 + Double.random(in: 0..<0.0003, using: &rng))
                }
            }
            ring.append(ring[0])
            guard let p = ScanLinePoint.of(ring: ring) else { continue }
            answered += 1
            let g = try geos(ring)
            #expect(same(p, g), "\(ring): \(p) against GEOS \(g)")
        }
        #expect(answered > 4000)
    }

    /// Every one-ring footprint of these, as published in degrees; how many were compared.
    private func compareAll(_ buildings: [Building]) throws -> Int {
        var compared = 0
        for b in buildings where b.footprint.ringCount == 1 {
            guard let p = ScanLinePoint.of(ring: b.footprint.coords) else { continue }
            #expect(same(p, try geos(b.footprint.coords)), "\(b.id)")
            compared += 1
        }
        return compared
    }

    @Test func sampleFootprintsGetGEOSsPoint() throws {
        #expect(try compareAll(Sample.shared.buildings) > 800)
    }

    @Test(.enabled(if: sharedDataFile("queens-village-ny/buildings.geojson") != nil, "needs ../shared/data/queens-village-ny"))
    func queensFootprintsGetGEOSsPoint() throws {
        let file = try #require(sharedDataFile("queens-village-ny/buildings.geojson"))
        #expect(try compareAll(loadBuildings([file]).features) > 40_000)
    }

    /// A ring of no area, a ring too short and one not closed give nothing: the caller asks GEOS.
    @Test func noAreaGivesNothing() {
        #expect(ScanLinePoint.of(ring: [Coord(0, 0), Coord(2, 0), Coord(4, 0), Coord(0, 0)]) == nil)
        #expect(ScanLinePoint.of(ring: [Coord(0, 0), Coord(2, 2), Coord(0, 0)]) == nil)
        #expect(ScanLinePoint.of(ring: [Coord(0, 0), Coord(2, 0), Coord(2, 2), Coord(0, 2)]) == nil)
        #expect(ScanLinePoint.of(ring: [Coord(0, 0), Coord(2, 0), Coord(2, 2), Coord(0, 2), Coord(0, 0)]) == Coord(1, 1))
    }
}
