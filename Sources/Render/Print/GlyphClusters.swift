import CCairo

/// One line of shaped text cut into its clusters (the smallest pieces shaping keeps whole: a
/// letter with its marks, a ligature, a conjunct), each a Pango glyph item that can be drawn
/// on its own with the glyphs and positions the whole line was shaped with. Clusters are in
/// logical (reading) order. `deinit` frees the glyph items.
final class GlyphClusters {
    /// A cluster's place on the unbent line: its left edge from the line's left end and its
    /// advance, in the layout's units.
    struct Cluster: Equatable { var x: Double, width: Double }

    /// The text the glyph items index into (UTF-8 byte offsets).
    let text: String
    let clusters: [Cluster]
    /// The line's logical height, and the distance from its top to its baseline (units).
    let height: Double, baseline: Double
    private let items: [UnsafeMutablePointer<PangoGlyphItem>]

    /// Cuts the first line of `layout` (laid out from `text`) into clusters. A line with no
    /// glyphs gives none.
    init(layout: OpaquePointer, text: String, height: Double, baseline: Double) {
        self.text = text
        self.height = height
        self.baseline = baseline
        var parts: [(item: UnsafeMutablePointer<PangoGlyphItem>, cluster: Cluster, offset: Int32)] = []
        var runX = 0.0
        var node = pango_layout_get_line_readonly(layout, 0)?.pointee.runs
        // Runs are in visual order, left to right; each is split at its cluster starts.
        while let n = node {
            node = n.pointee.next
            guard let run = n.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
                  let copy = pango_glyph_item_copy(run) else { continue }
            let runWidth = Self.units(pango_glyph_string_get_width(copy.pointee.glyphs))
            let rtl = copy.pointee.item.pointee.analysis.level % 2 == 1
            var starts = Set<Int32>()
            let glyphs = copy.pointee.glyphs.pointee
            for g in 0..<Int(glyphs.num_glyphs) { starts.insert(glyphs.log_clusters[g]) }
            var pieces: [UnsafeMutablePointer<PangoGlyphItem>] = []
            text.withCString { c in
                var done: Int32 = 0
                for s in starts.sorted() where s > 0 && s < copy.pointee.item.pointee.length + done {
                    if let first = pango_glyph_item_split(copy, c, s - done) { pieces.append(first) }
                    done = s
                }
            }
            pieces.append(copy)
            var along = 0.0
            for p in pieces {
                let w = Self.units(pango_glyph_string_get_width(p.pointee.glyphs))
                let x = rtl ? runX + runWidth - along - w : runX + along
                along += w
                parts.append((p, Cluster(x: x, width: w), p.pointee.item.pointee.offset))
            }
            runX += runWidth
        }
        parts.sort { $0.offset < $1.offset }
        items = parts.map(\.item)
        clusters = parts.map(\.cluster)
    }

    deinit { for i in items { pango_glyph_item_free(i) } }

    private static func units(_ v: Int32) -> Double { Double(v) / Double(PANGO_SCALE) }

    /// Adds cluster `k`'s glyph outlines to the path, its baseline's left end at the current point.
    func appendPath(_ k: Int, cr: OpaquePointer) {
        let item = items[k].pointee
        pango_cairo_glyph_string_path(cr, item.item.pointee.analysis.font, item.glyphs)
    }

    /// Draws cluster `k` (glyphs with their text, so a PDF keeps it selectable) in the current
    /// source, its baseline's left end at the current point.
    func show(_ k: Int, cr: OpaquePointer) {
        text.withCString { pango_cairo_show_glyph_item(cr, $0, items[k]) }
    }
}

extension TextLayout {
    /// `text` laid out on one line as `line` lays it out, cut into its clusters.
    func clusters(_ text: String, family: String, size: Double) -> GlyphClusters {
        _ = line(text, family: family, size: size)
        return GlyphClusters(layout: pangoLayout, text: text, height: measuredHeight, baseline: baseline)
    }
}
