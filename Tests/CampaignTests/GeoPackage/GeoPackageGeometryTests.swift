import Foundation
import Testing
@testable import Campaign
import Geo

@Suite struct GeoPackageGeometryTests {
    @Test func roundTripsEachType() throws {
        let ring = [Coord(0, 0), Coord(4, 0), Coord(4, 3), Coord(0, 3), Coord(0, 0)]
        let hole = [Coord(1, 1), Coord(2, 1), Coord(2, 2), Coord(1, 1)]
        let cases: [GeoPackageGeometry] = [
            .point(Coord(-73.74, 40.72)),
            .lineString([Coord(0, 0), Coord(1, 1), Coord(2, 0)]),
            .multiPolygon([PolygonCoords(rings: [ring, hole]), PolygonCoords(rings: [ring.map { Coord($0.x + 10, $0.y) }])]),
        ]
        for g in cases { #expect(try GeoPackageGeometry.decode(g.encode()) == g) }
    }

    static let ring = [Coord(0, 0), Coord(4, 0), Coord(4, 3), Coord(0, 3), Coord(0, 0)]
    static let footprints: [[PolygonCoords]] = [
        [], [PolygonCoords(rings: [ring])],
        [PolygonCoords(rings: [ring, [Coord(1, 1), Coord(2, 1), Coord(2, 2), Coord(1, 1)]]), PolygonCoords(rings: [ring])],
        [PolygonCoords(rings: [])], [PolygonCoords(rings: [[]])],
    ]

    /// A building's footprint is written without its nested arrays: the same bytes.
    @Test(arguments: footprints)
    func footprintEncodesAsItsPolygons(_ polygons: [PolygonCoords]) {
        var w = ByteWriter()
        GeoPackageGeometry.encode(Footprint(polygons), into: &w)
        #expect(Data(w.buffer) == GeoPackageGeometry.multiPolygon(polygons).encode())
    }

    @Test func headerHoldsMagicSRSAndEnvelope() throws {
        let g = GeoPackageGeometry.lineString([Coord(1, 5), Coord(3, 2)])
        let d = g.encode()
        #expect(Array(d.prefix(4)) == [0x47, 0x50, 0x00, 0x03])        // GP, v0, LE + envelope code 1
        #expect(d[4..<8].withUnsafeBytes { $0.loadUnaligned(as: Int32.self) } == 4326)
        #expect(GeoPackageGeometry.envelope(ofBlob: d) == BBox(minX: 1, minY: 2, maxX: 3, maxY: 5))
        #expect(d[40] == 1)                                               // WKB byte order follows the header
        #expect(!GeoPackageGeometry.isEmpty(blob: d))
    }

    @Test func emptyGeometryHasNoEnvelope() {
        let d = GeoPackageGeometry.multiPolygon([]).encode()
        #expect(GeoPackageGeometry.isEmpty(blob: d))
        #expect(GeoPackageGeometry.envelope(ofBlob: d) == nil)
    }

    @Test func rejectsBlobsThatAreNotGeoPackage() {
        #expect(throws: GeoPackageError.self) { try GeoPackageGeometry.decode(Data([1, 2, 3, 4, 5, 6, 7, 8, 9])) }
        #expect(GeoPackageGeometry.envelope(ofBlob: Data("hello world".utf8)) == nil)
    }
}
