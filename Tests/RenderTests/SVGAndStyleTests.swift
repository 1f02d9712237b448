import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Geo
import Render
import Testing

/// Counts drawn `<path>` elements by fill colour, skipping glyph definitions in `<defs>`.
private final class PathCounter: NSObject, XMLParserDelegate {
    var fills: [String: Int] = [:]
    var elements: Set<String> = []
    private var defsDepth = 0
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.insert(name)
        if name == "defs" { defsDepth += 1 }
        guard name == "path", defsDepth == 0 else { return }
        let style = (attributes["style"] ?? "") + ";fill:" + (attributes["fill"] ?? "")
        if let fill = style.split(separator: ";").first(where: { $0.hasPrefix("fill:") && !$0.hasPrefix("fill:none") && $0.count > 5 }) {
            fills[String(fill.dropFirst(5)), default: 0] += 1
        }
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "defs" { defsDepth -= 1 }
    }
}

/// Cairo writes `rgb(98.039216%,80%,8.235294%)`; back to 8-bit `#rrggbb`.
private func hexOfSVGColor(_ s: String) -> String? {
    guard s.hasPrefix("rgb("), s.hasSuffix(")") else { return s.hasPrefix("#") ? s : nil }
    let parts = s.dropFirst(4).dropLast().split(separator: ",")
    let v = parts.compactMap { p -> Double? in
        p.hasSuffix("%") ? Double(p.dropLast()).map { $0 / 100 } : Double(p).map { $0 / 255 }
    }
    guard v.count == 3 else { return nil }
    return RGBA(v[0], v[1], v[2]).hex
}

@Suite struct SVGTests {
    private func parse(_ data: Data) throws -> PathCounter {
        let parser = XMLParser(data: data)
        let counter = PathCounter()
        parser.delegate = counter
        #expect(parser.parse(), "SVG is well-formed XML: \(String(describing: parser.parserError))")
        return counter
    }

    @Test func onePathPerFootprint() throws {
        let map = Fixture.statusRow
        let style = Fixture.noFurniture
        let r = try MapRenderer(style: style).render(map, viewport: .dataExtent(padding: 30),
                                                      canvas: .pixels(width: 400, height: 200), format: .svg)
        let counter = try parse(r.data)
        var byHex: [String: Int] = [:]
        for (fill, n) in counter.fills { if let h = hexOfSVGColor(fill) { byHex[h, default: 0] += n } }
        for status in MapStatus.allCases {
            let expected = map.buildings.filter { StatusColor.status(of: $0) == status }.count
            let hex = StatusColor.paint(for: status, style: style)!.fill.hex
            #expect(byHex[hex, default: 0] == expected, "\(status): \(byHex[hex, default: 0]) paths filled \(hex), expected \(expected)")
        }
        #expect(!counter.elements.contains("image"), "stays vector")
    }

    @Test func titleCannotInjectMarkup() throws {
        var map = Fixture.statusRow
        map.title = #"<script>alert(1)</script> & "x""#
        var style = Style.default
        style.attributionExtra = "</svg><script>alert(2)</script>"
        let r = try MapRenderer(style: style).render(map, viewport: .dataExtent(padding: 30),
                                                      canvas: .pixels(width: 600, height: 300), format: .svg)
        let counter = try parse(r.data)
        #expect(!counter.elements.contains("script"))
        let text = String(decoding: r.data, as: UTF8.self)
        #expect(!text.contains("<script"))
        // The title is real, escaped text, not glyph outlines.
        #expect(text.contains(">&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;</text>"))
        #expect(counter.elements.contains("text"))
    }

    @Test func svgTextIsRealText() throws {
        var map = Fixture.statusRow
        map.title = "Hollis, week 3"
        let r = try MapRenderer(style: .default).render(map, viewport: .dataExtent(padding: 30),
                                                         canvas: .pixels(width: 600, height: 300), format: .svg)
        let text = String(decoding: r.data, as: UTF8.self)
        #expect(text.contains(">Hollis, week 3</text>"))
        #expect(text.contains("OpenStreetMap contributors, Overture Maps Foundation</text>"))
        #expect(!text.contains("<symbol"), "no glyph outlines")
    }
}

@Suite struct StyleTests {
    @Test func defaultFileMatchesBuiltIn() throws {
        #expect(try Fixture.style("default") == Style.default)
    }

    @Test func printStyleHatchesAndHidesOrphans() throws {
        let s = try Fixture.style("print")
        #expect(s.statusPaint[.hot]?.hatch == .diagonal)
        #expect(s.statusPaint[.scanned]?.hatch == .crosshatch)
        #expect(!s.showOrphans)
    }

    @Test func unknownKeyNamesFileAndKey() {
        let e = #expect(throws: StyleError.self) {
            try Style.parse(Data(##"{"legend": {"visible": true, "colour": "#fff"}}"##.utf8), file: "styles/mine.json")
        }
        #expect(e?.file == "styles/mine.json")
        #expect(e?.key == "legend.colour")
        #expect(e?.description.contains("styles/mine.json") == true && e?.description.contains("legend.colour") == true)
    }

    @Test(arguments: ["#12345", "red", "#gggggg", "12"])
    func badColorNamesFileAndKey(_ color: String) {
        let json = #"{"buildings": {"status": {"hot": {"fill": "\#(color)"}}}}"#
        let e = #expect(throws: StyleError.self) { try Style.parse(Data(json.utf8), file: "bad.json") }
        #expect(e?.key == "buildings.status.hot.fill")
        #expect(e?.description.contains("bad.json") == true)
    }

    @Test func colorForms() {
        #expect(RGBA(hex: "#fff") == RGBA(1, 1, 1))
        #expect(RGBA(hex: "#ffffff80")?.a == 128.0 / 255)
        #expect(RGBA(hex: "#3b82f6")?.hex == "#3b82f6")
    }

    @Test func partialStyleKeepsDefaults() throws {
        let s = try Style.parse(Data(#"{"roads": {"widths": {"primary": 12}}}"#.utf8), file: "p.json")
        #expect(s.roadWidth("primary") == 12)
        #expect(s.roadWidth("residential") == 5)
        #expect(s.roadWidth("bogus") == 3)
    }
}

@Suite struct SourceTests {
    @Test func featuresGeoJSONInWebMapFormat() throws {
        let json = """
        {"type":"FeatureCollection","features":[
         {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]},
          "properties":{"gers_id":"a","status":"hot","scans_total":3,"qr_scanned":false,"feature_status":"linked","address_text":"94-29 Vanderveer Street"}},
         {"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]]]},
          "properties":{"gers_id":"b","status":null,"scans_total":null}}]}
        """
        let map = try FeaturesGeoJSONSource.parse(Data(json.utf8), file: "f.geojson")
        #expect(map.buildings.count == 2)
        #expect(map.buildings[0].label == "94-29" && map.buildings[0].scansTotal == 3 && !map.buildings[0].isOrphan)
        #expect(StatusColor.status(of: map.buildings[0]) == .scanned)
        #expect(map.buildings[1].isOrphan && StatusColor.status(of: map.buildings[1]) == .orphan)
    }

    @Test func wrongGeometryNamesFeature() {
        let json = #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"gers_id":"p"}}]}"#
        let e = #expect(throws: InputError.self) { try FeaturesGeoJSONSource.parse(Data(json.utf8), file: "f.geojson") }
        #expect(e?.kind == .wrongGeometryType && e?.featureID == "p")
    }

    @Test func statusCSV() throws {
        let t = try StatusTable.parse("gers_id,status,scans_total\na,hot,\nb,,2\r\n", file: "s.csv")
        #expect(t.entries["a"] == .init(status: "hot", scansTotal: 0))
        #expect(t.entries["b"] == .init(status: nil, scansTotal: 2))
        #expect(throws: InputError.self) { try StatusTable.parse("gers_id,status,scans_total\na,hot,x\n", file: "s.csv") }
    }
}
