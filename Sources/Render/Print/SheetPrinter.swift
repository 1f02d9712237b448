import CCairo
import Foundation
import Geo

/// What one address prints: its address block, the URL its code holds and, for a flyer's
/// map, its building's footprint and its own location (degrees).
public struct PrintItem: Sendable {
    public var lines: [String]
    public var url: String
    public var footprint: [PolygonCoords]
    public var location: Coord?

    public init(lines: [String], url: String, footprint: [PolygonCoords] = [], location: Coord? = nil) {
        self.lines = lines; self.url = url; self.footprint = footprint; self.location = location
    }
}

/// A PDF written to a file page by page: its surface, context and text layout.
final class PDFPages {
    let context: CairoContext
    let text: TextLayout

    init(path: String, width: Double, height: Double, title: String) throws(RenderError) {
        context = try CairoContext(CairoSurface.pdf(path: path, width: width, height: height, title: title))
        text = try TextLayout(context)
    }

    var cr: OpaquePointer { context.cr }

    func nextPage() { cairo_show_page(context.cr) }

    /// Ends the last page and completes the file.
    func finish() throws(RenderError) {
        try context.check("draw page")
        try context.surface.finish()
    }
}

/// Address labels with their QR codes on sheets of die-cut labels, one PDF page a sheet, at
/// true size. Each label keeps a crop-safe padding of 1/16 inch inside its cell: the code at
/// its left, the address block beside it, shrunk until it fits.
public final class LabelPrinter {
    public let sheet: LabelSheet
    private let style: QRStyle
    private let pages: PDFPages
    public private(set) var count = 0
    /// The padding inside each label, in points.
    public static let padding = 4.5

    public init(path: String, sheet: LabelSheet, style: QRStyle, title: String) throws(RenderError) {
        self.sheet = sheet
        self.style = style
        pages = try PDFPages(path: path, width: sheet.pageWidth, height: sheet.pageHeight, title: title)
    }

    /// Draws the next label, starting a new sheet when the last one is full.
    public func add(_ item: PrintItem) throws {
        if count > 0 && count % sheet.perPage == 0 { pages.nextPage() }
        let c = sheet.cell(count)
        let pad = Self.padding
        let side = min(c.height - 2 * pad, c.width * 0.45)
        let code = try QRCode(item.url, ecc: style.ecc)
        QRDrawing.draw(code, cr: pages.cr, x: c.x + pad, y: c.y + (c.height - side) / 2, side: side, quietZone: style.quietZone)
        let textX = c.x + 2 * pad + side, textHeight = c.height - 2 * pad
        let h = pages.text.fit(item.lines.joined(separator: "\n"), size: 10, minimumSize: 5,
                               width: c.x + c.width - pad - textX, height: textHeight)
        pages.text.show(x: textX, y: c.y + (c.height - min(h, textHeight)) / 2)
        count += 1
    }

    public func finish() throws(RenderError) { try pages.finish() }
}

/// One flyer a page from a template: headline, address block, QR code and a small map of the house.
public final class FlyerPrinter {
    public let template: FlyerTemplate
    private let style: QRStyle
    private let pages: PDFPages
    public private(set) var count = 0

    public init(path: String, template: FlyerTemplate, style: QRStyle, title: String) throws(RenderError) {
        self.template = template
        self.style = style
        let (w, h) = template.pageSize
        pages = try PDFPages(path: path, width: w * pointsPerMillimetre, height: h * pointsPerMillimetre, title: title)
    }

    public func add(_ item: PrintItem) throws {
        if count > 0 { pages.nextPage() }
        let mm = pointsPerMillimetre
        if let headline = template.headline, let text = headline.text {
            pages.text.fit(text, size: headline.font_size_pt ?? 18, minimumSize: 6, width: headline.width_mm * mm,
                           height: headline.height_mm * mm, bold: true)
            pages.text.show(x: headline.x_mm * mm, y: headline.y_mm * mm)
        }
        let a = template.address
        pages.text.fit(item.lines.joined(separator: "\n"), size: a.font_size_pt ?? 12, minimumSize: 5,
                       width: a.width_mm * mm, height: a.height_mm * mm)
        pages.text.show(x: a.x_mm * mm, y: a.y_mm * mm)
        let code = try QRCode(item.url, ecc: style.ecc)
        QRDrawing.draw(code, cr: pages.cr, x: template.qr.x_mm * mm, y: template.qr.y_mm * mm, side: template.qr.size_mm * mm,
                       quietZone: style.quietZone)
        if let map = template.map {
            HouseMap.draw(item, cr: pages.cr, x: map.x_mm * mm, y: map.y_mm * mm, width: map.width_mm * mm, height: map.height_mm * mm)
        }
        count += 1
    }

    public func finish() throws(RenderError) { try pages.finish() }
}

/// A small map of one house: its footprint in grey and the address as a red dot, at least
/// 40 m across, north up, in a framed box.
enum HouseMap {
    static func draw(_ item: PrintItem, cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        MapFrame.draw(cr: cr, x: x, y: y, width: width, height: height)
        let points = item.footprint.flatMap { $0.rings.flatMap { $0 } } + (item.location.map { [$0] } ?? [])
        guard let first = points.first else { return }
        // Local metres around the first point (equirectangular: exact enough across a house).
        let kx = 111_320 * cos(first.y * .pi / 180), ky = 110_540.0
        var minX = 0.0, maxX = 0.0, minY = 0.0, maxY = 0.0
        for p in points {
            let (px, py) = ((p.x - first.x) * kx, (p.y - first.y) * ky)
            minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py)
        }
        let span = max(40, 1.5 * max(maxX - minX, maxY - minY))
        let scale = min(width, height) / span
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        func move(_ p: Coord) -> (Double, Double) {
            (x + width / 2 + ((p.x - first.x) * kx - cx) * scale, y + height / 2 - ((p.y - first.y) * ky - cy) * scale)
        }
        for polygon in item.footprint {
            for ring in polygon.rings {
                for (i, p) in ring.enumerated() {
                    let (px, py) = move(p)
                    if i == 0 { cairo_move_to(cr, px, py) } else { cairo_line_to(cr, px, py) }
                }
                cairo_close_path(cr)
            }
        }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_set_source_rgb(cr, 0.7, 0.7, 0.7)
        cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2)
        cairo_stroke(cr)
        if let location = item.location {
            let (px, py) = move(location)
            cairo_arc(cr, px, py, 1.5 * pointsPerMillimetre, 0, 2 * .pi)
            cairo_set_source_rgb(cr, 0.85, 0.1, 0.1)
            cairo_fill(cr)
        }
    }
}

/// A small map's box: a pale fill and a thin grey frame, then clipped to it (the caller saves
/// and restores the context around).
enum MapFrame {
    static func draw(cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        cairo_rectangle(cr, x, y, width, height)
        cairo_set_source_rgb(cr, 0.95, 0.95, 0.93)
        cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, 0.4, 0.4, 0.4)
        cairo_set_line_width(cr, 0.5)
        cairo_stroke_preserve(cr)
        cairo_clip(cr)
    }
}
