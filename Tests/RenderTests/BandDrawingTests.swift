import Foundation
import Geo
import Render
import Testing

/// A PNG's footprints drawn in two bands on two threads must give the image of one pass, byte
/// for byte: the bands split where shapes, strokes and roads cross, and labels, title and
/// legend are drawn over both.
@Suite struct BandDrawingTests {
    /// Rotated footprints (some with a courtyard) of every status on a grid, with roads
    /// between the rows and house numbers to label.
    static func map() -> MapData {
        let statuses: [(String?, Int)] = [(nil, 0), ("hot", 0), ("visited", 0), ("not_visited", 2), ("do_not_knock", 0)]
        var buildings: [MapBuilding] = []
        let origin = Coord(-73.74, 40.72)
        let step = 0.00018
        for row in 0..<40 {
            for col in 0..<50 {
                // Rows jittered so that footprint and stroke edges fall at every sub-pixel
                // offset around the split.
                let jitter = Double((row * 50 + col) * 37 % 101) / 101 * 0.8 - 0.4
                let c = Coord(origin.x + Double(col) * step, origin.y + (Double(row) + jitter) * step)
                let angle = Double((row * 50 + col) % 17) * 0.09
                func corner(_ dx: Double, _ dy: Double) -> Coord {
                    Coord(c.x + (dx * cos(angle) - dy * sin(angle)) * step, c.y + (dx * sin(angle) + dy * cos(angle)) * step)
                }
                let shell = [corner(-0.35, -0.3), corner(0.35, -0.3), corner(0.35, 0.3), corner(-0.35, 0.3), corner(-0.35, -0.3)]
                var rings = [shell]
                if (row + col) % 7 == 0 {
                    rings.append([corner(-0.1, -0.1), corner(-0.1, 0.1), corner(0.1, 0.1), corner(0.1, -0.1), corner(-0.1, -0.1)])
                }
                let (status, scans) = statuses[(row * 3 + col) % statuses.count]
                buildings.append(MapBuilding(id: String(format: "b%02d%02d", row, col), polygons: [PolygonCoords(rings: rings)],
                                             status: status, scansTotal: scans, qrScanned: scans > 0,
                                             label: String(row * 100 + col), isOrphan: (row + col) % 11 == 0))
            }
        }
        let roads = (0..<40).map { row in
            MapRoad(line: [Coord(origin.x - step, origin.y + (Double(row) + 0.5) * step),
                           Coord(origin.x + 50 * step, origin.y + (Double(row) + 0.5) * step + step * 0.3)],
                    roadClass: row % 4 == 0 ? "primary" : "residential")
        }
        return MapData(buildings: buildings, roads: roads, title: "Bands")
    }

    @Test(arguments: [(800, 600), (1201, 1777)])
    func twoBandsDrawTheOnePassImage(_ size: (Int, Int)) throws {
        let map = Self.map()
        let canvas = Canvas.pixels(width: size.0, height: size.1)
        let one = try MapRenderer(drawThreads: 1).render(map, viewport: .dataExtent(padding: 24), canvas: canvas, format: .png)
        let two = try MapRenderer(drawThreads: 2).render(map, viewport: .dataExtent(padding: 24), canvas: canvas, format: .png)
        #expect(one.counts.values.reduce(0, +) == map.buildings.count)
        #expect(one.labelsPlaced > 0)
        #expect(two.labelsPlaced == one.labelsPlaced)
        // Compared as one Bool: on a failure, the testing library would diff the bytes.
        let same = two.data == one.data
        #expect(same, "the two-band PNG differs from the one-pass PNG")
    }
}
