import CCairo

/// One `PangoLayout` on a Cairo context: text shaped by HarfBuzz, with kerning and font
/// fallback through fontconfig (DejaVu Sans first, then any installed font that has the
/// script, e.g. Noto for Arabic), measured before it is drawn. `deinit` releases it.
final class TextLayout {
    private let layout: OpaquePointer
    private let cr: OpaquePointer
    /// The font families tried in order (fontconfig falls back further for missing glyphs).
    static let families = "DejaVu Sans, Noto Sans"

    init(_ context: CairoContext) throws(RenderError) {
        cr = context.cr
        guard let l = pango_cairo_create_layout(cr) else { throw RenderError("create text layout", message: "Pango returned no layout") }
        layout = l
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// The layout itself, for `GlyphClusters` (valid while this object lives).
    var pangoLayout: OpaquePointer { layout }

    /// Lays out `text` (lines split by "\n") `width` units wide at the largest size from
    /// `size` down to `minimumSize` (units, half a unit a step) whose height fits `height`;
    /// at the smallest size, lines past `height` are cut and the last ends with "…".
    /// Returns the laid-out height.
    @discardableResult
    func fit(_ text: String, size: Double, minimumSize: Double, width: Double, height: Double, bold: Bool = false) -> Double {
        pango_layout_set_text(layout, text, -1)
        pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
        pango_layout_set_height(layout, -1)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        var s = size
        while true {
            setFont(size: s, bold: bold)
            if measuredHeight <= height || s - 0.5 < minimumSize { break }
            s -= 0.5
        }
        if measuredHeight > height {
            pango_layout_set_height(layout, Int32(height * Double(PANGO_SCALE)))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        return measuredHeight
    }

    /// Draws the laid-out text with its top-left corner at `x`, `y`, in black.
    func show(x: Double, y: Double) {
        cairo_save(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
        cairo_restore(cr)
    }

    /// Lays out `text` on one line in `family` (then Noto Sans and fontconfig's fallbacks) at
    /// `size` units; returns its logical width and height.
    func line(_ text: String, family: String, size: Double, bold: Bool = false) -> (width: Double, height: Double) {
        pango_layout_set_text(layout, text, -1)
        pango_layout_set_width(layout, -1)
        pango_layout_set_height(layout, -1)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        setFont(size: size, bold: bold, families: family + ", Noto Sans")
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return (Double(logical.width) / Double(PANGO_SCALE), Double(logical.height) / Double(PANGO_SCALE))
    }

    /// Adds the laid-out text's outline to the path, its top-left corner at the current point.
    func appendPath() { pango_cairo_layout_path(cr, layout) }

    /// Draws the laid-out text in the current source, its top-left corner at the current point.
    func showHere() { pango_cairo_show_layout(cr, layout) }

    /// The distance from the laid-out text's top to its first line's baseline, in user units.
    var baseline: Double { Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE) }

    /// The logical height of the laid-out text, in user units.
    var measuredHeight: Double {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        return Double(logical.height) / Double(PANGO_SCALE)
    }

    private func setFont(size: Double, bold: Bool, families: String = TextLayout.families) {
        let description = pango_font_description_from_string(families)
        defer { pango_font_description_free(description) }
        pango_font_description_set_absolute_size(description, size * Double(PANGO_SCALE))
        if bold { pango_font_description_set_weight(description, PANGO_WEIGHT_BOLD) }
        pango_layout_set_font_description(layout, description)
    }
}
