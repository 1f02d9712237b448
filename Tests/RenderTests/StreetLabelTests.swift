import Foundation
import Geo
import Testing
@testable import Render

/// Street names: where they go along a line, and on a real map that no two labels meet.
@Suite struct StreetLabelTests {
    @Test func aLineRunningLeftReadsLeftToRight() throws {
        let west = StreetLabelGeometry.spots([Coord(300, 100), Coord(0, 100)], length: 100, step: 50, tolerance: 2)
        let spot = try #require(west.first)
        #expect(abs(spot.angle) < 1e-9)
        // Up the screen and to the left: turned half a turn, so the text still reads rightwards.
        let steep = try #require(StreetLabelGeometry.spots([Coord(200, 300), Coord(0, 0)], length: 100, step: 50, tolerance: 2).first)
        #expect(steep.angle > -Double.pi / 2 && steep.angle <= Double.pi / 2)
        #expect(abs(steep.angle - atan2(300, 200)) < 1e-9)
    }

    @Test func aStreetShorterThanItsNameGetsNoSpot() {
        #expect(StreetLabelGeometry.spots([Coord(0, 0), Coord(80, 0)], length: 100, step: 20, tolerance: 2).isEmpty)
        #expect(StreetLabelGeometry.spots([Coord(0, 0)], length: 10, step: 20, tolerance: 2).isEmpty)
    }

    @Test func theNameGoesOnTheStraightStretch() throws {
        // A 60-px leg, a sharp bend, then a 300-px straight leg going down.
        let line = [Coord(0, 0), Coord(60, 0), Coord(60, 300)]
        let spots = StreetLabelGeometry.spots(line, length: 120, step: 20, tolerance: 3)
        let best = try #require(spots.first)
        #expect(best.deviation == 0 && abs(best.centre.x - 60) < 1e-9)
        #expect(spots.allSatisfy { $0.deviation <= 3 })
        // No window across the bend is straight enough.
        #expect(!spots.contains { $0.centre.y < 60 })
    }

    @Test func boxesCoverTheTurnedLabel() {
        let spot = StreetLabelSpot(centre: Coord(100, 100), angle: Double.pi / 4, deviation: 0)
        let boxes = StreetLabelGeometry.boxes(spot, width: 100, height: 10, pad: 1)
        #expect(boxes.count == 10)
        // Both ends of the baseline's middle line lie in some box.
        for along in [-50.0, 50.0] {
            let x = 100 + along * cos(Double.pi / 4), y = 100 + along * sin(Double.pi / 4)
            #expect(boxes.contains { $0.x <= x && x <= $0.x + $0.width && $0.y <= y && y <= $0.y + $0.height })
        }
    }

    static func sampleMap() throws -> MapData {
        let dir = Fixture.repoRoot.appendingPathComponent("samples/queens-village")
        return try ExtractsSource(buildings: [dir.appendingPathComponent("buildings.geojson").path],
                                  addresses: [dir.appendingPathComponent("addresses-streetside.geojsonseq").path],
                                  segments: [dir.appendingPathComponent("segments.geojson").path]).loadMapData()
    }

    @Test func placedLabelsNeverMeet() throws {
        let map = try Self.sampleMap()
        let result = try MapRenderer().render(map, viewport: .dataExtent(padding: 24), canvas: .pixels(width: 2400, height: 1800), format: .png)
        let streets = result.labels.filter { $0.kind == .street }, numbers = result.labels.filter { $0.kind == .houseNumber }
        #expect(streets.count >= 10, "\(streets.count) street labels")
        #expect(numbers.count >= 50, "\(numbers.count) house numbers")
        #expect(Set(streets.map(\.text)).count >= 5)
        for (i, a) in result.labels.enumerated() {
            for b in result.labels[(i + 1)...] {
                let meet = a.boxes.contains { x in b.boxes.contains { x.intersects($0) } }
                #expect(!meet, "\(a.kind) '\(a.text)' meets \(b.kind) '\(b.text)'")
            }
        }
        var plain = Style.default
        plain.streetLabelsVisible = false
        let without = try MapRenderer(style: plain).render(map, viewport: .dataExtent(padding: 24), canvas: .pixels(width: 2400, height: 1800), format: .png)
        #expect(without.labels.allSatisfy { $0.kind == .houseNumber })
        #expect(without.data != result.data)
    }

    /// The golden street-names case read back from the label placer: every name placed but the
    /// short street's, none upside down, no two labels meeting, no name over a house number.
    @Test func theGoldenStreetNamesKeepTheRules() throws {
        let (spec, map, style) = try GoldenCase(name: "street-names").load()
        let view = Viewport.bbox(BBox(minX: spec.bbox[0], minY: spec.bbox[1], maxX: spec.bbox[2], maxY: spec.bbox[3]), padding: 0)
        let result = try MapRenderer(style: style).render(map, viewport: view, canvas: .pixels(width: spec.size[0], height: spec.size[1]), format: .png)
        let streets = result.labels.filter { $0.kind == .street }, numbers = result.labels.filter { $0.kind == .houseNumber }
        #expect(Set(streets.map(\.text)) == ["Jamaica Avenue", "Hollis Street", "Springfield Boulevard"])
        #expect(numbers.count == 16)
        for s in streets { #expect(s.angle > -Double.pi / 2 && s.angle <= Double.pi / 2, "\(s.text) at \(s.angle)") }
        // Drawn east to west and north-east to south-west, yet read left to right.
        let hollis = try #require(streets.first { $0.text == "Hollis Street" })
        #expect(abs(hollis.angle) < 0.01)
        let springfield = try #require(streets.first { $0.text == "Springfield Boulevard" })
        #expect(springfield.angle < -0.5 && springfield.angle > -1.3, "\(springfield.angle)")
        for (i, a) in result.labels.enumerated() {
            for b in result.labels[(i + 1)...] {
                #expect(!a.boxes.contains { x in b.boxes.contains { x.intersects($0) } }, "\(a.kind) '\(a.text)' meets \(b.kind) '\(b.text)'")
            }
        }
        let canvas = PixelRect(x: 0, y: 0, width: Double(spec.size[0]), height: Double(spec.size[1]))
        for s in streets {
            #expect(s.boxes.allSatisfy { $0.x >= canvas.x && $0.y >= canvas.y && $0.x + $0.width <= canvas.width && $0.y + $0.height <= canvas.height })
        }
    }

    /// Text as `pdftotext -raw` gives it, compatibility-normalised (ligatures split) and
    /// without white space: rotated glyphs come out one a line, in order.
    static func squeezed(_ text: String) -> String {
        String(text.precomposedStringWithCompatibilityMapping.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
    }

    @Test func everyPlacedStreetNameIsTextInThePDF() throws {
        let result = try MapRenderer().render(try Self.sampleMap(), viewport: .dataExtent(padding: 24),
                                              canvas: .paper(.letter, dpi: 150, landscape: true), format: .pdf)
        let pdf = Fixture.tempPath("streets.pdf"), txt = Fixture.tempPath("streets.txt")
        defer { try? FileManager.default.removeItem(atPath: pdf); try? FileManager.default.removeItem(atPath: txt) }
        try result.data.write(to: URL(fileURLWithPath: pdf))
        #expect(try Fixture.run("pdftotext", ["-raw", pdf, txt]) == 0)
        let text = Self.squeezed(try String(contentsOfFile: txt, encoding: .utf8))
        let names = Set(result.labels.filter { $0.kind == .street }.map(\.text))
        #expect(names.count >= 10, "\(names)")
        for name in names.sorted() { #expect(text.contains(Self.squeezed(name)), "\(name) not in the PDF's text") }
    }
}
