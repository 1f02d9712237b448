import Foundation
import Geo
import Render
import Testing

/// Paths and small maps shared by the render tests.
enum Fixture {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let goldenDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static func style(_ name: String) throws -> Style { try Style.load(path: repoRoot.appendingPathComponent("styles/\(name).json").path) }

    /// A rectangle `w` × `h` metres with its south-west corner `east`, `north` metres from
    /// (-73.74, 40.72) (degrees from a local flat approximation; fine for tests).
    static func rect(east: Double, north: Double, w: Double = 14, h: Double = 20) -> PolygonCoords {
        let lat0 = 40.72, lon0 = -73.74
        let dLat = 1 / 111_320.0, dLon = 1 / (111_320.0 * cos(lat0 * .pi / 180))
        let x0 = lon0 + east * dLon, y0 = lat0 + north * dLat, x1 = x0 + w * dLon, y1 = y0 + h * dLat
        return PolygonCoords(rings: [[Coord(x0, y0), Coord(x1, y0), Coord(x1, y1), Coord(x0, y1), Coord(x0, y0)]])
    }

    /// One building per status (and a scanned one marked hot), in a row, with a road below.
    static var statusRow: MapData {
        let b = [
            MapBuilding(id: "scanned", polygons: [rect(east: 0, north: 0)], scansTotal: 2, label: "1"),
            MapBuilding(id: "hot", polygons: [rect(east: 25, north: 0)], status: "hot", label: "3"),
            MapBuilding(id: "visited", polygons: [rect(east: 50, north: 0)], status: "visited", label: "5"),
            MapBuilding(id: "other", polygons: [rect(east: 75, north: 0)], label: "7"),
            MapBuilding(id: "orphan", polygons: [rect(east: 100, north: 0)], isOrphan: true),
            MapBuilding(id: "scanned-hot", polygons: [rect(east: 125, north: 0)], status: "hot", qrScanned: true, label: "11"),
        ]
        let road = MapRoad(line: [rect(east: -10, north: -12).rings[0][0], rect(east: 150, north: -12).rings[0][0]], roadClass: "residential")
        return MapData(buildings: b, roads: [road])
    }

    /// The pixel where a footprint's interior point lands.
    static func interiorPixel(_ b: MapBuilding, view: MapView) throws -> (Int, Int) {
        let proj = try Projection.webMercator()
        var ring = b.polygons[0].rings[0]
        try proj.forward(&ring)
        let px = ring.map { view.pixel($0) }
        let p = try #require(InteriorPoint.of([px]))
        return (Int(p.x), Int(p.y))
    }

    static func expectColor(_ img: RasterImage, _ x: Int, _ y: Int, _ c: RGBA, tolerance: Int = 3,
                            _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let p = img.pixel(x, y), e = c.bytes
        let ok = abs(Int(p.r) - Int(e.r)) <= tolerance && abs(Int(p.g) - Int(e.g)) <= tolerance && abs(Int(p.b) - Int(e.b)) <= tolerance
        #expect(ok, "\(what) at (\(x), \(y)) is rgb(\(p.r),\(p.g),\(p.b)), expected \(c.hex)", sourceLocation: sourceLocation)
    }

    static var noFurniture: Style {
        var s = Style.default
        s.legendVisible = false
        s.labelsVisible = false
        return s
    }

    /// Runs a tool; returns its exit status.
    @discardableResult
    static func run(_ tool: String, _ args: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + args
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    static func tempPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("flyr-render-\(UUID().uuidString)-\(name)").path
    }
}
