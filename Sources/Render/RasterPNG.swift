import CCairo
import CZlib
import Foundation
import Geo

/// A PNG of a Cairo image surface (ARGB32, premultiplied), compressed in parallel: the rows
/// are cut into pieces, each piece filtered ("up") and deflated on its own worker at zlib's
/// fastest level, ended on a byte boundary (a sync flush) so the pieces join into one zlib
/// stream, whose Adler-32 is combined from theirs. Cairo's own writer runs on one thread at
/// zlib's default level: on a 4096² map it was the one step after drawing that used one core.
/// Pixels are exactly those Cairo's writer stores: RGB when every pixel is opaque, else RGBA
/// un-premultiplied with Cairo's rounding.
enum RasterPNG {
    /// Rows per piece: enough that a piece's deflate window is well used.
    static let rowsPerPiece = 256

    static func encode(_ surface: OpaquePointer, threads: Int) throws(RenderError) -> Data {
        cairo_surface_flush(surface)
        guard let base = cairo_image_surface_get_data(surface) else { throw RenderError("PNG encode", message: "no image data") }
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixels = UnsafePointer<UInt32>(OpaquePointer(base))
        let opaque = (0..<height).allSatisfy { y in
            let row = pixels + y * stride / 4
            return (0..<width).allSatisfy { row[$0] >> 24 == 0xFF }
        }
        let channels = opaque ? 3 : 4
        let pieces = (height + rowsPerPiece - 1) / rowsPerPiece
        let image = Image(pixels: pixels, width: width, height: height, words: stride / 4, channels: channels)
        let out = SlotResults<(Data, UInt32, Int)>(count: pieces)
        let counter = TileCounter()
        DispatchQueue.concurrentPerform(iterations: max(1, min(threads, pieces))) { _ in
            while let k = counter.take(below: pieces) {
                let rows = (k * rowsPerPiece)..<min(height, (k + 1) * rowsPerPiece)
                out.set(k, Result<(Data, UInt32, Int), Error> { try image.deflate(rows, last: k == pieces - 1) })
            }
        }
        var stream = Data([0x78, 0x01])
        var adler = adler32(0, nil, 0)
        for k in 0..<pieces {
            let piece: (Data, UInt32, Int)
            do { piece = try out.get(k) } catch { throw error as? RenderError ?? RenderError("PNG encode", message: "\(error)") }
            stream.append(piece.0)
            adler = adler32_combine(adler, uLong(piece.1), off_t(piece.2))
        }
        for shift in [24, 16, 8, 0] { stream.append(UInt8(truncatingIfNeeded: adler >> UInt(shift))) }
        return PNGChunks.file(width: width, height: height, colourType: opaque ? 2 : 6, idat: stream)
    }

    /// A premultiplied ARGB32 pixel as straight r, g, b, a, rounded as Cairo's PNG writer
    /// rounds (fully transparent pixels black).
    @inline(__always)
    static func straight(_ p: UInt32) -> (UInt8, UInt8, UInt8, UInt8) {
        let a = p >> 24
        var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
        if a == 0 { r = 0; g = 0; b = 0 } else if a != 0xFF {
            r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a
        }
        return (UInt8(min(r, 255)), UInt8(min(g, 255)), UInt8(min(b, 255)), UInt8(a))
    }

    /// The surface's pixels, read only.
    struct Image: @unchecked Sendable {
        let pixels: UnsafePointer<UInt32>
        let width: Int, height: Int, words: Int, channels: Int

        /// Row y as PNG samples (RGB, or un-premultiplied RGBA).
        func samples(_ y: Int, into out: inout [UInt8]) {
            let row = pixels + y * words
            var i = 0
            for x in 0..<width {
                let (r, g, b, a) = RasterPNG.straight(row[x])
                out[i] = r; out[i + 1] = g; out[i + 2] = b
                if channels == 4 { out[i + 3] = a }
                i += channels
            }
        }

        /// The rows' filtered bytes deflated raw, ended by a sync flush (or the final block for
        /// the last piece); returns them with their Adler-32 and length.
        func deflate(_ rows: Range<Int>, last: Bool) throws(RenderError) -> (Data, UInt32, Int) {
            let n = width * channels
            var raw = [UInt8](repeating: 0, count: rows.count * (n + 1))
            var prev = [UInt8](repeating: 0, count: n), cur = [UInt8](repeating: 0, count: n)
            if rows.lowerBound > 0 { samples(rows.lowerBound - 1, into: &prev) }
            for (j, y) in rows.enumerated() {
                samples(y, into: &cur)
                let o = j * (n + 1)
                raw[o] = 2  // "up": each byte less the one above it
                for i in 0..<n { raw[o + 1 + i] = cur[i] &- prev[i] }
                swap(&prev, &cur)
            }
            var z = z_stream()
            guard deflateInit2_(&z, Z_BEST_SPEED, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                                Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw RenderError("PNG encode", message: "zlib deflateInit2 failed")
            }
            defer { deflateEnd(&z) }
            var out = [UInt8](repeating: 0, count: Int(deflateBound(&z, uLong(raw.count))) + 16)
            let status: Int32 = raw.withUnsafeMutableBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    z.next_in = src.baseAddress; z.avail_in = uInt(src.count)
                    z.next_out = dst.baseAddress; z.avail_out = uInt(dst.count)
                    return CZlib.deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH)
                }
            }
            guard status == (last ? Z_STREAM_END : Z_OK), z.avail_in == 0 else {
                throw RenderError("PNG encode", message: "zlib deflate returned \(status)")
            }
            let sum = UInt32(adler32(adler32(0, nil, 0), raw, uInt(raw.count)))
            return (Data(out[0..<Int(z.total_out)]), sum, raw.count)
        }
    }
}
