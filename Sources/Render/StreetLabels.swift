import CCairo
import Foundation
import Geo

/// A label the renderer placed, with the boxes it reserved (pixels, padding included).
public struct PlacedLabel: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case houseNumber, street }
    public var kind: Kind
    public var text: String
    /// One box for a house number; for a street name, the bounding boxes of the pieces of its
    /// oriented box, cut every text height along the baseline (together they cover it); for a
    /// name bent along a curved road, one per cluster.
    public var boxes: [PixelRect]
    /// The reading direction, radians from the +x axis (y down), in (-π/2, π/2] for a street
    /// name (never upside down); 0 for a house number.
    public var angle: Double = 0
    /// For a name bent along a curved road, each cluster's direction (radians, as `angle`),
    /// left to right; empty for a name set straight and for a house number.
    public var clusterAngles: [Double] = []
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
        let path = ArcPath(line)
        let total = path.total
        guard total >= length else { return [] }
        let slack = total - length
        let count = Int((slack / max(step, 1)).rounded(.down)) + 1
        let first = (slack - Double(count - 1) * step) / 2
        var out: [(spot: StreetLabelSpot, offMiddle: Double)] = []
        for k in 0..<count {
            let a = first + Double(k) * step, b = a + length
            let p = path.point(at: a), q = path.point(at: b)
            let chord = hypot(q.x - p.x, q.y - p.y)
            guard chord >= 0.98 * length else { continue }
            let deviation = path.deviation(from: a, to: b)
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

/// A road to name, in the canvas's units (pixels, or points on a page).
struct StreetLine {
    var line: [Coord]
    var name: String
    var roadClass: String?
}

/// The street-name rules on one canvas: sizes in the canvas's units, and the font.
struct StreetLabeler {
    var font: String
    /// Text size, padding round each box, distance between two labels of one name, and the
    /// least step between the windows tried along a road.
    var size: Double, pad: Double, spacing: Double, step: Double
    var canvas: PixelRect
    var fill: RGBA, halo: RGBA, haloWidth: Double

    /// Names the roads (main classes first, then in the given order) on the straightest
    /// stretch long enough for the name, reading left to right, again every `spacing` along
    /// one name, where no piece of the label meets a box in `placer` or leaves the canvas; a
    /// name that fits nowhere is left out. Reserves and draws each label; returns them.
    func place(_ roads: [StreetLine], text: TextLayout, cr: OpaquePointer, placer: inout LabelPlacer) -> [PlacedLabel] {
        var measured: [String: (width: Double, height: Double)] = [:]
        var placedAt: [String: [Coord]] = [:]
        var out: [PlacedLabel] = []
        let order = roads.indices.filter { !roads[$0].name.isEmpty }.sorted { a, b in
            let ra = StreetLabelGeometry.rank(roads[a].roadClass), rb = StreetLabelGeometry.rank(roads[b].roadClass)
            return ra != rb ? ra < rb : a < b
        }
        var shaped: [String: GlyphClusters] = [:]
        for k in order {
            let name = roads[k].name
            let extent: (width: Double, height: Double)
            if let m = measured[name] { extent = m } else {
                extent = text.line(name, family: font, size: size)
                measured[name] = extent
            }
            let spots = StreetLabelGeometry.spots(roads[k].line, length: extent.width + 2 * pad, step: max(extent.width, step),
                                                  tolerance: extent.height / 4)
            for spot in spots {
                if tooClose(placedAt[name], spot.centre) { continue }
                let boxes = StreetLabelGeometry.boxes(spot, width: extent.width, height: extent.height, pad: pad)
                guard fits(boxes, placer) else { continue }
                for b in boxes { placer.reserve(b) }
                placedAt[name, default: []].append(spot.centre)
                out.append(PlacedLabel(kind: .street, text: name, boxes: boxes, angle: spot.angle))
                draw(text, cr: cr, name: name, spot: spot, extent: extent)
            }
            // Bent along the road's curves, also between its straight labels, `spacing` apart.
            guard roads[k].line.count > 2 else { continue }
            let glyphs: GlyphClusters
            if let g = shaped[name] { glyphs = g } else {
                glyphs = text.clusters(name, family: font, size: size)
                shaped[name] = glyphs
            }
            for spot in CurvedLabelGeometry.spots(roads[k].line, clusters: glyphs.clusters, pad: pad, step: step,
                                                  tolerance: extent.height / 4) {
                if tooClose(placedAt[name], spot.centre) { continue }
                let boxes = CurvedLabelGeometry.boxes(spot, height: glyphs.height, pad: pad)
                guard fits(boxes, placer) else { continue }
                for b in boxes { placer.reserve(b) }
                placedAt[name, default: []].append(spot.centre)
                let visual = glyphs.clusters.indices.sorted { glyphs.clusters[$0].x < glyphs.clusters[$1].x }
                out.append(PlacedLabel(kind: .street, text: name, boxes: boxes, angle: spot.angle,
                                       clusterAngles: visual.map { spot.clusters[$0].angle }))
                draw(glyphs, cr: cr, spot: spot)
            }
        }
        return out
    }

    /// True when a label of this name already sits within `spacing` of `centre`.
    private func tooClose(_ placed: [Coord]?, _ centre: Coord) -> Bool {
        (placed ?? []).contains { hypot($0.x - centre.x, $0.y - centre.y) < spacing }
    }

    /// True when every box lies on the canvas and meets nothing placed.
    private func fits(_ boxes: [PixelRect], _ placer: LabelPlacer) -> Bool {
        boxes.allSatisfy { $0.x >= canvas.x && $0.y >= canvas.y && $0.x + $0.width <= canvas.x + canvas.width
                           && $0.y + $0.height <= canvas.y + canvas.height && placer.isFree($0) }
    }

    /// A name bent along its road: every cluster turned to its spot, the halos stroked first,
    /// then the glyphs filled in reading order (a PDF's text then reads in order).
    private func draw(_ glyphs: GlyphClusters, cr: OpaquePointer, spot: CurvedSpot) {
        func each(_ body: (Int) -> Void) {
            for (k, c) in spot.clusters.enumerated() {
                cairo_save(cr)
                cairo_translate(cr, c.origin.x, c.origin.y)
                cairo_rotate(cr, c.angle)
                cairo_move_to(cr, 0, glyphs.baseline - glyphs.height / 2)
                body(k)
                cairo_restore(cr)
            }
        }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_new_path(cr)
        if haloWidth > 0 {
            each { glyphs.appendPath($0, cr: cr) }
            cairo_set_source_rgba(cr, halo.r, halo.g, halo.b, halo.a)
            cairo_set_line_width(cr, haloWidth)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        }
        cairo_set_source_rgba(cr, fill.r, fill.g, fill.b, fill.a)
        each { glyphs.show($0, cr: cr) }
        cairo_new_path(cr)
    }

    /// One name turned to its spot: the halo stroked under the fill.
    private func draw(_ text: TextLayout, cr: OpaquePointer, name: String, spot: StreetLabelSpot, extent: (width: Double, height: Double)) {
        _ = text.line(name, family: font, size: size)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, spot.centre.x, spot.centre.y)
        cairo_rotate(cr, spot.angle)
        if haloWidth > 0 {
            cairo_move_to(cr, -extent.width / 2, -extent.height / 2)
            text.appendPath()
            cairo_set_source_rgba(cr, halo.r, halo.g, halo.b, halo.a)
            cairo_set_line_width(cr, haloWidth)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        }
        cairo_move_to(cr, -extent.width / 2, -extent.height / 2)
        cairo_set_source_rgba(cr, fill.r, fill.g, fill.b, fill.a)
        text.showHere()
        cairo_new_path(cr)
    }
}

extension Painter {
    /// The campaign's street names over the map (see `StreetLabeler.place`), after the house
    /// numbers and panels already in the placer.
    mutating func drawStreetLabels(map: MapData, layout: Layout) throws {
        let text = try streetText()
        let labeler = StreetLabeler(font: style.font, size: style.streetLabelSize * s, pad: style.labelPadding * s,
                                    spacing: style.streetLabelSpacing * s, step: 24 * s,
                                    canvas: PixelRect(x: 0, y: 0, width: Double(view.width), height: Double(view.height)),
                                    fill: style.streetLabelColor, halo: style.labelHalo, haloWidth: style.labelHaloWidth * s)
        let roads = layout.roads.compactMap { road -> StreetLine? in
            guard let name = map.roads[road.index].name else { return nil }
            return StreetLine(line: Array(layout.points[road.points]), name: name, roadClass: map.roads[road.index].roadClass)
        }
        placedLabels += labeler.place(roads, text: text, cr: cr, placer: &placer)
    }
}
