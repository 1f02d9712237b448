import CCairo
import Foundation

/// A decoded raster with straight-alpha 8-bit RGBA pixels, row-major from the top-left.
/// Read back from PNG through Cairo, for tests and comparisons.
public struct RasterImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// `width × height × 4` bytes: r, g, b, a.
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4)
        self.width = width; self.height = height; self.rgba = rgba
    }

    /// Decodes a PNG file (cairo_image_surface_create_from_png).
    public init(pngFile path: String) throws(RenderError) {
        guard let s = cairo_image_surface_create_from_png(path) else { throw RenderError("read \(path)", message: "no surface") }
        defer { cairo_surface_destroy(s) }
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else { throw RenderError("read PNG \(path)", status) }
        self = RasterImage(imageSurface: s)
    }

    /// Decodes PNG bytes.
    public init(png: Data) throws(RenderError) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("flyr-raster-\(UUID().uuidString).png").path
        do { try png.write(to: URL(fileURLWithPath: path)) } catch {
            throw RenderError("write temporary PNG", message: "\(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        try self.init(pngFile: path)
    }

    private init(imageSurface s: OpaquePointer) {
        cairo_surface_flush(s)
        let w = Int(cairo_image_surface_get_width(s)), h = Int(cairo_image_surface_get_height(s))
        let stride = Int(cairo_image_surface_get_stride(s))
        let format = cairo_image_surface_get_format(s)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        if let base = cairo_image_surface_get_data(s) {
            for y in 0..<h {
                let row = (base + y * stride).withMemoryRebound(to: UInt32.self, capacity: w) { $0 }
                for x in 0..<w {
                    let (r, g, b, a) = RasterPNG.straight(format == CAIRO_FORMAT_RGB24 ? row[x] | 0xFF00_0000 : row[x])
                    let i = (y * w + x) * 4
                    out[i] = r; out[i + 1] = g; out[i + 2] = b; out[i + 3] = a
                }
            }
        }
        self.init(width: w, height: h, rgba: out)
    }

    /// The pixel at (x, y), 0-based from the top-left.
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
    }

    /// Encodes as PNG.
    public func pngData() throws(RenderError) -> Data {
        let surface = try CairoSurface.image(width: width, height: height)
        let s = surface.handle
        cairo_surface_flush(s)
        let stride = Int(cairo_image_surface_get_stride(s))
        if let base = cairo_image_surface_get_data(s) {
            for y in 0..<height {
                let row = (base + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let a = UInt32(rgba[i + 3])
                    let r = UInt32(rgba[i]) * a / 255, g = UInt32(rgba[i + 1]) * a / 255, b = UInt32(rgba[i + 2]) * a / 255
                    row[x] = (a << 24) | (r << 16) | (g << 8) | b
                }
            }
        }
        cairo_surface_mark_dirty(s)
        return try surface.pngData()
    }
}
