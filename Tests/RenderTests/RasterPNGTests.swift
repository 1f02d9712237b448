import CCairo
import Foundation
import Testing
@testable import Render

/// The parallel PNG writer against Cairo's own: the same pixels, opaque or not, over several
/// pieces of rows.
@Suite struct RasterPNGTests {
    /// A surface of `height` rows with stripes, a gradient and, unless `opaque`, translucent
    /// and fully transparent pixels.
    func surface(width: Int, height: Int, opaque: Bool) -> OpaquePointer {
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let cr = cairo_create(s)!
        if opaque { cairo_set_source_rgb(cr, 0.95, 0.96, 0.97); cairo_paint(cr) }
        for k in 0..<40 {
            cairo_set_source_rgba(cr, Double(k % 7) / 7, Double(k % 5) / 5, Double(k % 3) / 3, opaque ? 1 : Double(k % 4) / 4 + 0.1)
            cairo_rectangle(cr, Double(k * 13 % width), Double(k * 29 % height), 37.5, 61.25)
            cairo_fill(cr)
        }
        cairo_destroy(cr)
        cairo_surface_flush(s)
        return s
    }

    func cairoPNG(_ s: OpaquePointer) throws -> RasterImage {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("flyr-cairo-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(cairo_surface_write_to_png(s, path) == CAIRO_STATUS_SUCCESS)
        return try RasterImage(pngFile: path)
    }

    @Test(arguments: [true, false])
    func sameImageAsCairosWriter(opaque: Bool) throws {
        // 700 rows: three pieces, the last one short.
        let s = surface(width: 333, height: 700, opaque: opaque)
        defer { cairo_surface_destroy(s) }
        for threads in [1, 2] {
            let png = try RasterPNG.encode(s, threads: threads)
            #expect(png[25] == (opaque ? 2 : 6))  // IHDR colour type: RGB, or RGBA
            #expect(try RasterImage(png: png) == cairoPNG(s))
        }
    }
}
