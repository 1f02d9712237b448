import CZlib
import Foundation

/// A PNG of one bit a pixel, greyscale (0 black, 1 white), made from a raster of one pixel a
/// QR module scaled up by a whole factor: each module becomes `module` × `module` pixels
/// exactly, rows repeated with PNG's "up" filter (all zeros, which zlib takes in at once).
enum BilevelPNG {
    /// `cells` × `cells` A8 pixels from `alpha` (`stride` bytes a row; alpha 128 or more is
    /// white), each drawn `module` pixels a side, centred on a white square `side` pixels wide.
    static func encode(alpha: UnsafePointer<UInt8>, cells: Int, stride: Int, module: Int, side: Int) throws(RenderError) -> Data {
        let rowBytes = (side + 7) / 8
        let margin = (side - module * cells) / 2
        var raw = [UInt8](repeating: 0, count: side * (rowBytes + 1))
        raw.withUnsafeMutableBufferPointer { out in
            var white = [UInt8](repeating: 0xFF, count: rowBytes)
            if side % 8 != 0 { white[rowBytes - 1] = UInt8(truncatingIfNeeded: 0xFF << (8 - side % 8)) }
            var line = white
            for y in 0..<side {
                let start = y * (rowBytes + 1)
                let cell = y < margin ? -1 : (y - margin) / module
                let firstOfCell = y == 0 || y == margin || (y >= margin && (y - margin) % module == 0) || y == margin + cells * module
                guard firstOfCell else { out[start] = 2; continue }
                line = white
                if cell >= 0 && cell < cells {
                    let src = alpha + cell * stride
                    for c in 0..<cells where src[c] < 128 {
                        for x in (margin + c * module)..<(margin + (c + 1) * module) { line[x >> 3] &= ~UInt8(0x80 >> (x & 7)) }
                    }
                }
                for i in 0..<rowBytes { out[start + 1 + i] = line[i] }
            }
        }
        var compressedSize = compressBound(uLong(raw.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedSize))
        let status = compress2(&compressed, &compressedSize, raw, uLong(raw.count), Z_BEST_SPEED)
        guard status == Z_OK else { throw RenderError("PNG encode", message: "zlib compress2 returned \(status)") }
        return PNGChunks.file(width: side, height: side, bitDepth: 1, colourType: 0, idat: compressed[0..<Int(compressedSize)])
    }
}
