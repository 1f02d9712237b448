import CCairo
import Foundation
import Geo

/// A label the renderer placed, with the boxes it reserved (pixels, padding included).
public struct PlacedLabel: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case houseNumber, street }
    public var kind: Kind
    public var text: String
    /// One box for a house number; for a street name, the bounding boxes of the pieces of its
    /// oriented box, cut every text height along the baseline (together they cover it).
    public var boxes: [PixelRect]
}

/// Where a street name sits: its centre and its reading angle, on a straight enough stretch.
struct StreetLabelSpot: Equatable {
    /// Pixels.
    var centre: Coord
    /// Radians from the +x axis (y down), in (-π/2, π/2]: text never reads upside down.
    var angle: Double
    /// Largest distance of the line from the label's chord along the stretch, pixels.
    var deviation: Double
}

enum StreetLabelGeometry {
    /// Overture classes, most important first; a class not listed ranks after them all.
    static let classRank = ["motorway", "trunk", "primary", "secondary", "tertiary", "residential",
                            "unclassified", "living_street", "pedestrian", "service", "track"]

    static func rank(_ roadClass: String?) -> Int {
        roadClass.flatMap { classRank.firstIndex(of: $0) } ?? classRank.count
    }

    /// Spots along `line` (pixels) for a label `length` pixels long, one window every `step`
    /// pixels of arc, where the line strays at most `tolerance` pixels from the window's chord
    /// and the chord is at least 98 % of the arc; the straightest first, then nearest the
    /// middle. Empty when the line is shorter than the label (a short street goes unnamed).
    static func spots(_ line: [Coord], length: Double, step: Double, tolerance: Double) -> [StreetLabelSpot] {
        guard line.count >= 2, length > 0 else { return [] }
        var arc = [0.0]
        for i in 1..<line.count { arc.append(arc[i - 1] + hypot(line[i].x - line[i - 1].x, line[i].y - line[i - 1].y)) }
        let total = arc[arc.count - 1]
        guard total >= length else { return [] }
        func point(at d: Double) -> Coord {
            var i = 1
            while i < arc.count - 1, arc[i] < d { i += 1 }
            let span = arc[i] - arc[i - 1]
            let t = span > 0 ? (d - arc[i - 1]) / span : 0
            return Coord(line[i - 1].x + t * (line[i].x - line[i - 1].x), line[i - 1].y + t * (line[i].y - line[i - 1].y))
        }
        let slack = total - length
        let count = Int((slack / max(step, 1)).rounded(.down)) + 1
        let first = (slack - Double(count - 1) * step) / 2
        var out: [(spot: StreetLabelSpot, offMiddle: Double)] = []
        for k in 0..<count {
            let a = first + Double(k) * step, b = a + length
            let p = point(at: a), q = point(at: b)
            let chord = hypot(q.x - p.x, q.y - p.y)
            guard chord >= 0.98 * length else { continue }
            var deviation = 0.0
            for i in arc.indices where arc[i] > a && arc[i] < b {
                let cross = (q.x - p.x) * (line[i].y - p.y) - (q.y - p.y) * (line[i].x - p.x)
                deviation = max(deviation, abs(cross) / chord)
            }
            guard deviation <= tolerance else { continue }
            var angle = atan2(q.y - p.y, q.x - p.x)
            if angle > Double.pi / 2 { angle -= Double.pi } else if angle <= -Double.pi / 2 { angle += Double.pi }
            out.append((StreetLabelSpot(centre: Coord((p.x + q.x) / 2, (p.y + q.y) / 2), angle: angle, deviation: deviation),
                        abs((a + b) / 2 - total / 2)))
        }
        // Deviation compared at half-pixel steps, so near-straight windows prefer the middle.
        return out.sorted {
            let da = ($0.spot.deviation * 2).rounded(), db = ($1.spot.deviation * 2).rounded()
            return da != db ? da < db : $0.offMiddle < $1.offMiddle
        }.map(\.spot)
    }

    /// Bounding boxes of a `width` × `height` box centred on `spot` and turned to its angle,
    /// cut into pieces about `height` long, each grown by `pad`.
    static func boxes(_ spot: StreetLabelSpot, width: Double, height: Double, pad: Double) -> [PixelRect] {
        let n = max(1, Int((width / max(height, 1)).rounded(.up)))
        let piece = width / Double(n)
        let c = cos(spot.angle), s = sin(spot.angle)
        let ex = piece / 2 * abs(c) + height / 2 * abs(s) + pad, ey = piece / 2 * abs(s) + height / 2 * abs(c) + pad
        return (0..<n).map { k in
            let along = -width / 2 + (Double(k) + 0.5) * piece
            let x = spot.centre.x + along * c, y = spot.centre.y + along * s
            return PixelRect(x: x - ex, y: y - ey, width: 2 * ex, height: 2 * ey)
        }
    }
}

extension Painter {
    /// Street names along their roads, main classes first (then longer roads): on the
    /// straightest stretch long enough for the name, reading left to right, again every
    /// `streetLabelSpacing` pixels along one name, where no piece of the label meets a label,
    /// a house number or a panel placed before it. A name that fits nowhere is left out.
    mutating func drawStreetLabels(map: MapData, layout: Layout) throws {
        let text = try streetText()
        let size = style.streetLabelSize * s, pad = style.labelPadding * s, spacing = style.streetLabelSpacing * s
        let canvas = PixelRect(x: 0, y: 0, width: Double(view.width), height: Double(view.height))
        var measured: [String: (width: Double, height: Double)] = [:]
        var placedAt: [String: [Coord]] = [:]
        let order = layout.roads.indices.filter { map.roads[layout.roads[$0].index].name?.isEmpty == false }.sorted { a, b in
            let ra = StreetLabelGeometry.rank(map.roads[layout.roads[a].index].roadClass)
            let rb = StreetLabelGeometry.rank(map.roads[layout.roads[b].index].roadClass)
            return ra != rb ? ra < rb : layout.roads[a].index < layout.roads[b].index
        }
        for k in order {
            let road = layout.roads[k]
            guard let name = map.roads[road.index].name else { continue }
            let extent: (width: Double, height: Double)
            if let m = measured[name] { extent = m } else {
                extent = text.line(name, family: style.font, size: size)
                measured[name] = extent
            }
            let line = Array(layout.points[road.points])
            let spots = StreetLabelGeometry.spots(line, length: extent.width + 2 * pad, step: max(extent.width, 24 * s),
                                                  tolerance: extent.height / 4)
            for spot in spots {
                if placedAt[name, default: []].contains(where: { hypot($0.x - spot.centre.x, $0.y - spot.centre.y) < spacing }) { continue }
                let boxes = StreetLabelGeometry.boxes(spot, width: extent.width, height: extent.height, pad: pad)
                guard boxes.allSatisfy({ $0.x >= canvas.x && $0.y >= canvas.y && $0.x + $0.width <= canvas.width
                                         && $0.y + $0.height <= canvas.height && placer.isFree($0) }) else { continue }
                for b in boxes { placer.reserve(b) }
                placedAt[name, default: []].append(spot.centre)
                placedLabels.append(PlacedLabel(kind: .street, text: name, boxes: boxes))
                drawStreetLabel(text, name: name, spot: spot, extent: extent)
            }
        }
    }

    private func drawStreetLabel(_ text: TextLayout, name: String, spot: StreetLabelSpot, extent: (width: Double, height: Double)) {
        _ = text.line(name, family: style.font, size: style.streetLabelSize * s)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, spot.centre.x, spot.centre.y)
        cairo_rotate(cr, spot.angle)
        if style.labelHaloWidth > 0 {
            cairo_move_to(cr, -extent.width / 2, -extent.height / 2)
            text.appendPath()
            ctx.setColor(style.labelHalo)
            cairo_set_line_width(cr, style.labelHaloWidth * s)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        }
        cairo_move_to(cr, -extent.width / 2, -extent.height / 2)
        ctx.setColor(style.streetLabelColor)
        text.showHere()
        cairo_new_path(cr)
    }
}
