import Foundation

/// The scanner's strings: scanned eight bytes at a time to the first byte that needs a look,
/// escapes and UTF-8 validated, decoded on demand (through the interner for recurring values).
extension JSONScanner {
    /// Scans a string starting at the opening quote, validating escapes and UTF-8.
    mutating func rawString() throws(ScanError) -> RawString {
        i += 1  // opening quote
        let start = i
        var escapes = false
        while true {
            // Eight bytes at a time while none of them needs a look: a quote, a backslash, a
            // control character or a non-ASCII byte.
            while i + 8 <= count {
                let look = Self.needsLook(UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)))
                guard look == 0 else { i += look.trailingZeroBitCount >> 3; break }
                i += 8
            }
            guard i < count else { break }
            let c = base[i]
            if c == Byte.quote {
                let s = RawString(start: start, end: i, hasEscapes: escapes)
                i += 1
                return s
            }
            if c == Byte.backslash {
                escapes = true
                guard i + 1 < count else { break }
                switch base[i + 1] {
                case Byte.quote, Byte.backslash, Byte.slash, UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 6 <= count, Self.hex4(base, at: i + 2) != nil else {
                        throw ScanError(.invalidJSON, "expected four hex digits after \\u in a string")
                    }
                    i += 6
                default:
                    throw ScanError(.invalidJSON, "invalid escape \\\(Byte.describe(base[i + 1])) in a string")
                }
            } else if c < 0x20 {
                throw ScanError(.invalidJSON, "unescaped control character \(Byte.describe(c)) in a string")
            } else if c < 0x80 {
                i += 1
            } else {
                i += try utf8SequenceLength(at: i)
            }
        }
        throw ScanError(.invalidJSON, "unterminated string")
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit set in each of the eight bytes of `w` (first byte lowest) that is a quote, a
    /// backslash, below 0x20 or above 0x7F. A byte after a flagged one may be flagged wrongly
    /// (a borrow runs on), never the first flagged byte: zero when no byte needs a look, and
    /// otherwise the lowest set bit marks the first that does.
    @inline(__always) static func needsLook(_ w: UInt64) -> UInt64 {
        @inline(__always) func hasZero(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        let control = (w &- ones &* 0x20) & ~w & highs
        let quote = hasZero(w ^ (ones &* UInt64(Byte.quote)))
        let backslash = hasZero(w ^ (ones &* UInt64(Byte.backslash)))
        return control | quote | backslash | (w & highs)
    }

    /// Length of the valid UTF-8 sequence starting with a non-ASCII byte at `j`.
    func utf8SequenceLength(at j: Int) throws(ScanError) -> Int {
        let b0 = base[j]
        @inline(__always) func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            j + k < count && base[j + k] >= lo && base[j + k] <= hi
        }
        let ok: Bool
        let n: Int
        switch b0 {
        case 0xC2...0xDF: n = 2; ok = cont(1)
        case 0xE0: n = 3; ok = cont(1, 0xA0) && cont(2)
        case 0xE1...0xEC, 0xEE...0xEF: n = 3; ok = cont(1) && cont(2)
        case 0xED: n = 3; ok = cont(1, 0x80, 0x9F) && cont(2)
        case 0xF0: n = 4; ok = cont(1, 0x90) && cont(2) && cont(3)
        case 0xF1...0xF3: n = 4; ok = cont(1) && cont(2) && cont(3)
        case 0xF4: n = 4; ok = cont(1, 0x80, 0x8F) && cont(2) && cont(3)
        default: n = 1; ok = false
        }
        guard ok else {
            throw ScanError(.invalidEncoding, "invalid UTF-8 byte sequence starting with \(Byte.describe(b0)) in a string")
        }
        return n
    }

    private static func hex4(_ base: UnsafePointer<UInt8>, at j: Int) -> UInt32? {
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = base[j + k]
            let d: UInt8
            switch c {
            case Byte.zero...Byte.nine: d = c - Byte.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// The text of a scanned string, escapes resolved.
    @inline(__always) func decode(_ s: RawString) throws(ScanError) -> String { try Self.decode(s, base) }

    /// `decode(_:)` of the scanner over `base`: static, so a caller in the middle of a mutating
    /// method passes just the pointer, not a copy of the whole scanner.
    static func decode(_ s: RawString, _ base: UnsafePointer<UInt8>) throws(ScanError) -> String {
        let bytes = UnsafeBufferPointer(start: base + s.start, count: s.end - s.start)
        guard s.hasEscapes else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var j = s.start
        while j < s.end {
            let c = base[j]
            guard c == Byte.backslash else { out.append(c); j += 1; continue }
            let e = base[j + 1]
            j += 2
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(Byte.newline)
            case UInt8(ascii: "r"): out.append(Byte.cr)
            case UInt8(ascii: "t"): out.append(Byte.tab)
            case UInt8(ascii: "u"):
                var scalar = hex4(base, at: j)!
                j += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard j + 6 <= s.end, base[j] == Byte.backslash, base[j + 1] == UInt8(ascii: "u"),
                          let low = hex4(base, at: j + 2), (0xDC00...0xDFFF).contains(low) else {
                        throw ScanError(.invalidEncoding, "unpaired high surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string")
                    }
                    j += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw ScanError(.invalidEncoding, "unpaired low surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string")
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
            default: out.append(e)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads a string value.
    mutating func string() throws(ScanError) -> String {
        skipSpace()
        guard i < count, base[i] == Byte.quote else { throw unexpected(expected: "a string") }
        // Scanned first, then decoded: `decode(rawString())` would copy the whole scanner to
        // call `decode` on before `rawString` changes it.
        let raw = try rawString()
        return try decode(raw)
    }

    /// `string()` through the interner (a string with escapes is decoded as usual).
    mutating func sharedString() throws(ScanError) -> String {
        skipSpace()
        guard i < count, base[i] == Byte.quote else { throw unexpected(expected: "a string") }
        let raw = try rawString()
        guard !raw.hasEscapes else { return try decode(raw) }
        return interner.string(UnsafeBufferPointer(start: base + raw.start, count: raw.end - raw.start))
    }
}
