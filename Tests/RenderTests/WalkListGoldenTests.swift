import Foundation
import Geo
import Testing
@testable import Render

/// A walk-list page drawn from the street-names golden case (the turf of the golden turf map:
/// the five houses north of Hollis Street), checked as an image (page 1 rasterised by
/// `pdftoppm`), as text (`pdftotext`: the doors in walking order, the street names of its map)
/// and through the labels it placed.
@Suite struct WalkListGoldenTests {
    static let reference = Fixture.goldenDir.appendingPathComponent("walk-list-page1-50dpi.png")

    static func rows() throws -> (rows: [WalkRow], roads: [MapRoad]) {
        let (spec, map, _) = try GoldenCase(name: "turf-walk").load()
        let focus = try #require(spec.focus)
        let rows = try focus.buildings.map { id -> WalkRow in
            let b = try #require(map.buildings.first { $0.id == id })
            let ring = b.polygons[0].rings[0].dropLast()
            let centre = Coord(ring.reduce(0) { $0 + $1.x } / Double(ring.count), ring.reduce(0) { $0 + $1.y } / Double(ring.count))
            return WalkRow(number: b.label ?? "", street: "Hollis Street", unit: "", location: centre, footprint: b.polygons)
        }
        return (rows, map.roads)
    }

    @Test func aWalkListPageMatchesItsReferenceAndReadsInWalkingOrder() throws {
        let (rows, roads) = try Self.rows()
        let pdf = Fixture.tempPath("walk.pdf"), png = Fixture.tempPath("walk-page")
        defer { for f in [pdf, png + ".png"] { try? FileManager.default.removeItem(atPath: f) } }
        let printer = try WalkListPrinter(path: pdf, title: "Golden")
        let names = printer.add(turf: 1, routeMetres: 96, rows: rows, roads: roads)
        try printer.finish()

        // The map names its street (again along it), not the short street with a long name; no
        // two names meet, none is upside down.
        #expect(Set(names.map(\.text)) == ["Hollis Street"] && names.count >= 2, "\(names.map(\.text))")
        for (i, a) in names.enumerated() {
            #expect(a.angle > -Double.pi / 2 && a.angle <= Double.pi / 2)
            for b in names[(i + 1)...] { #expect(!a.boxes.contains { x in b.boxes.contains { x.intersects($0) } }, "\(a.text) meets \(b.text)") }
        }
        let raw = StreetLabelTests.squeezed(try QRTests.run("pdftotext", ["-raw", pdf, "-"]).1)
        for name in Set(names.map(\.text)) { #expect(raw.contains(StreetLabelTests.squeezed(name)), "\(name) not in the PDF's text") }

        // The doors in walking order: place, number, street, each on a later line.
        let lines = try QRTests.run("pdftotext", ["-layout", pdf, "-"]).1.split(separator: "\n").map(String.init)
        var at = 0
        for (k, r) in rows.enumerated() {
            let found = lines[at...].firstIndex { $0.split(separator: " ").map(String.init).starts(with: ["\(k + 1)", r.number, "Hollis", "Street"]) }
            #expect(found != nil, "door \(k + 1), \(r.number) Hollis Street, not after line \(at)")
            at = (found ?? at) + 1
        }

        #expect(try QRTests.run("pdftoppm", ["-png", "-r", "50", "-f", "1", "-l", "1", "-singlefile", pdf, png]).0 == 0)
        try GoldenTests.comparePNG(try Data(contentsOf: URL(fileURLWithPath: png + ".png")), reference: Self.reference, name: "walk-list page 1")
    }
}
