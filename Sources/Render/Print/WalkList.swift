import CCairo
import Foundation
import Geo

/// A door on a walk list.
public struct WalkRow: Sendable {
    public var number: String, street: String, unit: String
    /// Degrees.
    public var location: Coord?
    public var footprint: [PolygonCoords]
    public init(number: String, street: String, unit: String, location: Coord?, footprint: [PolygonCoords]) {
        self.number = number; self.street = street; self.unit = unit; self.location = location; self.footprint = footprint
    }
}

/// Walk lists on US-letter pages: per turf a page with its map (roads, footprints, the route
/// from door to door, a green start) and the doors in walking order (place, house number,
/// street, unit, a tick box, a notes line), continued on further pages as needed.
public final class WalkListPrinter {
    private let pages: PDFPages
    public private(set) var pageCount = 0
    static let width = 612.0, height = 792.0, margin = 36.0, rowHeight = 18.0
    static let mapHeight = 300.0

    public init(path: String, title: String) throws(RenderError) {
        pages = try PDFPages(path: path, width: Self.width, height: Self.height, title: title)
    }

    /// Adds one turf's pages; returns the street names placed on its map.
    @discardableResult
    public func add(turf: Int, routeMetres: Double, rows: [WalkRow], roads: [MapRoad]) -> [PlacedLabel] {
        let m = Self.margin
        newPage()
        header("Turf \(turf) · \(rows.count) doors · walk \(Int(routeMetres.rounded())) m")
        let names = TurfMap.draw(rows: rows, roads: roads, text: pages.text, cr: pages.cr,
                                 frame: PixelRect(x: m, y: m + 24, width: Self.width - 2 * m, height: Self.mapHeight))
        var y = m + 24 + Self.mapHeight + 12
        for (k, r) in rows.enumerated() {
            if y + Self.rowHeight > Self.height - m {
                newPage()
                header("Turf \(turf) (continued)")
                y = m + 24
            }
            row(k + 1, r, y: y)
            y += Self.rowHeight
        }
        return names
    }

    public func finish() throws(RenderError) { try pages.finish() }

    private func newPage() {
        if pageCount > 0 { pages.nextPage() }
        pageCount += 1
    }

    private func header(_ text: String) {
        pages.text.fit(text, size: 14, minimumSize: 8, width: Self.width - 2 * Self.margin, height: 20, bold: true)
        pages.text.show(x: Self.margin, y: Self.margin)
    }

    /// Place, number, street, unit, tick box and notes line, one row.
    private func row(_ place: Int, _ r: WalkRow, y: Double) {
        let m = Self.margin, cr = pages.cr
        for (text, x, w) in [("\(place)", m, 26.0), (r.number, m + 30, 66.0), (r.street, m + 100, 190.0), (r.unit, m + 294, 50.0)]
        where !text.isEmpty {
            pages.text.fit(text, size: 9.5, minimumSize: 6, width: w, height: 13)
            pages.text.show(x: x, y: y + 2)
        }
        cairo_save(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_line_width(cr, 0.6)
        cairo_rectangle(cr, m + 350, y + 3, 10, 10)
        cairo_move_to(cr, m + 370, y + 14)
        cairo_line_to(cr, Self.width - m, y + 14)
        cairo_stroke(cr)
        cairo_restore(cr)
    }
}

/// A turf's map in a framed box, north up: nearby roads with their names, the doors'
/// footprints, the walk as a red line from door to door, a green dot at the first door.
enum TurfMap {
    /// Street names on the map, points: dark grey on the light grey road, without a halo (a
    /// halo is a stroked glyph outline: it took queens-village-ny's walk lists from 2.3 to
    /// 6.5 CPU seconds).
    static let nameSize = 7.0

    /// Draws the map in `frame` (points); returns the street names placed.
    static func draw(rows: [WalkRow], roads: [MapRoad], text: TextLayout, cr: OpaquePointer, frame: PixelRect) -> [PlacedLabel] {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let (x, y, width, height) = (frame.x, frame.y, frame.width, frame.height)
        MapFrame.draw(cr: cr, x: x, y: y, width: width, height: height)
        let spots = rows.compactMap(\.location)
        guard let first = spots.first else { return [] }
        let kx = cos(first.y * .pi / 180)
        var box = BBox.empty
        for p in spots { box.expand(Coord(p.x * kx, p.y)) }
        for r in rows { for p in r.footprint.flatMap({ $0.rings[0] }) { box.expand(Coord(p.x * kx, p.y)) } }
        // At least 60 m each way (degrees of latitude), so one door does not fill the box.
        let least = 60 / 111_195.0
        let scale = 0.9 * min(width / max(box.maxX - box.minX, least), height / max(box.maxY - box.minY, least))
        let cx = (box.minX + box.maxX) / 2, cy = (box.minY + box.maxY) / 2
        func move(_ p: Coord) -> Coord { Coord(x + width / 2 + (p.x * kx - cx) * scale, y + height / 2 - (p.y - cy) * scale) }
        func path(_ line: [Coord]) {
            for (i, p) in line.enumerated() {
                let q = move(p)
                if i == 0 { cairo_move_to(cr, q.x, q.y) } else { cairo_line_to(cr, q.x, q.y) }
            }
        }
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_source_rgb(cr, 0.82, 0.82, 0.8)
        cairo_set_line_width(cr, 5)
        for r in roads { path(r.line) }
        cairo_stroke(cr)
        for r in rows { for p in r.footprint { for ring in p.rings { path(ring); cairo_close_path(cr) } } }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_set_source_rgb(cr, 0.75, 0.75, 0.75)
        cairo_fill(cr)
        // Names keep off the doors and the frame's edge.
        var placer = LabelPlacer(cellSize: 40)
        for p in spots { let q = move(p); placer.reserve(PixelRect(x: q.x - 4, y: q.y - 4, width: 8, height: 8)) }
        let labeler = StreetLabeler(font: "DejaVu Sans", size: nameSize, pad: 1.5, spacing: 150, step: 16, canvas: frame.inset(by: 2),
                                    fill: RGBA(0.2, 0.23, 0.27), halo: RGBA(1, 1, 1), haloWidth: 0)
        let names = labeler.place(roads.map { StreetLine(line: $0.line.map(move), name: $0.name ?? "", roadClass: $0.roadClass) },
                                  text: text, cr: cr, placer: &placer)
        cairo_set_source_rgb(cr, 0.85, 0.1, 0.1)
        cairo_set_line_width(cr, 1.2)
        path(spots)
        cairo_stroke(cr)
        for p in spots {
            let q = move(p)
            cairo_arc(cr, q.x, q.y, 1.6, 0, 2 * .pi)
            cairo_fill(cr)
        }
        let s = move(first)
        cairo_set_source_rgb(cr, 0.1, 0.6, 0.2)
        cairo_arc(cr, s.x, s.y, 4, 0, 2 * .pi)
        cairo_fill(cr)
        return names
    }
}
