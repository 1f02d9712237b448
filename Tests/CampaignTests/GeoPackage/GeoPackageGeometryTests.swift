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

    @Test func sha256KnownVectors() {
        #expect(FileHash.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(FileHash.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(FileHash.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func qrSlugsAreRandomAndReadable() {
        let slugs = (0..<1000).map { _ in QRSlug.make() }
        #expect(Set(slugs).count == 1000)
        #expect(slugs.allSatisfy { $0.utf8.count == 10 && $0.utf8.allSatisfy { QRSlug.alphabet.contains($0) } })
        // From one source, as a provision makes them (its buffer of random words refilled).
        var source = QRSlug.Source()
        let many = (0..<5000).map { _ in QRSlug.make(&source) }
        #expect(Set(many).count == 5000)
        #expect(many.allSatisfy { $0.utf8.count == 10 && $0.utf8.allSatisfy { QRSlug.alphabet.contains($0) } })
        // Each slug as a number and back, as a provision checks them for uniqueness; other
        // texts have no number.
        #expect(many.allSatisfy { QRSlug.code($0).map(QRSlug.text) == $0 })
        #expect(Set(many.compactMap(QRSlug.code)).count == 5000)
        for other in ["", "abcdefghj", "abcdefghjkm", "ABCDEFGHJK", "abcdefghj1", "abcdefghj\u{e9}"] { #expect(QRSlug.code(other) == nil) }
        // Every letter of the alphabet turns up, about equally often.
        var counts: [UInt8: Int] = [:]
        for s in many { for c in s.utf8 { counts[c, default: 0] += 1 } }
        #expect(counts.count == QRSlug.alphabet.count)
        #expect(counts.values.allSatisfy { abs($0 - 50_000 / 31) < 300 })
    }
}

@Suite struct FileHashTests {
    @Test func fileDigestMatchesSha256sum() throws {
        let path = Fixtures.sample("buildings.geojson")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(FileHash.file(path) == String(out.prefix(64)))
    }
}
