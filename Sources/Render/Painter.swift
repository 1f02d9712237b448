import CCairo
import Foundation
import Geo

/// The drawing pass over one Cairo context, in canvas pixels.
struct Painter {
    let ctx: CairoContext
    let style: Style
    let view: MapView
    /// Device pixels per style pixel.
    let s: Double
    var placer = LabelPlacer()
    var labelsPlaced = 0
    /// Every label placed, in placing order, with its collision boxes.
    var placedLabels: [PlacedLabel] = []
    /// Street names are shaped by Pango; made on first use.
    private var streetLayout: TextLayout?
    private var patterns: [StatusPaint: CairoPattern] = [:]
    private var solids: [RGBA: CairoPattern] = [:]
    /// Footprint outlines drawn as fills (`RingOffset`): on raster targets with an opaque stroke.
    private var outlineByFills = false
    private var band = RingOffset(), outerRing: [Coord] = []
    /// Set for SVG output: text is recorded for real `<text>` elements, not drawn as glyphs.
    let svgText: SVGText?
    /// House numbers, title, legend and scale text, shaped by Pango in the style's font.
    let text: MapText?

    init(ctx: CairoContext, style: Style, view: MapView, svgText: SVGText? = nil) {
        self.ctx = ctx; self.style = style; self.view = view; self.s = view.styleScale
        self.svgText = svgText
        text = (try? TextLayout(ctx)).map { MapText($0, family: style.font) }
        placer = LabelPlacer(cellSize: 48 * s)
    }

    var cr: OpaquePointer { ctx.cr }

    mutating func streetText() throws -> TextLayout {
        if let t = streetLayout { return t }
        let t = try TextLayout(ctx)
        streetLayout = t
        return t
    }

    mutating func draw(map: MapData, layout: Layout) throws {
        try drawBase(layout)
        try drawOverlay(map: map, layout: layout)
    }

    /// Background, roads and footprints: the layers drawn band by band on several threads.
    /// With `band` (canvas pixels), only what can touch that band is drawn.
    mutating func drawBase(_ layout: Layout, band: BBox? = nil) throws {
        ctx.setColor(style.background)
        cairo_paint(cr)
        drawRoads(layout, band: band)
        try drawBuildings(layout, band: band)
    }

    /// Labels and map furniture, drawn over the base once it is complete.
    /// With `houseNumbers`, those candidates (in draw order) are labelled instead of the
    /// layout's buildings.
    mutating func drawOverlay(map: MapData, layout: Layout, houseNumbers: [HouseNumberCandidate]? = nil) throws {
        // The state the base leaves behind, set again: the overlay looks the same whether the
        // base was drawn on this context or in bands on others.
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_set_line_width(cr, style.buildingStrokeWidth * s)
        let furniture = Furniture(painter: self, map: map, counts: layout.counts)
        for r in furniture.reserved { placer.reserve(r) }
        if let route = layout.route { drawRoute(route, layout) }
        if style.labelsVisible {
            if let houseNumbers {
                var numbers = beginHouseNumbers()
                for c in houseNumbers { placeHouseNumber(c.label, box: c.box, &numbers) { c.interior } }
            } else {
                drawLabels(map: map, layout: layout)
            }
        }
        if style.streetLabelsVisible { try drawStreetLabels(map: map, layout: layout) }
        try furniture.draw(&self)
    }

    // MARK: roads

    private func drawRoads(_ layout: Layout, band: BBox?) {
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        let roads = band.map { b in
            layout.roads.filter { r in
                let reach = (r.width + 2 * style.roadCasingWidth) * s / 2 + 1
                return BBox(covering: layout.points[r.points]).expanded(by: reach).intersects(b)
            }
        } ?? layout.roads
        if style.roadCasingWidth > 0 {
            ctx.setColor(style.roadCasing)
            for road in roads {
                trace(line: road.points, layout)
                cairo_set_line_width(cr, (road.width + 2 * style.roadCasingWidth) * s)
                cairo_stroke(cr)
            }
        }
        ctx.setColor(style.roadColor)
        for road in roads {
            trace(line: road.points, layout)
            cairo_set_line_width(cr, road.width * s)
            cairo_stroke(cr)
        }
    }

    private func trace(line: Range<Int>, _ layout: Layout) {
        let p0 = layout.points[line.lowerBound]
        cairo_move_to(cr, p0.x, p0.y)
        for i in line.dropFirst() { cairo_line_to(cr, layout.points[i].x, layout.points[i].y) }
    }

    // MARK: buildings

    private mutating func drawBuildings(_ layout: Layout, band: BBox?) throws {
        let reach = beginFootprints()
        for b in layout.buildings {
            if let band, !b.box.expanded(by: reach).intersects(band) { continue }
            try fillFootprint(layout.points, rings: b.rings.lazy.map { layout.rings[$0] }, paint: b.paint)
        }
    }

    /// Sets the state footprints are drawn with: even-odd fill, miter joins, the outline's
    /// width. Returns how far (pixels) a footprint's paint reaches beyond its box.
    mutating func beginFootprints() -> Double {
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        cairo_set_line_width(cr, style.buildingStrokeWidth * s)
        outlineByFills = style.buildingStrokeWidth > 0 && style.buildingStroke.a == 1
            && cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE
        // Miter joins reach out up to the miter limit (10) times half the stroke width.
        return 10 * style.buildingStrokeWidth * s / 2 + 1
    }

    /// Fills a batch's footprints in order; with `band`, only those whose paint (`reach`
    /// pixels beyond their box) can touch it.
    mutating func fillFootprints(_ batch: DrawBatch, band: BBox?, reach: Double) throws {
        for f in batch.footprints {
            if let band, !f.box.expanded(by: reach).intersects(band) { continue }
            try fillFootprint(batch.points, rings: f.rings.lazy.map { batch.rings[$0] }, paint: f.paint)
        }
    }

    /// Fills one footprint (rings as ranges of `points`, pixels; rings of fewer than three
    /// points skipped) with its paint and outlines it in the style's stroke.
    mutating func fillFootprint<Rings: Sequence<Range<Int>>>(_ points: [Coord], rings: Rings, paint: StatusPaint) throws {
        var single = rings.makeIterator()
        if outlineByFills, paint.fill.a == 1, let ring = single.next(), single.next() == nil,
           try fillOutlined(points[ring], paint: paint) { return }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        for ring in rings {
            guard ring.count >= 3 else { continue }
            let p0 = points[ring.lowerBound]
            cairo_move_to(cr, p0.x, p0.y)
            for i in ring.dropFirst() { cairo_line_to(cr, points[i].x, points[i].y) }
            cairo_close_path(cr)
        }
        try setPaint(paint)
        if style.buildingStrokeWidth > 0 {
            cairo_fill_preserve(cr)
            try setSolid(style.buildingStroke)
            cairo_stroke(cr)
        } else {
            cairo_fill(cr)
        }
    }

    /// A one-ring footprint filled and outlined as two fills: the ring moved outward by half
    /// the stroke in the stroke's colour, then moved inward in the paint. False, with nothing
    /// drawn, where the ring needs a real stroke.
    private mutating func fillOutlined(_ ring: ArraySlice<Coord>, paint: StatusPaint) throws -> Bool {
        let h = style.buildingStrokeWidth * s / 2
        guard band.load(ring), band.offset(by: h) == .ring else { return false }
        band.takeRing(&outerRing)
        let shrunk = band.offset(by: -h)
        if shrunk == .unsupported { return false }
        // The shifted rings may touch themselves at reflex corners: winding fills them whole.
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        trace(ring: outerRing)
        try setSolid(style.buildingStroke)
        cairo_fill(cr)
        if shrunk == .ring {
            trace(ring: band.ring)
            try setPaint(paint)
            cairo_fill(cr)
        }
        return true
    }

    private func trace(ring: [Coord]) {
        cairo_move_to(cr, ring[0].x, ring[0].y)
        for p in ring.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        cairo_close_path(cr)
    }

    /// Sets the source to a status paint: its colour, or a repeating hatch tile over it.
    mutating func setPaint(_ paint: StatusPaint) throws {
        guard paint.hatch != .none else { try setSolid(paint.fill); return }
        if let p = patterns[paint] { cairo_set_source(cr, p.handle); return }
        let t = 8 * s
        let tile = try CairoSurface.recording(width: t, height: t)
        let tc = try CairoContext(tile)
        tc.setColor(paint.fill)
        cairo_paint(tc.cr)
        tc.setColor(paint.hatchColor)
        cairo_set_line_width(tc.cr, max(1, s))
        func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            cairo_move_to(tc.cr, x0, y0); cairo_line_to(tc.cr, x1, y1)
        }
        switch paint.hatch {
        case .none: break
        case .diagonal, .crosshatch:
            for o in [-t, 0, t] { line(o, t, o + t, 0) }
            if paint.hatch == .crosshatch { for o in [-t, 0, t] { line(o, 0, o + t, t) } }
            cairo_stroke(tc.cr)
        case .horizontal: line(0, t / 2, t, t / 2); cairo_stroke(tc.cr)
        case .vertical: line(t / 2, 0, t / 2, t); cairo_stroke(tc.cr)
        case .dots:
            cairo_arc(tc.cr, t / 2, t / 2, t / 6, 0, 2 * Double.pi)
            cairo_fill(tc.cr)
        }
        try tc.check("hatch tile")
        let pattern = try CairoPattern(repeating: tile)
        patterns[paint] = pattern
        cairo_set_source(cr, pattern.handle)
    }

    /// Sets the source to a solid colour through a pattern made once per colour (a footprint
    /// sets two sources; a new pattern each time costs more than its fill).
    mutating func setSolid(_ c: RGBA) throws {
        if let p = solids[c] { cairo_set_source(cr, p.handle); return }
        let p = try CairoPattern(solid: c)
        solids[c] = p
        cairo_set_source(cr, p.handle)
    }

    // MARK: route

    /// The focus's walk: a magenta line (no status uses it) from door to door over a white casing, a dot at each
    /// door and a larger green dot at the first.
    private func drawRoute(_ route: Range<Int>, _ layout: Layout) {
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        if route.count >= 2 {
            for (color, width) in [(RGBA(1, 1, 1, 0.9), 4.5), (Self.routeColor, 2.5)] {
                trace(line: route, layout)
                ctx.setColor(color)
                cairo_set_line_width(cr, width * s)
                cairo_stroke(cr)
            }
        }
        ctx.setColor(Self.routeColor)
        for i in route {
            cairo_new_sub_path(cr)
            cairo_arc(cr, layout.points[i].x, layout.points[i].y, 2.5 * s, 0, 2 * Double.pi)
        }
        cairo_fill(cr)
        let start = layout.points[route.lowerBound]
        ctx.setColor(RGBA(hex: "#16a34a")!)
        cairo_arc(cr, start.x, start.y, 5 * s, 0, 2 * Double.pi)
        cairo_fill(cr)
    }

    static let routeColor = RGBA(hex: "#a21caf")!

    // MARK: labels

    /// House numbers at each footprint's interior point, where the text fits inside the
    /// footprint's box and its padded box collides with no other label or panel.
    private mutating func drawLabels(map: MapData, layout: Layout) {
        var numbers = beginHouseNumbers()
        for b in layout.buildings where !b.dimmed {
            guard let label = map.buildings[b.index].label else { continue }
            placeHouseNumber(label, box: b.box, &numbers) {
                let rings = b.rings.first.map { r in Array(layout.points[layout.rings[r]]) }
                let holes = b.rings.dropFirst().map { r in Array(layout.points[layout.rings[r]]) }
                guard let shell = rings else { return nil }
                return InteriorPoint.of([shell] + holes)
            }
        }
    }

    /// The font and measures house numbers are placed with.
    struct HouseNumberFont {
        var pad: Double, ascent: Double, textHeight: Double
        var widths: [String: Double] = [:]
    }

    /// Selects the house numbers' font; its measures for `placeHouseNumber`.
    func beginHouseNumbers() -> HouseNumberFont {
        selectFont(bold: false, size: style.labelSize * s)
        let (ascent, textHeight) = fontMetrics()
        return HouseNumberFont(pad: style.labelPadding * s, ascent: ascent, textHeight: textHeight)
    }

    /// Draws `label` centred on the footprint's interior point (computed only when the text
    /// fits in `box`, pixels) when its padded box stays on the canvas and collides with no
    /// other label. Candidates are offered in draw order: the first to claim a place keeps it.
    mutating func placeHouseNumber(_ label: String, box b: BBox, _ f: inout HouseNumberFont, interior: () -> Coord?) {
        guard !label.isEmpty else { return }
        let w: Double
        if let known = f.widths[label] { w = known } else {
            w = advance(label)
            f.widths[label] = w
        }
        guard w <= b.maxX - b.minX, f.textHeight * 0.8 <= b.maxY - b.minY, let at = interior() else { return }
        let (pad, textHeight) = (f.pad, f.textHeight)
        let box = PixelRect(x: at.x - w / 2 - pad, y: at.y - textHeight / 2 - pad,
                            width: w + 2 * pad, height: textHeight + 2 * pad)
        guard box.x >= 0, box.y >= 0, box.x + box.width <= Double(view.width),
              box.y + box.height <= Double(view.height), placer.place(box) else { return }
        let baseline = at.y - textHeight / 2 + f.ascent
        drawText(label, x: at.x - w / 2, baseline: baseline, color: style.labelColor,
                 halo: style.labelHaloWidth > 0 ? style.labelHalo : nil, haloWidth: style.labelHaloWidth * s)
        labelsPlaced += 1
        placedLabels.append(PlacedLabel(kind: .houseNumber, text: label, boxes: [box]))
    }

    // MARK: text

    func selectFont(bold: Bool, size: Double) {
        svgText?.bold = bold
        svgText?.size = size
        text?.bold = bold
        text?.size = size
        cairo_select_font_face(cr, style.font, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
    }

    /// Width of `text` in the current font, pixels.
    func advance(_ s: String) -> Double {
        if let text { return text.width(s) }
        var e = cairo_text_extents_t()
        cairo_text_extents(cr, s, &e)
        return e.x_advance
    }

    /// The current font's ascent and line height, pixels.
    func fontMetrics() -> (ascent: Double, height: Double) {
        if let text { return text.metrics() }
        var e = cairo_font_extents_t()
        cairo_font_extents(cr, &e)
        return (e.ascent, e.ascent + e.descent)
    }

    /// Draws real text (glyphs, selectable in PDF; `<text>` elements in SVG) with an optional
    /// halo outline under it.
    func drawText(_ text: String, x: Double, baseline: Double, color: RGBA, halo: RGBA? = nil, haloWidth: Double = 0) {
        if let t = svgText {
            var dx = x, dy = baseline, size = t.size, zero = 0.0, hw = haloWidth, zero2 = 0.0
            cairo_user_to_device(cr, &dx, &dy)
            cairo_user_to_device_distance(cr, &size, &zero)
            cairo_user_to_device_distance(cr, &hw, &zero2)
            t.add(SVGText.Item(text: text, x: dx, y: dy, size: size, bold: t.bold, fill: color, halo: halo, haloWidth: hw))
            return
        }
        if let shaped = self.text {
            shaped.draw(text, x: x, baseline: baseline, color: color, halo: halo, haloWidth: haloWidth, on: ctx)
            return
        }
        if let halo {
            cairo_move_to(cr, x, baseline)
            cairo_text_path(cr, text)
            ctx.setColor(halo)
            cairo_set_line_width(cr, haloWidth)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        }
        cairo_move_to(cr, x, baseline)
        ctx.setColor(color)
        cairo_show_text(cr, text)
        cairo_new_path(cr)
    }
}

/// The map's own text (house numbers, title, legend, scale) through Pango: shaping, kerning
/// and font fallback for any script, in the style's font at the size last selected.
final class MapText {
    private let layout: TextLayout
    let family: String
    var size = 10.0
    var bold = false

    init(_ layout: TextLayout, family: String) { self.layout = layout; self.family = family }

    /// Logical width of `s` on one line, pixels.
    func width(_ s: String) -> Double { layout.line(s, family: family, size: size, bold: bold).width }

    /// Ascent (top to baseline) and line height, pixels.
    func metrics() -> (ascent: Double, height: Double) {
        let h = layout.line("Hg", family: family, size: size, bold: bold).height
        return (layout.baseline, h)
    }

    /// Draws `s` with its baseline's left end at (x, baseline), over a halo outline when given.
    func draw(_ s: String, x: Double, baseline: Double, color: RGBA, halo: RGBA?, haloWidth: Double, on ctx: CairoContext) {
        let cr = ctx.cr
        _ = layout.line(s, family: family, size: size, bold: bold)
        let top = baseline - layout.baseline
        if let halo {
            cairo_new_path(cr)
            cairo_move_to(cr, x, top)
            layout.appendPath()
            ctx.setColor(halo)
            cairo_set_line_width(cr, haloWidth)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
        }
        cairo_move_to(cr, x, top)
        ctx.setColor(color)
        layout.showHere()
        cairo_new_path(cr)
    }
}
