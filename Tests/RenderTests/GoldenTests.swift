import Foundation
import Geo
import Render
import Testing

/// One self-contained render case: `Golden/<name>.case.json` holds the style name (a file in
/// `styles/`), bbox W,S,E,N, size in pixels, optional title, the features (web map format),
/// roads (class, name, line) and optionally a turf in focus (its buildings and walk). References are named by what produced them: `<name>-<style>-<w>x<h>.png|svg`.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    let name: String
    var testDescription: String { name }

    static var all: [GoldenCase] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Fixture.goldenDir.path)) ?? []
        return files.filter { $0.hasSuffix(".case.json") }.sorted()
            .map { GoldenCase(name: String($0.dropLast(".case.json".count))) }
    }

    struct Spec: Decodable {
        var style: String
        var bbox: [Double]
        var size: [Int]
        var title: String?
        struct Road: Decodable { var `class`: String?; var name: String?; var line: [[Double]] }
        var roads: [Road]?
        /// One turf: its buildings drawn normally (the rest dimmed) and its walk.
        struct Focus: Decodable { var buildings: [String]; var route: [[Double]] }
        var focus: Focus?
    }

    func load() throws -> (spec: Spec, map: MapData, style: Style) {
        let url = Fixture.goldenDir.appendingPathComponent("\(name).case.json")
        let data = try Data(contentsOf: url)
        let spec = try JSONDecoder().decode(Spec.self, from: data)
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let features = try JSONSerialization.data(withJSONObject: object["features"]!)
        var map = try FeaturesGeoJSONSource.parse(features, file: url.path)
        map.title = spec.title
        map.roads = (spec.roads ?? []).map { r in MapRoad(line: r.line.map { Coord($0[0], $0[1]) }, roadClass: r.class, name: r.name) }
        map.focus = spec.focus.map { MapFocus(buildingIDs: Set($0.buildings), route: $0.route.map { Coord($0[0], $0[1]) }) }
        return (spec, map, try Fixture.style(spec.style))
    }

    func reference(_ spec: Spec, _ ext: String) -> URL {
        Fixture.goldenDir.appendingPathComponent("\(name)-\(spec.style)-\(spec.size[0])x\(spec.size[1]).\(ext)")
    }
}

/// PNG tolerance: a pixel differs when a channel is off by more than 8; a case fails when
/// more than 0.5 % of pixels differ (Cairo's anti-aliasing changes between versions).
let channelTolerance = 8
let differingShare = 0.005

/// SVG compared as text with the ids Cairo numbers (surfaces, glyphs, patterns, clips) and
/// the glyph outlines (they follow the installed font) taken out.
func normalisedSVG(_ text: String) -> String {
    var s = text
    for (pattern, replacement) in [
        (#"<symbol[^>]*>.*?</symbol>"#, ""),
        (#"\bid="[^"]*""#, #"id="""#),
        (##"href="#[^"]*""##, ##"href="#""##),
        (##"url\(#[^)]*\)"##, "url(#)"),
        (#"<use [^>]*/>"#, "<use/>"),
        (#"\s+"#, " "),
    ] {
        s = s.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
    }
    return s.replacingOccurrences(of: "> <", with: "><")
}

@Suite struct GoldenTests {
    static let record = ProcessInfo.processInfo.environment["FLYR_RECORD_GOLDEN"] == "1"

    @Test(arguments: GoldenCase.all)
    func png(_ c: GoldenCase) throws {
        let (spec, map, style) = try c.load()
        let view = Viewport.bbox(BBox(minX: spec.bbox[0], minY: spec.bbox[1], maxX: spec.bbox[2], maxY: spec.bbox[3]), padding: 0)
        let r = try MapRenderer(style: style).render(map, viewport: view, canvas: .pixels(width: spec.size[0], height: spec.size[1]), format: .png)
        try Self.comparePNG(r.data, reference: c.reference(spec, "png"), name: c.name)
    }

    /// Compares a PNG with its reference within the tolerance (or records it); on failure
    /// writes the actual image and a diff beside the reference.
    static func comparePNG(_ data: Data, reference ref: URL, name: String) throws {
        if record { try data.write(to: ref); return }
        guard FileManager.default.fileExists(atPath: ref.path) else {
            Issue.record("no reference \(ref.lastPathComponent); record it with FLYR_RECORD_GOLDEN=1 swift test --filter GoldenTests")
            return
        }
        let expected = try RasterImage(pngFile: ref.path)
        let actual = try RasterImage(png: data)
        let actualURL = ref.deletingPathExtension().appendingPathExtension("actual.png")
        let diffURL = ref.deletingPathExtension().appendingPathExtension("diff.png")
        guard expected.width == actual.width, expected.height == actual.height else {
            try data.write(to: actualURL)
            Issue.record("\(name): size \(actual.width)x\(actual.height), reference \(expected.width)x\(expected.height); actual in \(actualURL.path)")
            return
        }
        var diff = [UInt8](repeating: 0, count: expected.rgba.count)
        var differing = 0
        for i in stride(from: 0, to: expected.rgba.count, by: 4) {
            let d = (0..<4).map { abs(Int(expected.rgba[i + $0]) - Int(actual.rgba[i + $0])) }.max()!
            if d > channelTolerance {
                differing += 1
                diff[i] = 255; diff[i + 3] = 255
            } else {
                let grey = UInt8(200 + Int(expected.rgba[i]) / 5)
                diff[i] = grey; diff[i + 1] = grey; diff[i + 2] = grey; diff[i + 3] = 255
            }
        }
        let share = Double(differing) / Double(expected.width * expected.height)
        if share > differingShare {
            try data.write(to: actualURL)
            try RasterImage(width: expected.width, height: expected.height, rgba: diff).pngData().write(to: diffURL)
            Issue.record("\(name): \(differing) pixels (\(String(format: "%.2f", share * 100)) %) differ by more than \(channelTolerance); see \(actualURL.path) and \(diffURL.path)")
        }
    }

    @Test(arguments: GoldenCase.all)
    func svg(_ c: GoldenCase) throws {
        let (spec, map, style) = try c.load()
        let view = Viewport.bbox(BBox(minX: spec.bbox[0], minY: spec.bbox[1], maxX: spec.bbox[2], maxY: spec.bbox[3]), padding: 0)
        let r = try MapRenderer(style: style).render(map, viewport: view, canvas: .pixels(width: spec.size[0], height: spec.size[1]), format: .svg)
        let ref = c.reference(spec, "svg")
        if Self.record { try r.data.write(to: ref); return }
        guard let expected = try? String(contentsOf: ref, encoding: .utf8) else {
            Issue.record("no reference \(ref.lastPathComponent); record it with FLYR_RECORD_GOLDEN=1 swift test --filter GoldenTests")
            return
        }
        let actual = String(decoding: r.data, as: UTF8.self)
        if normalisedSVG(actual) != normalisedSVG(expected) {
            let actualURL = ref.deletingPathExtension().appendingPathExtension("actual.svg")
            try r.data.write(to: actualURL)
            Issue.record("\(c.name): SVG differs from \(ref.lastPathComponent) after normalising; actual in \(actualURL.path)")
        }
    }

    @Test func normalisingDropsIDs() {
        let a = ##"<g id="surface1"><use xlink:href="#glyph0-1" x="1" y="2"/><path style="fill:url(#pattern0)"/></g>"##
        let b = ##"<g id="surface9"><use xlink:href="#glyph3-4" x="1" y="2"/><path style="fill:url(#pattern7)"/></g>"##
        #expect(normalisedSVG(a) == normalisedSVG(b))
    }
}
