import Testing
@testable import Geo

@Suite struct GEOSTests {
    let ctx = GEOSContext()

    @Test func coversCountsEdgeButNotHole() throws {
        let poly = try Geometry.fromWKT(ctx, "POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,6 4,6 6,4 6,4 4))")
        let prepared = try PreparedGeometry(poly)
        #expect(try prepared.covers(Geometry.point(ctx, Coord(10, 5))))     // on the edge
        #expect(try prepared.covers(Geometry.point(ctx, Coord(2, 2))))
        #expect(try !prepared.covers(Geometry.point(ctx, Coord(5, 5))))     // in the hole
        #expect(try prepared.covers(Geometry.point(ctx, Coord(4, 5))))      // on the hole's edge
    }

    @Test func buildsPolygonsFromCoords() throws {
        let sq = PolygonCoords(rings: [[Coord(0, 0), Coord(2, 0), Coord(2, 2), Coord(0, 2), Coord(0, 0)]])
        let g = try Geometry.polygon(ctx, [sq])
        #expect(try g.area() == 4)
        #expect(g.typeName == "Polygon")
        let shifted = PolygonCoords(rings: sq.rings.map { $0.map { Coord($0.x + 5, $0.y) } })
        let m = try Geometry.polygon(ctx, [sq, shifted])
        #expect(m.typeName == "MultiPolygon")
        #expect(try m.area() == 8)
        #expect(try m.distance(to: Geometry.point(ctx, Coord(3.5, 1))) == 1.5)
    }

    @Test func makeValidRepairsABowTie() throws {
        let bow = try Geometry.fromWKT(ctx, "POLYGON((0 0,10 10,10 0,0 10,0 0))")
        #expect(!bow.isValid)
        #expect(bow.validityReason.contains("Self-intersection"))
        let fixed = try bow.makeValid().polygonalPart()
        #expect(fixed.isValid)
        #expect(abs(try fixed.area() - 50) < 1e-9)
    }

    @Test func strtreeFindsExactlyTheIntersectingEnvelopes() throws {
        let index = try SpatialIndex(ctx)
        var boxes: [BBox] = []
        var rng = SystemRandomNumberGenerator()
        for i in 0..<500 {
            let x = Double.random(in: 0..<100, using: &rng), y = Double.random(in: 0..<100, using: &rng)
            let b = BBox(minX: x, minY: y, maxX: x + Double.random(in: 0..<5, using: &rng), maxY: y + 2)
            boxes.append(b)
            try index.insert(i, b)
        }
        for _ in 0..<50 {
            let x = Double.random(in: -5..<100, using: &rng), y = Double.random(in: -5..<100, using: &rng)
            let q = BBox(minX: x, minY: y, maxX: x + 10, maxY: y + 7)
            let brute = boxes.indices.filter { boxes[$0].intersects(q) }
            #expect(try index.query(q) == brute)
        }
    }

    @Test func nearestPointsAndProject() throws {
        let line = try Geometry.fromWKT(ctx, "LINESTRING(0 0,10 0)")
        let p = try Geometry.point(ctx, Coord(3, 4))
        let (a, b) = try p.nearestPoints(to: line)
        #expect(a == Coord(3, 4) && b == Coord(3, 0))
        #expect(line.project(p) == 3)
    }
}

@Suite struct ProjectionTests {
    @Test func localMetricGivesMetres() throws {
        let origin = Coord(-73.74, 40.72)
        let proj = try Projection.localMetric(around: origin)
        let o = try proj.forward(origin)
        #expect(abs(o.x) < 1e-6 && abs(o.y) < 1e-6)
        let east = Coord(-73.74 + 0.001, 40.72), north = Coord(-73.74, 40.72 + 0.001)
        let pe = try proj.forward(east), pn = try proj.forward(north)
        #expect(abs(pe.x - Geodesic.inverse(origin, east).distance) < 0.001)
        #expect(abs(pn.y - Geodesic.inverse(origin, north).distance) < 0.001)
        let back = try proj.inverse(pe)
        #expect(abs(back.x - east.x) < 1e-10 && abs(back.y - east.y) < 1e-10)
    }

    @Test func geodesicAzimuths() {
        let a = Coord(-73.74, 40.72)
        #expect(abs(Geodesic.inverse(a, Coord(-73.74, 40.73)).azimuth! - 0) < 1e-9)
        #expect(abs(Geodesic.inverse(a, Coord(-73.73, 40.72)).azimuth! - 90) < 0.01)
        #expect(abs(Geodesic.inverse(a, Coord(-73.74, 40.71)).azimuth! - 180) < 1e-9)
        #expect(abs(Geodesic.inverse(a, Coord(-73.75, 40.72)).azimuth! - 270) < 0.01)
        let same = Geodesic.inverse(a, a)
        #expect(same.distance == 0 && same.azimuth == nil)
    }

    @Test func badPipelineIsAnError() {
        #expect(throws: ProjError.self) { try Projection(pipeline: "+proj=nonsense") }
    }

    /// The bulk projection runs the pipeline's one step on radians converted first: the same
    /// metres to the bit as PROJ's whole pipeline, for the linker's transverse Mercator about
    /// several origins and for Web Mercator.
    @Test func bulkForwardIsThePipelineToTheBit() throws {
        var rng = SystemRandomNumberGenerator()
        let origins = [Coord(-73.74, 40.72), Coord(113.54, 22.19), Coord(13.26, 53.56), Coord(-0.01, -33.9), Coord(179.9, 0)]
        for origin in origins {
            var points = [origin, Coord(origin.x + 0.5, origin.y - 0.5)]
            for _ in 0..<50_000 {
                points.append(Coord(origin.x + Double.random(in: -0.3...0.3, using: &rng),
                                    origin.y + Double.random(in: -0.3...0.3, using: &rng)))
            }
            for definition in [Projection.localMetricDefinition(around: origin), try Projection.webMercator().definition] {
                var whole = points, bulk = points
                try Projection(pipeline: definition).forward(&whole)
                let projection = try Projection(pipeline: definition)
                try bulk.withUnsafeMutableBufferPointer { (b) throws(ProjError) in try projection.forward(b) }
                let differing = zip(whole, bulk).filter { $0.0.x.bitPattern != $0.1.x.bitPattern || $0.0.y.bitPattern != $0.1.y.bitPattern }
                #expect(differing.isEmpty, "\(definition): \(differing.count) differ, e.g. \(differing.prefix(2))")
            }
        }
    }

    @Test func bulkForwardRefusesWhatThePipelineRefuses() throws {
        let projection = try Projection.localMetric(around: Coord(10, 50))
        var points = [Coord(10, 50), Coord(10, 95)]
        #expect(throws: ProjError.self) {
            try points.withUnsafeMutableBufferPointer { (b) throws(ProjError) in try projection.forward(b) }
        }
        var whole = [Coord(10, 50), Coord(10, 95)]
        #expect(throws: ProjError.self) { try projection.forward(&whole) }
    }
}

@Suite struct PlanarTests {
    let ctx = GEOSContext()

    /// The fast paths agree with GEOS on random small rings, valid and not.
    @Test func simpleRingAgreesWithGEOSValidity() throws {
        var rng = SeededRandom(seed: 11)
        var checked = 0
        for _ in 0..<3000 {
            let n = Int.random(in: 3...7, using: &rng)
            var ring = (0..<n).map { _ in Coord(Double(Int.random(in: 0...6, using: &rng)), Double(Int.random(in: 0...6, using: &rng))) }
            ring.append(ring[0])
            let g = try Geometry.polygon(ctx, [PolygonCoords(rings: [ring])])
            if Planar.isSimpleRing(ring) {
                #expect(g.isValid, "\(ring)")
                #expect(abs(abs(Planar.ringArea(ring)) - (try g.area())) < 1e-9)
                checked += 1
            }
        }
        #expect(checked > 200)
    }

    @Test func coversAgreesWithGEOS() throws {
        let poly = try Geometry.fromWKT(ctx, "POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,6 4,6 6,4 6,4 4))")
        let rings = poly.polygons()[0].rings
        let prepared = try PreparedGeometry(poly)
        var rng = SeededRandom(seed: 5)
        for _ in 0..<2000 {
            let p = Coord(Double(Int.random(in: -4...28, using: &rng)) / 2, Double(Int.random(in: -4...28, using: &rng)) / 2)
            #expect(Planar.covers(rings, p, tolerance: 1e-9) == (try prepared.covers(Geometry.point(ctx, p))), "\(p)")
        }
    }
}
