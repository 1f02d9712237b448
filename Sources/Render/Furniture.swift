import CCairo
import Foundation

/// Title, legend, scale bar, north arrow and attribution: laid out first (so labels keep
/// clear of them), drawn last.
struct Furniture {
    var reserved: [PixelRect] = []
    private let title: String?
    private let attribution: String
    private let legendRows: [(status: MapStatus, paint: StatusPaint, text: String)]
    private let scale: (pixels: Double, text: String)
    private var titleBox: PixelRect?
    private var legendBox: PixelRect?
    private var attributionBox: PixelRect
    private var scaleBox: PixelRect
    private var arrowBox: PixelRect
    private let margin: Double, pad: Double

    init(painter p: Painter, map: MapData, counts: [MapStatus: Int]) {
        let s = p.s, style = p.style, w = Double(p.view.width), h = Double(p.view.height)
        margin = 12 * s; pad = 8 * s
        title = map.title.flatMap { $0.isEmpty ? nil : $0 }
        attribution = style.attributionExtra.isEmpty ? map.attribution : map.attribution + " · " + style.attributionExtra

        if let title {
            p.selectFont(bold: true, size: style.titleSize * s)
            let tw = p.advance(title)
            titleBox = PixelRect(x: margin, y: margin, width: tw + 2 * pad, height: style.titleSize * s * 1.3 + 2 * pad)
        }
        arrowBox = PixelRect(x: w - margin - 28 * s, y: margin, width: 28 * s, height: 44 * s)

        p.selectFont(bold: false, size: style.attributionSize * s)
        let aw = p.advance(attribution)
        let ah = style.attributionSize * s * 1.3 + pad
        attributionBox = PixelRect(x: w - aw - pad - margin / 2, y: h - ah - margin / 2, width: aw + pad, height: ah)

        scale = Furniture.scaleBar(groundMetresPerPixel: p.view.groundMetresPerPixel, targetPixels: 120 * s)
        p.selectFont(bold: false, size: style.legendSize * s)
        let sw = max(scale.pixels, p.advance(scale.text))
        scaleBox = PixelRect(x: w - margin - sw - 2 * pad, y: attributionBox.y - margin / 2 - (style.legendSize * s * 1.4 + 10 * s + 2 * pad),
                             width: sw + 2 * pad, height: style.legendSize * s * 1.4 + 10 * s + 2 * pad)

        var rows: [(MapStatus, StatusPaint, String)] = []
        if style.legendVisible {
            for status in MapStatus.allCases {
                guard let paint = StatusColor.paint(for: status, style: style) else { continue }
                rows.append((status, paint, "\(status.title)  \(Furniture.grouped(counts[status] ?? 0))"))
            }
            let rowH = style.legendSize * s * 1.6
            let textW = rows.map { p.advance($0.2) }.max() ?? 0
            let lw = rowH + 6 * s + textW + 2 * pad
            let lh = Double(rows.count) * rowH + 2 * pad
            legendBox = PixelRect(x: margin, y: h - margin - lh, width: lw, height: lh)
        }
        legendRows = rows.map { (status: $0.0, paint: $0.1, text: $0.2) }
        reserved = [titleBox, legendBox, attributionBox, scaleBox, arrowBox].compactMap { $0 }
    }

    /// A round length (1, 2 or 5 × 10^k metres) no longer than `targetPixels` on the canvas.
    static func scaleBar(groundMetresPerPixel gmpp: Double, targetPixels: Double) -> (pixels: Double, text: String) {
        let target = targetPixels * gmpp
        guard target.isFinite, target > 0 else { return (0, "") }
        let magnitude = pow(10, floor(log10(target)))
        let step = [5.0, 2, 1].first { $0 * magnitude <= target } ?? 1
        let metres = step * magnitude
        let text = metres >= 1000 ? "\(Furniture.trim(metres / 1000)) km" : "\(Furniture.trim(metres)) m"
        return (metres / gmpp, text)
    }

    static func trim(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%g", v)
    }

    /// 12345 → "12,345".
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }

    func draw(_ p: inout Painter) throws {
        let cr = p.cr, s = p.s, style = p.style
        func panel(_ r: PixelRect) {
            cairo_rectangle(cr, r.x, r.y, r.width, r.height)
            p.ctx.setColor(style.panelColor)
            cairo_fill_preserve(cr)
            p.ctx.setColor(style.textColor.withAlpha(0.25))
            cairo_set_line_width(cr, max(1, s * 0.75))
            cairo_stroke(cr)
        }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)

        if let title, let box = titleBox {
            panel(box)
            p.selectFont(bold: true, size: style.titleSize * s)
            p.drawText(title, x: box.x + pad, baseline: box.y + pad + style.titleSize * s, color: style.textColor)
        }

        if let box = legendBox {
            panel(box)
            p.selectFont(bold: false, size: style.legendSize * s)
            let rowH = style.legendSize * s * 1.6
            for (i, row) in legendRows.enumerated() {
                let y = box.y + pad + Double(i) * rowH
                let sw = rowH * 0.75
                cairo_rectangle(cr, box.x + pad, y + (rowH - sw) / 2, sw, sw)
                try p.setPaint(row.paint)
                cairo_fill_preserve(cr)
                p.ctx.setColor(style.buildingStroke)
                cairo_set_line_width(cr, max(style.buildingStrokeWidth * s, 0.5))
                cairo_stroke(cr)
                p.drawText(row.text, x: box.x + pad + rowH + 6 * s, baseline: y + rowH * 0.7, color: style.textColor)
            }
        }

        // Scale bar: four alternating segments, the length written above.
        panel(scaleBox)
        p.selectFont(bold: false, size: style.legendSize * s)
        let barH = 6 * s
        let x0 = scaleBox.x + pad, y0 = scaleBox.y + scaleBox.height - pad - barH
        for i in 0..<4 {
            cairo_rectangle(cr, x0 + scale.pixels * Double(i) / 4, y0, scale.pixels / 4, barH)
            p.ctx.setColor(i % 2 == 0 ? style.textColor : RGBA(1, 1, 1))
            cairo_fill(cr)
        }
        cairo_rectangle(cr, x0, y0, scale.pixels, barH)
        p.ctx.setColor(style.textColor)
        cairo_set_line_width(cr, max(1, s * 0.75))
        cairo_stroke(cr)
        p.drawText(scale.text, x: x0, baseline: y0 - 4 * s, color: style.textColor)

        // North arrow: Web Mercator keeps north straight up.
        let a = arrowBox
        let cx = a.x + a.width / 2
        p.selectFont(bold: true, size: 12 * s)
        let nw = p.advance("N")
        p.drawText("N", x: cx - nw / 2, baseline: a.y + 12 * s, color: style.textColor,
                   halo: style.panelColor, haloWidth: 3 * s)
        cairo_move_to(cr, cx, a.y + 15 * s)
        cairo_line_to(cr, cx + a.width * 0.35, a.y + a.height)
        cairo_line_to(cr, cx, a.y + a.height - 8 * s)
        cairo_line_to(cr, cx - a.width * 0.35, a.y + a.height)
        cairo_close_path(cr)
        p.ctx.setColor(style.textColor)
        cairo_fill_preserve(cr)
        p.ctx.setColor(style.panelColor)
        cairo_set_line_width(cr, 1.5 * s)
        cairo_stroke(cr)

        panel(attributionBox)
        p.selectFont(bold: false, size: style.attributionSize * s)
        p.drawText(attribution, x: attributionBox.x + pad / 2, baseline: attributionBox.y + pad / 2 + style.attributionSize * s,
                   color: style.textColor)
    }
}

extension RGBA {
    func withAlpha(_ a: Double) -> RGBA { RGBA(r, g, b, a) }
}
