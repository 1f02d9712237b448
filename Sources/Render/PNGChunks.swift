import CZlib
import Foundation

/// The PNG container the encoders share: signature, IHDR, chunks with their CRC-32.
enum PNGChunks {
    /// A PNG holding `idat` (a zlib stream of filtered rows): width × height, 8-bit depth
    /// unless `bitDepth` says otherwise, colour type 0 (grey), 2 (RGB) or 6 (RGBA).
    static func file(width: Int, height: Int, bitDepth: UInt8 = 8, colourType: UInt8, idat: some Collection<UInt8>) -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header: [UInt8] = []
        put32(&header, UInt32(width))
        put32(&header, UInt32(height))
        header += [bitDepth, colourType, 0, 0, 0]
        chunk(&png, "IHDR", header)
        chunk(&png, "IDAT", idat)
        chunk(&png, "IEND", [])
        return png
    }

    static func put32(_ out: inout [UInt8], _ v: UInt32) {
        out += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ png: inout Data, _ type: String, _ body: some Collection<UInt8>) {
        var bytes: [UInt8] = []
        put32(&bytes, UInt32(body.count))
        let typed = Array(type.utf8) + Array(body)
        bytes += typed
        put32(&bytes, UInt32(crc32(0, typed, uInt(typed.count))))
        png.append(contentsOf: bytes)
    }
}
