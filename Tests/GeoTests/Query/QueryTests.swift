import Foundation
import Testing
@testable import Geo

/// The repository root, from this file (Tests/GeoTests/QueryTests.swift).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A file of `samples/queens-village` (always in the repository).
func sampleFile(_ name: String) -> String {
    repositoryRoot.appendingPathComponent("samples/queens-village").appendingPathComponent(name).path
}

/// A file under `../shared/data` beside the checkout, or nil when absent (the test is skipped).
func sharedDataFile(_ relative: String) -> String? {
    let path = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        .appendingPathComponent(relative).path
    return FileManager.default.fileExists(atPath: path) ? path : nil
}

/// The sample area's three layers, read once.
struct Sample {
    let buildings: [Building]
    let addresses: [Address]
    let segments: [Segment]
    static let shared: Sample = {
        Sample(buildings: try! loadBuildings([sampleFile("buildings.geojson")]).features,
               addresses: try! loadAddresses([sampleFile("addresses.geojsonseq")]).features,
               segments: try! loadSegments([sampleFile("segments.geojson")]).features)
    }()
}

@Suite struct QueryTests {
    /// Every feature tested with GEOS against the box, no index.
    private func bruteForce(_ s: Sample, _ box: BBox, _ index: FeatureIndex) throws -> (b: [String], a: [String], s: [String]) {
        let ctx = index.context
        let r = try index.region(box)
        var b: [String] = [], a: [String] = [], l: [String] = []
        for x in s.buildings {
            var g = try Geometry.polygon(ctx, x.polygons)
            if !g.isValid { g = try g.makeValid().polygonalPart() }
            if try g.intersects(r) { b.append(x.id) }
        }
        for x in s.addresses where try Geometry.point(ctx, x.point).intersects(r) { a.append(x.id) }
        for x in s.segments where try Geometry.lineString(ctx, x.line).intersects(r) { l.append(x.id) }
        return (b.sorted(), a.sorted(), l.sorted())
    }

    @Test func randomBoxesMatchABruteForceScan() throws {
        let s = Sample.shared
        let index = try FeatureIndex(buildings: s.buildings, addresses: s.addresses, segments: s.segments)
        var extent = BBox.extent(of: s.addresses)
        for b in s.buildings { extent.expand(b.bbox) }
        var rng = SeededRandom(seed: 42)
        var nonEmpty = 0
        for k in 0..<60 {
            // Boxes from a few metres to the whole area, some reaching outside it; every
            // tenth is a vertical line (zero width).
            let w = k % 10 == 9 ? 0 : Double.random(in: 0.00002...0.008, using: &rng)
            let h = Double.random(in: 0.00002...0.006, using: &rng)
            let x = Double.random(in: (extent.minX - w / 2)...(extent.maxX), using: &rng)
            let y = Double.random(in: (extent.minY - h / 2)...(extent.maxY), using: &rng)
            let box = BBox(minX: x, minY: y, maxX: x + w, maxY: y + h)
            let expected = try bruteForce(s, box, index)
            #expect(try index.buildings(in: box).map(\.id) == expected.b)
            #expect(try index.addresses(in: box).map(\.id) == expected.a)
            #expect(try index.segments(in: box).map(\.id) == expected.s)
            if !expected.b.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 20)
    }

    @Test func bboxOverlapAloneIsNotEnough() throws {
        var s = Scene()
        // An L-shaped building whose bbox covers the query box but whose footprint does not.
        s.building("L", "POLYGON((0 0,30 0,30 5,5 5,5 30,0 30,0 0))")
        s.road("diag", "LINESTRING(0 40,40 0)", name: nil)
        let index = try FeatureIndex(buildings: s.buildings, segments: s.segments)
        let corner = BBox(covering: s.degrees([Coord(22, 22), Coord(26, 26)]))
        #expect(s.buildings[0].bbox.intersects(corner))
        #expect(try index.buildings(in: corner).isEmpty)
        #expect(try index.segments(in: corner).isEmpty)
        let edge = BBox(covering: s.degrees([Coord(1, 1), Coord(2, 2)]))
        #expect(try index.buildings(in: edge).map(\.id) == ["L"])
    }

    @Test func limitKeepsTheIdOrder() throws {
        let s = Sample.shared
        let index = try FeatureIndex(addresses: s.addresses)
        let all = try index.addresses(in: BBox.extent(of: s.addresses))
        #expect(all.count == s.addresses.count)
        #expect(all.map(\.id) == s.addresses.map(\.id).sorted())
        #expect(try index.addresses(in: BBox.extent(of: s.addresses), limit: 7).map(\.id) == Array(all.prefix(7)).map(\.id))
        #expect(try index.addresses(in: BBox.extent(of: s.addresses), limit: 0).isEmpty)
    }

    @Test func campaignExtent() {
        let a = [Address(id: "1", point: Coord(-73.75, 40.72)), Address(id: "2", point: Coord(-73.74, 40.71))]
        #expect(BBox.extent(of: a) == BBox(minX: -73.75, minY: 40.71, maxX: -73.74, maxY: 40.72))
        #expect(BBox.extent(of: [Address]()).isEmpty)
        #expect(BBox.extent(of: [Address]()).center == nil)
    }

    @Test(arguments: ["-73.75,40.72,-73.74,40.71", "-73.75,40.71,-73.74,95", "-73.75,40.71,-73.74"])
    func badBoxesAreRefusedWithTheExpectedForm(text: String) {
        #expect {
            _ = try BBox(parsing: text)
        } throws: { e in
            "\(e)".contains("W,S,E,N") && "\(e)".contains("e.g. --bbox")
        }
    }

    @Test func featuresAreWrittenAsOneLineGeoJSON() throws {
        let s = Sample.shared
        for line in [FeatureText.geoJSON(s.buildings[0]), FeatureText.geoJSON(s.addresses[0]), FeatureText.geoJSON(s.segments[0])] {
            #expect(!line.contains("\n"))
            let obj = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(obj["type"] as? String == "Feature" && obj["id"] is String)
            #expect((obj["properties"] as? [String: Any])?["layer"] is String)
        }
        #expect(FeatureText.csvRow(Address(id: "x", point: Coord(1.5, 2), number: "1", street: "A, B")) == "x,1,\"A, B\",,,1.5,2.0")
    }
}
