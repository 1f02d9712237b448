import Foundation

/// The scanner's numbers: plain decimals read in one pass when that is exact, the rest by
/// the general path (`Double(String)`'s rules, as RFC 8259 writes them).
extension JSONScanner {
    private static let powersOf10: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads a number at `i` (after whitespace). Returns its value and its text's range.
    mutating func number() throws(ScanError) -> (value: Double, start: Int, end: Int) {
        skipSpace()
        if let fast = shortDecimal() { return fast }
        let start = i
        var negative = false
        if i < count, base[i] == Byte.minus { negative = true; i += 1 }
        guard i < count, Byte.isDigit(base[i]) else { throw unexpected(expected: "a digit") }
        var mantissa: UInt64 = 0
        var digits = 0  // significant digits kept in `mantissa`
        var exponent = 0
        var inexact = false
        @inline(__always) func add(_ d: UInt8, fraction: Bool) {
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                if mantissa != 0 { digits += 1 }
                if fraction { exponent -= 1 }
            } else {
                if d != 0 { inexact = true }
                if !fraction { exponent += 1 }
            }
        }
        if base[i] == Byte.zero {
            i += 1
            if i < count, Byte.isDigit(base[i]) { throw ScanError(.invalidJSON, "number with a leading zero") }
        } else {
            while i < count, Byte.isDigit(base[i]) { add(base[i] &- Byte.zero, fraction: false); i += 1 }
        }
        if i < count, base[i] == Byte.dot {
            i += 1
            guard i < count, Byte.isDigit(base[i]) else { throw unexpected(expected: "a digit after '.'") }
            while i < count, Byte.isDigit(base[i]) { add(base[i] &- Byte.zero, fraction: true); i += 1 }
        }
        if i < count, base[i] == Byte.lowerE || base[i] == Byte.upperE {
            i += 1
            var expNegative = false
            if i < count, base[i] == Byte.plus || base[i] == Byte.minus { expNegative = base[i] == Byte.minus; i += 1 }
            guard i < count, Byte.isDigit(base[i]) else { throw unexpected(expected: "a digit in the exponent") }
            var e = 0
            while i < count, Byte.isDigit(base[i]) {
                if e < 100_000 { e = e * 10 + Int(base[i] &- Byte.zero) }
                i += 1
            }
            exponent += expNegative ? -e : e
        }
        if i < count, let c = Optional(base[i]), c >= 0x80 || c.isASCIILetter {
            throw unexpected(expected: "the end of a number")
        }
        var value: Double
        if mantissa == 0 {
            value = 0
        } else if !inexact, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            value = Double(mantissa)
            value = exponent < 0 ? value / Self.powersOf10[-exponent] : value * Self.powersOf10[exponent]
        } else {
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
            return (Double(text) ?? .nan, start, i)
        }
        return (negative ? -value : value, start, i)
    }

    /// The common number, read in one pass: an optional minus, an integer part without a
    /// leading zero (or a lone zero), an optional fraction, no exponent, at most 19 digits in
    /// all, and exactly representable as digits over a power of ten (mantissa at most 2^53,
    /// at most 22 fraction digits). Nil, with nothing consumed, for anything else, which
    /// `number()` then reads in full (and checks).
    @inline(__always) mutating func shortDecimal() -> (value: Double, start: Int, end: Int)? {
        let start = i
        var j = i
        let negative = j < count && base[j] == Byte.minus
        if negative { j += 1 }
        let intStart = j
        var mantissa: UInt64 = 0
        while j < count, Byte.isDigit(base[j]) { mantissa = mantissa &* 10 &+ UInt64(base[j] &- Byte.zero); j += 1 }
        let intDigits = j - intStart
        guard intDigits > 0, intDigits == 1 || base[intStart] != Byte.zero else { return nil }
        var fractionDigits = 0
        if j < count, base[j] == Byte.dot {
            j += 1
            let fracStart = j
            while j < count, Byte.isDigit(base[j]) { mantissa = mantissa &* 10 &+ UInt64(base[j] &- Byte.zero); j += 1 }
            fractionDigits = j - fracStart
            guard fractionDigits > 0 else { return nil }
        }
        guard intDigits + fractionDigits <= 19, mantissa <= 1 << 53, fractionDigits <= 22 else { return nil }
        if j < count {
            let c = base[j]
            guard c != Byte.lowerE, c != Byte.upperE, c < 0x80, !c.isASCIILetter else { return nil }
        }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= Self.powersOf10[fractionDigits] }
        i = j
        return (negative ? -value : value, start, j)
    }

    /// The text of `start..<end` as read.
    @inline(__always) func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
    }
}

private extension UInt8 {
    var isASCIILetter: Bool { (self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "z") }
}
