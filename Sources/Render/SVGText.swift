import Foundation

/// Text for an SVG map, written as real `<text>` elements (selectable, searchable, escaped)
/// instead of Cairo's glyph outlines. The painter records each piece in SVG user units; the
/// elements go at the end of the document, above the drawing, in the order drawn.
final class SVGText {
    struct Item {
        var text: String
        var x: Double, y: Double, size: Double
        var bold: Bool
        var fill: RGBA
        var halo: RGBA?
        var haloWidth: Double
    }
    let family: String
    private(set) var items: [Item] = []
    /// The font the painter selected last (text is drawn in it).
    var bold = false, size = 12.0

    init(family: String) { self.family = family }

    func add(_ item: Item) { items.append(item) }

    /// The document with the text elements before its closing `</svg>`.
    func inject(into svg: Data) -> Data {
        guard !items.isEmpty, let end = svg.range(of: Data("</svg>".utf8), options: .backwards) else { return svg }
        var out = Data(svg[svg.startIndex..<end.lowerBound])
        out.append(Data(elements.utf8))
        out.append(svg[end.lowerBound...])
        return out
    }

    var elements: String {
        var s = "<g font-family=\"\(SVGText.escape(family))\" text-rendering=\"geometricPrecision\">\n"
        for t in items {
            s += "<text x=\"\(SVGText.number(t.x))\" y=\"\(SVGText.number(t.y))\" font-size=\"\(SVGText.number(t.size))\""
            if t.bold { s += " font-weight=\"bold\"" }
            s += " fill=\"\(SVGText.color(t.fill))\""
            if t.fill.a < 1 { s += " fill-opacity=\"\(SVGText.number(t.fill.a))\"" }
            if let h = t.halo, t.haloWidth > 0 {
                s += " stroke=\"\(SVGText.color(h))\" stroke-width=\"\(SVGText.number(t.haloWidth))\" stroke-linejoin=\"round\" paint-order=\"stroke\""
                if h.a < 1 { s += " stroke-opacity=\"\(SVGText.number(h.a))\"" }
            }
            s += ">\(SVGText.escape(t.text))</text>\n"
        }
        return s + "</g>\n"
    }

    /// XML text and attribute escaping: no name or label can become markup.
    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case _ where ch.value < 0x20 && ch != "\t" && ch != "\n": continue  // not allowed in XML 1.0
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    static func number(_ v: Double) -> String { String(format: "%.2f", v) }
    static func color(_ c: RGBA) -> String {
        func byte(_ v: Double) -> Int { Int((min(1, max(0, v)) * 255).rounded()) }
        return "rgb(\(byte(c.r)),\(byte(c.g)),\(byte(c.b)))"
    }
}
