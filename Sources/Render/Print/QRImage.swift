import CCairo
import Foundation

/// The file format of a QR image.
public enum QRImageFormat: String, CaseIterable, Sendable {
    case png, svg, pdf
}

/// How codes are drawn.
public struct QRStyle: Sendable {
    public var ecc: QRErrorCorrection = .M
    /// Light modules around the symbol on each side (the standard asks for 4).
    public var quietZone = 4
    /// A PNG's side in pixels; its modules are whole pixels, centred, the rest light margin.
    public var pixels = 512
    /// A module's side in SVG and PDF, in millimetres.
    public var moduleMillimetres = 1.0

    public init(ecc: QRErrorCorrection = .M, quietZone: Int = 4, pixels: Int = 512) {
        self.ecc = ecc
        self.quietZone = quietZone
        self.pixels = pixels
    }
}

/// Points in one millimetre.
public let pointsPerMillimetre = 72 / 25.4

enum QRDrawing {
    /// Fills the code's dark modules, each horizontal run one rectangle of one path, with the
    /// context's source; the symbol's top-left module at `x`, `y` (quiet zone not included),
    /// `module` units a side.
    static func fillDarkModules(_ code: QRCode, cr: OpaquePointer, x: Double, y: Double, module: Double) {
        cairo_new_path(cr)
        code.forEachDarkRun { row, column, count in
            cairo_rectangle(cr, x + Double(column) * module, y + Double(row) * module, Double(count) * module, module)
        }
        cairo_fill(cr)
    }

    /// Draws the code with its quiet zone, white light modules and black dark ones, its outer
    /// top-left corner at `x`, `y` and `side` units across (quiet zone included).
    static func draw(_ code: QRCode, cr: OpaquePointer, x: Double, y: Double, side: Double, quietZone: Int) {
        let module = side / Double(code.width + 2 * quietZone)
        cairo_save(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_rectangle(cr, x, y, side, side)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        fillDarkModules(code, cr: cr, x: x + Double(quietZone) * module, y: y + Double(quietZone) * module, module: module)
        cairo_restore(cr)
    }
}

/// Makes QR images one after another: a PNG's modules drawn by Cairo at one pixel a module on
/// a reused A8 raster, then scaled up by a whole factor by `BilevelPNG` (1-bit greyscale,
/// every module the same whole number of pixels); SVG and PDF as vector documents. Not shared
/// between threads: one a worker.
public final class QRImageMaker {
    public let style: QRStyle
    public let format: QRImageFormat
    /// One raster a code width met so far (a campaign's URLs have one or two).
    private var rasters: [Int: CairoContext] = [:]

    public init(format: QRImageFormat, style: QRStyle) {
        self.format = format
        self.style = style
    }

    /// The image of the code of `text`. Throws when the text does not fit a QR code or a PNG
    /// is too small for one pixel a module.
    public func image(of text: String) throws -> Data {
        let code = try QRCode(text, ecc: style.ecc)
        switch format {
        case .png: return try png(code, text: text)
        case .svg, .pdf:
            let side = Double(code.width + 2 * style.quietZone) * style.moduleMillimetres * pointsPerMillimetre
            let surface = format == .svg ? try CairoSurface.svg(width: side, height: side, unitIsPoints: true)
                : try CairoSurface.pdf(width: side, height: side, title: text)
            let context = try CairoContext(surface)
            QRDrawing.draw(code, cr: context.cr, x: 0, y: 0, side: side, quietZone: style.quietZone)
            try context.check("draw QR code")
            try surface.finish()
            return surface.writtenBytes
        }
    }

    /// Alpha 255 light, 0 dark: the raster is made all light, then the dark modules cleared.
    private func png(_ code: QRCode, text: String) throws -> Data {
        let cells = code.width + 2 * style.quietZone
        let module = style.pixels / cells
        guard module >= 1 else {
            throw QRError(text: text, reason: "a \(cells)-module code needs a PNG of at least \(cells) px (--size \(style.pixels))")
        }
        let raster = try rasters[cells] ?? {
            let context = try CairoContext(CairoSurface.image(format: CAIRO_FORMAT_A8, width: cells, height: cells))
            cairo_set_antialias(context.cr, CAIRO_ANTIALIAS_NONE)
            rasters[cells] = context
            return context
        }()
        let cr = raster.cr
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        QRDrawing.fillDarkModules(code, cr: cr, x: Double(style.quietZone), y: Double(style.quietZone), module: 1)
        try raster.check("draw QR code")
        let surface = raster.surface.handle
        cairo_surface_flush(surface)
        return try BilevelPNG.encode(alpha: cairo_image_surface_get_data(surface), cells: cells,
                                     stride: Int(cairo_image_surface_get_stride(surface)), module: module, side: style.pixels)
    }
}

/// Makes many QR images on several threads, each with a maker of its own; results in the
/// order asked.
public final class QRImagePool: @unchecked Sendable {
    private let makers: [QRImageMaker]

    public init(format: QRImageFormat, style: QRStyle, threads: Int) {
        makers = (0..<max(1, threads)).map { _ in QRImageMaker(format: format, style: style) }
    }

    /// The images of `texts`, in their order; worker w makes texts w, w + threads, …
    public func images(of texts: [String]) throws -> [Data] {
        nonisolated(unsafe) let results = UnsafeMutableBufferPointer<Result<Data, Error>?>.allocate(capacity: texts.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() }
        let workers = min(makers.count, texts.count)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            for i in stride(from: w, to: texts.count, by: workers) {
                results[i] = Result { try makers[w].image(of: texts[i]) }
            }
        }
        return try results.map { try $0!.get() }
    }
}
