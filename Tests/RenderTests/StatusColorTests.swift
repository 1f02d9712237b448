import Foundation
import Geo
import Render
import Testing

@Suite struct StatusColorTests {
    @Test func priorityScannedOverHotOverVisitedOverRest() {
        #expect(StatusColor.status(of: MapBuilding(id: "a", polygons: [], status: "hot", qrScanned: true)) == .scanned)
        #expect(StatusColor.status(of: MapBuilding(id: "a", polygons: [], status: "visited", scansTotal: 1)) == .scanned)
        #expect(StatusColor.status(of: MapBuilding(id: "a", polygons: [], status: "HOT")) == .hot)
        #expect(StatusColor.status(of: MapBuilding(id: "a", polygons: [], status: "visited", isOrphan: true)) == .visited)
        #expect(StatusColor.status(of: MapBuilding(id: "a", polygons: [], status: "pending")) == .other)
        #expect(StatusColor.status(of: MapBuilding(id: "a", polygons: [], isOrphan: true)) == .orphan)
        #expect(StatusColor.status(of: MapBuilding(id: "a", polygons: [], status: "qr_scanned")) == .scanned)
    }

    @Test func productPalette() {
        let s = Style.default
        #expect(StatusColor.paint(for: .scanned, style: s)?.fill.hex == "#facc15")
        #expect(StatusColor.paint(for: .hot, style: s)?.fill.hex == "#3b82f6")
        #expect(StatusColor.paint(for: .visited, style: s)?.fill.hex == "#22c55e")
        #expect(StatusColor.paint(for: .other, style: s)?.fill.hex == "#ef4444")
        var hidden = s
        hidden.showOrphans = false
        #expect(StatusColor.paint(for: .orphan, style: hidden) == nil)
    }

    /// Every footprint's interior pixel has its status colour, in PNG.
    @Test func pngPixelsHaveStatusColors() throws {
        let map = Fixture.statusRow
        let style = Fixture.noFurniture
        let r = try MapRenderer(style: style).render(map, viewport: .dataExtent(padding: 30),
                                                      canvas: .pixels(width: 400, height: 200), format: .png)
        let img = try RasterImage(png: r.data)
        #expect(img.width == 400 && img.height == 200)
        for b in map.buildings {
            let (x, y) = try Fixture.interiorPixel(b, view: r.view)
            let paint = try #require(StatusColor.paint(for: b, style: style))
            Fixture.expectColor(img, x, y, paint.fill, b.id)
        }
        // The scanned building marked hot is yellow.
        let (x, y) = try Fixture.interiorPixel(map.buildings[5], view: r.view)
        Fixture.expectColor(img, x, y, RGBA(hex: "#facc15")!, "scanned and hot")
        #expect(r.counts[.scanned] == 2 && r.counts[.hot] == 1 && r.counts[.orphan] == 1)
    }

    /// Hidden orphans leave the background showing.
    @Test func hiddenOrphansAreNotDrawn() throws {
        let map = Fixture.statusRow
        var style = Fixture.noFurniture
        style.showOrphans = false
        let r = try MapRenderer(style: style).render(map, viewport: .dataExtent(padding: 30),
                                                      canvas: .pixels(width: 400, height: 200), format: .png)
        let img = try RasterImage(png: r.data)
        let (x, y) = try Fixture.interiorPixel(map.buildings[4], view: r.view)
        Fixture.expectColor(img, x, y, style.background, "hidden orphan")
        #expect(r.counts[.orphan] == nil)
    }

    /// The PDF, rasterised by pdftoppm at 72 dpi (1 pt = 1 px), has the same colours.
    @Test func pdfPixelsHaveStatusColors() throws {
        let map = Fixture.statusRow
        let style = Fixture.noFurniture
        let r = try MapRenderer(style: style).render(map, viewport: .dataExtent(padding: 30),
                                                      canvas: .pixels(width: 400, height: 200), format: .pdf)
        #expect(r.data.starts(with: Data("%PDF".utf8)))
        let pdf = Fixture.tempPath("map.pdf")
        try r.data.write(to: URL(fileURLWithPath: pdf))
        defer { try? FileManager.default.removeItem(atPath: pdf); try? FileManager.default.removeItem(atPath: pdf + "-1.png") }
        try #require(try Fixture.run("pdftoppm", ["-png", "-r", "72", "-singlefile", pdf, pdf + "-1"]) == 0)
        let img = try RasterImage(pngFile: pdf + "-1.png")
        #expect(img.width == 400 && img.height == 200)
        for b in map.buildings {
            let (x, y) = try Fixture.interiorPixel(b, view: r.view)
            Fixture.expectColor(img, x, y, StatusColor.paint(for: b, style: style)!.fill, tolerance: 4, "PDF \(b.id)")
        }
    }

    /// The PDF keeps the title as real text.
    @Test func pdfHasRealText() throws {
        var map = Fixture.statusRow
        map.title = "Hollis Spring Drive"
        let r = try MapRenderer().render(map, viewport: .dataExtent(padding: 30), canvas: .pixels(width: 600, height: 400), format: .pdf)
        let pdf = Fixture.tempPath("text.pdf")
        try r.data.write(to: URL(fileURLWithPath: pdf))
        defer { try? FileManager.default.removeItem(atPath: pdf); try? FileManager.default.removeItem(atPath: pdf + ".txt") }
        try #require(try Fixture.run("pdftotext", [pdf, pdf + ".txt"]) == 0)
        let text = try String(contentsOfFile: pdf + ".txt", encoding: .utf8)
        #expect(text.contains("Hollis Spring Drive"))
        #expect(text.contains("OpenStreetMap contributors"))
    }

    @Test func interiorPointAvoidsHoles() {
        let shell = [Coord(0, 0), Coord(10, 0), Coord(10, 10), Coord(0, 10), Coord(0, 0)]
        let hole = [Coord(2, 2), Coord(8, 2), Coord(8, 8), Coord(2, 8), Coord(2, 2)]
        let p = InteriorPoint.of([shell, hole])!
        #expect(p.x < 2 || p.x > 8)
        #expect(InteriorPoint.of([[Coord(0, 0), Coord(1, 1), Coord(2, 2), Coord(0, 0)]]) == nil)
    }

    @Test func scaleBarIsTrueAtTheLatitude() throws {
        let proj = try Projection.webMercator()
        let view = try MapView(viewport: .center(Coord(-73.74, 40.72), zoom: 17), canvas: .pixels(width: 256, height: 256),
                               dataExtent: .empty, projection: proj)
        // Zoom 17: 1.1943 Web Mercator metres per pixel; on the ground × cos(40.72°).
        #expect(abs(view.metresPerPixel - 1.19432856) < 1e-6)
        #expect(abs(view.groundMetresPerPixel - 1.19432856 * cos(40.72 * .pi / 180)) < 1e-6)
    }
}
