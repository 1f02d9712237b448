import CQREncode
import Foundation

/// A QR code's error correction level: the share of its codewords a reader can restore
/// (L about 7 %, M 15 %, Q 25 %, H 30 %). Higher levels make larger codes.
public enum QRErrorCorrection: String, CaseIterable, Sendable {
    case L, M, Q, H

    var level: QRecLevel {
        switch self {
        case .L: QR_ECLEVEL_L
        case .M: QR_ECLEVEL_M
        case .Q: QR_ECLEVEL_Q
        case .H: QR_ECLEVEL_H
        }
    }
}

/// A text libqrencode cannot encode.
public struct QRError: Error, CustomStringConvertible, Sendable {
    public var text: String
    public var reason: String
    public var description: String { "cannot make a QR code of \"\(text)\": \(reason)" }
}

/// One libqrencode `QRcode`: the module matrix of one text, without its quiet zone. `deinit`
/// is the only place it is freed.
public final class QRCode {
    private let handle: UnsafeMutablePointer<QRcode>
    /// Modules a side (21 for version 1, 4 more a version), quiet zone not included.
    public let width: Int
    /// The symbol's version, 1...40.
    public let version: Int

    /// The smallest code holding `text` (UTF-8, byte mode where needed, case kept) at `ecc`.
    public init(_ text: String, ecc: QRErrorCorrection) throws(QRError) {
        errno = 0
        guard let h = QRcode_encodeString(text, 0, ecc.level, QR_MODE_8, 1) else {
            let reason = switch errno {
            case ERANGE: "too long for a QR code at error correction \(ecc.rawValue) (\(text.utf8.count) bytes)"
            case ENOMEM: "out of memory"
            default: "libqrencode failed (errno \(errno))"
            }
            throw QRError(text: text, reason: reason)
        }
        handle = h
        width = Int(h.pointee.width)
        version = Int(h.pointee.version)
    }

    deinit { QRcode_free(handle) }

    /// Calls `body(row, first column, column count)` for each horizontal run of dark modules,
    /// row by row from the top, left to right (0-based, quiet zone not counted).
    public func forEachDarkRun(_ body: (_ row: Int, _ column: Int, _ count: Int) -> Void) {
        let data = handle.pointee.data!
        for y in 0..<width {
            let row = data + y * width
            var x = 0
            while x < width {
                guard row[x] & 1 != 0 else { x += 1; continue }
                let start = x
                while x < width && row[x] & 1 != 0 { x += 1 }
                body(y, start, x - start)
            }
        }
    }

    /// True for a dark module at `column`, `row` (0-based from the top left, inside the symbol).
    public func isDark(column: Int, row: Int) -> Bool {
        handle.pointee.data[row * width + column] & 1 != 0
    }
}
