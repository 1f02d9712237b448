import CCairo
import Foundation

/// A failure inside Cairo, or an output Cairo cannot make.
public struct RenderError: Error, CustomStringConvertible, Sendable {
    public var operation: String
    public var message: String
    public var description: String { "Cairo \(operation) failed: \(message)" }

    init(_ operation: String, _ status: cairo_status_t) {
        self.operation = operation
        self.message = String(cString: cairo_status_to_string(status))
    }
    init(_ operation: String, message: String) { self.operation = operation; self.message = message }
}

/// Bytes Cairo writes through a stream callback.
final class ByteSink {
    var data = Data()
}

private let appendToSink: cairo_write_func_t = { closure, bytes, length in
    guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
    Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
    return CAIRO_STATUS_SUCCESS
}

/// One `cairo_surface_t`; `deinit` is the only place it is destroyed. Vector surfaces write
/// into memory; `finish()` completes them.
final class CairoSurface {
    let handle: OpaquePointer
    /// Receives SVG or PDF bytes; nil for image and recording surfaces.
    private let sink: ByteSink?

    private init(_ handle: OpaquePointer, sink: ByteSink?, what: String) throws(RenderError) {
        self.handle = handle
        self.sink = sink
        let status = cairo_surface_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError("create \(what) surface", status) }
    }

    deinit { cairo_surface_destroy(handle) }

    /// A raster, ARGB32 unless told.
    static func image(format: cairo_format_t = CAIRO_FORMAT_ARGB32, width: Int, height: Int) throws(RenderError) -> CairoSurface {
        try CairoSurface(cairo_image_surface_create(format, Int32(width), Int32(height)), sink: nil, what: "image")
    }

    /// An ARGB32 raster over pixels owned by someone else (`stride` bytes a row), who keeps
    /// them alive longer than this surface.
    static func image(over pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) throws(RenderError) -> CairoSurface {
        try CairoSurface(cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride)),
                         sink: nil, what: "image band")
    }

    /// An SVG document `width` × `height` in `unit` (px or pt).
    static func svg(width: Double, height: Double, unitIsPoints: Bool) throws(RenderError) -> CairoSurface {
        let sink = ByteSink()
        let s = cairo_svg_surface_create_for_stream(appendToSink, Unmanaged.passUnretained(sink).toOpaque(), width, height)!
        let surface = try CairoSurface(s, sink: sink, what: "SVG")
        cairo_svg_surface_restrict_to_version(s, CAIRO_SVG_VERSION_1_1)
        cairo_svg_surface_set_document_unit(s, unitIsPoints ? CAIRO_SVG_UNIT_PT : CAIRO_SVG_UNIT_PX)
        return surface
    }

    /// A one-page PDF `width` × `height` points.
    static func pdf(width: Double, height: Double, title: String?) throws(RenderError) -> CairoSurface {
        let sink = ByteSink()
        let s = cairo_pdf_surface_create_for_stream(appendToSink, Unmanaged.passUnretained(sink).toOpaque(), width, height)!
        let surface = try CairoSurface(s, sink: sink, what: "PDF")
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "flyr")
        if let title { cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, title) }
        return surface
    }

    /// A PDF written to the file at `path` page by page, each `width` × `height` points.
    static func pdf(path: String, width: Double, height: Double, title: String?) throws(RenderError) -> CairoSurface {
        let s = cairo_pdf_surface_create(path, width, height)!
        let surface = try CairoSurface(s, sink: nil, what: "PDF file \(path)")
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "flyr")
        if let title { cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, title) }
        return surface
    }

    /// An unbounded-content recording of `width` × `height` units, replayed as a pattern tile.
    static func recording(width: Double, height: Double) throws(RenderError) -> CairoSurface {
        var extents = cairo_rectangle_t(x: 0, y: 0, width: width, height: height)
        return try CairoSurface(cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &extents), sink: nil, what: "recording")
    }

    /// Completes the document (vector surfaces emit their bytes here) and checks for errors.
    func finish() throws(RenderError) {
        cairo_surface_flush(handle)
        cairo_surface_finish(handle)
        let status = cairo_surface_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError("finish surface", status) }
    }

    /// What a vector surface wrote (complete after `finish()`).
    var writtenBytes: Data { sink?.data ?? Data() }

    /// The raster encoded as PNG.
    func pngData() throws(RenderError) -> Data {
        if cairo_surface_get_type(handle) == CAIRO_SURFACE_TYPE_IMAGE,
           cairo_image_surface_get_format(handle) == CAIRO_FORMAT_ARGB32 {
            return try RasterPNG.encode(handle, threads: ProcessInfo.processInfo.activeProcessorCount)
        }
        let sink = ByteSink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(handle, appendToSink, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError("PNG encode", status) }
        return sink.data
    }
}

/// One `cairo_t` drawing on a surface it keeps alive; `deinit` destroys it.
final class CairoContext {
    let cr: OpaquePointer
    let surface: CairoSurface

    init(_ surface: CairoSurface) throws(RenderError) {
        self.surface = surface
        self.cr = cairo_create(surface.handle)
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { cairo_destroy(cr); throw RenderError("create context", status) }
        // The same text rendering on every surface and in every process: unhinted outlines,
        // unhinted metrics, grey anti-aliasing (fontconfig's defaults and Cairo's per-surface
        // defaults otherwise differ, and labels would move between PNG and PDF).
        let options = cairo_font_options_create()
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(cr, options)
    }

    deinit { cairo_destroy(cr) }

    /// Throws when any drawing call so far has failed (Cairo errors are sticky).
    func check(_ operation: String) throws(RenderError) {
        let status = cairo_status(cr)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError(operation, status) }
    }

    func setColor(_ c: RGBA) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }
}

/// One `cairo_pattern_t`; `deinit` releases it.
final class CairoPattern {
    let handle: OpaquePointer
    /// A repeating pattern of a recorded tile.
    init(repeating tile: CairoSurface) throws(RenderError) {
        handle = cairo_pattern_create_for_surface(tile.handle)
        cairo_pattern_set_extend(handle, CAIRO_EXTEND_REPEAT)
        let status = cairo_pattern_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else { cairo_pattern_destroy(handle); throw RenderError("create pattern", status) }
    }
    /// A solid colour: what `cairo_set_source_rgba` makes on each call, made once.
    init(solid c: RGBA) throws(RenderError) {
        handle = cairo_pattern_create_rgba(c.r, c.g, c.b, c.a)
        let status = cairo_pattern_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else { cairo_pattern_destroy(handle); throw RenderError("create pattern", status) }
    }
    deinit { cairo_pattern_destroy(handle) }
}
