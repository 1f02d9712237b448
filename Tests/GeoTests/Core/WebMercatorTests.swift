import Foundation
import Testing
@testable import Geo

/// The direct Web Mercator against PROJ's pipeline, bit for bit.
@Suite struct WebMercatorTests {
    @Test func theMetresArePROJsToTheBit() throws {
        var rng = SystemRandomNumberGenerator()
        var points = [Coord(0, 0), Coord(180, 0), Coord(-180, 89.9), Coord(-73.7405, 40.7182), Coord(139.69, 35.68), Coord(-0.0, -85)]
        for _ in 0..<200_000 {
            points.append(Coord(Double.random(in: -180...180, using: &rng), Double.random(in: -89.99...89.99, using: &rng)))
        }
        // Town-sized boxes, where maps are drawn: neighbouring values, last bits varying.
        for _ in 0..<200_000 {
            points.append(Coord(-73.76 + Double.random(in: 0..<0.02, using: &rng), 40.70 + Double.random(in: 0..<0.02, using: &rng)))
        }
        var proj = points, direct = points
        try Projection.webMercator().forward(&proj)
        let ok = direct.withUnsafeMutableBufferPointer { WebMercator.forward($0) }
        #expect(ok)
        let differing = zip(proj, direct).filter { $0.0.x.bitPattern != $0.1.x.bitPattern || $0.0.y.bitPattern != $0.1.y.bitPattern }
        #expect(differing.isEmpty, "\(differing.count) differ, e.g. \(differing.prefix(3))")
    }

    @Test func outOfRangeIsRefused() {
        var points = [Coord(10, 10), Coord(181, 0), Coord(0, 0)]
        let ok = points.withUnsafeMutableBufferPointer { WebMercator.forward($0) }
        #expect(!ok && points == [Coord(10, 10), Coord(181, 0), Coord(0, 0)])
    }
}
