/// A problem found while scanning one complete JSON value; the reader adds file, line,
/// feature index and id to make it an `InputError`.
struct ScanError: Error {
    var kind: InputError.Kind
    var detail: String
    init(_ kind: InputError.Kind, _ detail: String) { self.kind = kind; self.detail = detail }
}

/// ASCII bytes the scanner compares against.
enum Byte {
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), slash = UInt8(ascii: "/")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":"), minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+"), dot = UInt8(ascii: "."), zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r"), recordSeparator: UInt8 = 0x1E
    static let lowerE = UInt8(ascii: "e"), upperE = UInt8(ascii: "E")
    static let t = UInt8(ascii: "t"), f = UInt8(ascii: "f"), n = UInt8(ascii: "n")

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c &- zero < 10 }
    @inline(__always) static func isSpace(_ c: UInt8) -> Bool {
        c == space || c == newline || c == cr || c == tab
    }
    /// How a byte reads in an error message.
    static func describe(_ c: UInt8?) -> String {
        guard let c else { return "end of input" }
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x" + String(c, radix: 16, uppercase: true)
    }
}

/// The JSON type of a value, named by its first byte.
enum JSONKind: String {
    case object, array, string, number, boolean, null

    init?(first c: UInt8) {
        switch c {
        case Byte.openBrace: self = .object
        case Byte.openBracket: self = .array
        case Byte.quote: self = .string
        case Byte.minus, Byte.zero...Byte.nine: self = .number
        case Byte.t, Byte.f: self = .boolean
        case Byte.n: self = .null
        default: return nil
        }
    }
}

/// A string token as it lies in the input: `start..<end` excludes the quotes.
struct RawString {
    var start: Int
    var end: Int
    var hasEscapes: Bool
}

/// Buffers a scanner gathers a feature in: its geometry's positions, and for polygons where
/// each ring and each part ends (`reset()` before each geometry); and the values of its
/// layer's properties, in slot order (set by `feature(_:knownID:)`).
struct FeatureScratch {
    var positions: [Coord] = []
    var ringEnds: [Int32] = []
    var partEnds: [Int32] = []
    var properties: [PropertyValue?] = []
    mutating func reset() {
        positions.removeAll(keepingCapacity: true)
        ringEnds.removeAll(keepingCapacity: true)
        partEnds.removeAll(keepingCapacity: true)
    }
}

/// A validating byte-level JSON scanner over one complete value held in memory.
///
/// Strings are checked for UTF-8 validity and control characters, numbers against the JSON
/// grammar. Numbers with at most 19 significant digits and a small exponent are converted
/// directly (exactly, as `Double(String)` would); others go through `Double(String)`.
struct JSONScanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    var i: Int
    /// Where a feature is gathered before its parts are copied out at their exact size; a
    /// reader lends the same buffers to the scanner of each feature.
    var scratch = FeatureScratch()
    /// Makes the strings of properties whose values recur; lent like `scratch`.
    var interner = StringInterner()
    private var depth = 0
    static let maxDepth = 512

    init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) }
            ?? UnsafePointer(bitPattern: 1)!
        count = bytes.count
        i = 0
    }

    // MARK: Bytes

    @inline(__always) var peek: UInt8? { i < count ? base[i] : nil }

    @inline(__always) mutating func skipSpace() {
        while i < count, Byte.isSpace(base[i]) { i += 1 }
    }

    /// Skips whitespace and returns the next byte without consuming it.
    @inline(__always) mutating func nextNonSpace() throws(ScanError) -> UInt8 {
        skipSpace()
        guard i < count else { throw ScanError(.invalidJSON, "expected a value, found end of feature") }
        return base[i]
    }

    @inline(__always) mutating func expect(_ c: UInt8, _ what: String) throws(ScanError) {
        skipSpace()
        guard i < count, base[i] == c else { throw unexpected(expected: what) }
        i += 1
    }

    func unexpected(expected what: String) -> ScanError {
        if let word = nonFiniteWord {
            return ScanError(.invalidJSON, "expected \(what), found \(word): NaN and Infinity are not JSON numbers")
        }
        return ScanError(.invalidJSON, "expected \(what), found \(Byte.describe(peek))")
    }

    /// `NaN` or `Infinity` at `i` (JavaScript writes them; JSON does not allow them); nil otherwise.
    private var nonFiniteWord: String? {
        for word in ["NaN", "Infinity"] {
            let bytes = Array(word.utf8)
            if i + bytes.count <= count, (0..<bytes.count).allSatisfy({ base[i + $0] == bytes[$0] }) { return word }
        }
        return nil
    }

    /// Skips a literal (`true`, `false`, `null`) whose first byte is at `i`.
    mutating func literal(_ word: StaticString) throws(ScanError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= count, memcmp(base + i, word.utf8Start, n) == 0 else {
            throw unexpected(expected: "a JSON value")
        }
        i += n
    }

    // MARK: Objects and arrays

    /// Consumes `{`; returns false (after consuming `}`) when the object is empty.
    mutating func beginObject() throws(ScanError) -> Bool {
        try expect(Byte.openBrace, "'{'")
        skipSpace()
        if i < count, base[i] == Byte.closeBrace { i += 1; return false }
        return true
    }

    /// Reads a member's key and the colon after it.
    mutating func key() throws(ScanError) -> RawString {
        skipSpace()
        guard i < count, base[i] == Byte.quote else { throw unexpected(expected: "a member name in quotes") }
        let k = try rawString()
        try expect(Byte.colon, "':' after a member name")
        skipSpace()
        return k
    }

    /// After a member or element: true when another follows (`,` consumed), false at `close`.
    mutating func more(_ close: UInt8) throws(ScanError) -> Bool {
        skipSpace()
        guard i < count else { throw ScanError(.invalidJSON, "expected ',' or '\(Character(Unicode.Scalar(close)))', found end of feature") }
        let c = base[i]
        i += 1
        if c == Byte.comma { return true }
        if c == close { return false }
        i -= 1
        throw unexpected(expected: "',' or '\(Character(Unicode.Scalar(close)))'")
    }

    /// Consumes `[`; returns false (after consuming `]`) when the array is empty.
    mutating func beginArray() throws(ScanError) -> Bool {
        try expect(Byte.openBracket, "'['")
        skipSpace()
        if i < count, base[i] == Byte.closeBracket { i += 1; return false }
        return true
    }

    /// True when a raw key equals `literal` byte for byte (keys with escapes are decoded first).
    func keyIs(_ k: RawString, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        if !k.hasEscapes {
            guard k.end - k.start == n else { return false }
            let a = base + k.start, b = literal.utf8Start
            for j in 0..<n where a[j] != b[j] { return false }
            return true
        }
        guard let decoded = try? decode(k) else { return false }
        return decoded.utf8.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: n))
    }

    // MARK: Skipping and capturing

    /// Skips any value, validating it.
    mutating func skipValue() throws(ScanError) {
        skipSpace()
        if i < count, base[i] == Byte.openBrace || base[i] == Byte.openBracket {
            // Objects and arrays (the raw `sources`, `names`, `address_levels`) in one loop;
            // on anything wrong, read again by the recursive path, which reports it.
            let start = i
            if skipNestedFast() { return }
            i = start
        }
        try skipValueChecked()
    }

    /// `skipValue()` for the object or array at `i`, without recursion: true when it is valid
    /// JSON and was skipped; false, with `i` anywhere, on any error or beyond `maxDepth`.
    private mutating func skipNestedFast() -> Bool {
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: Self.maxDepth) { isObject in
            var depth = 0
            var expectKey = false  // the next token is a member name (after '{' or ',' in an object)
            while true {
                skipSpace()
                guard i < count else { return false }
                if expectKey {
                    guard base[i] == Byte.quote, (try? rawString()) != nil else { return false }
                    skipSpace()
                    guard i < count, base[i] == Byte.colon else { return false }
                    i += 1
                    expectKey = false
                    continue
                }
                // A value.
                let c = base[i]
                switch c {
                case Byte.openBrace, Byte.openBracket:
                    guard depth + self.depth < Self.maxDepth else { return false }
                    isObject[depth] = c == Byte.openBrace
                    depth += 1
                    i += 1
                    skipSpace()
                    guard i < count else { return false }
                    if base[i] == (c == Byte.openBrace ? Byte.closeBrace : Byte.closeBracket) {
                        i += 1
                        depth -= 1
                    } else {
                        expectKey = c == Byte.openBrace
                        continue
                    }
                case Byte.quote:
                    guard (try? rawString()) != nil else { return false }
                case Byte.t:
                    guard (try? literal("true")) != nil else { return false }
                case Byte.f:
                    guard (try? literal("false")) != nil else { return false }
                case Byte.n:
                    guard (try? literal("null")) != nil else { return false }
                case Byte.minus, Byte.zero...Byte.nine:
                    guard (try? number()) != nil else { return false }
                default:
                    return false
                }
                // After a value: close as many containers as end here, then a comma or the end.
                while true {
                    if depth == 0 { return true }
                    skipSpace()
                    guard i < count else { return false }
                    let d = base[i]
                    i += 1
                    if d == Byte.comma { expectKey = isObject[depth - 1]; break }
                    guard d == (isObject[depth - 1] ? Byte.closeBrace : Byte.closeBracket) else { return false }
                    depth -= 1
                }
            }
        }
    }

    /// Skips any value, validating it and reporting the first error.
    private mutating func skipValueChecked() throws(ScanError) {
        let c = try nextNonSpace()
        switch c {
        case Byte.quote:
            _ = try rawString()
        case Byte.openBrace:
            depth += 1
            guard depth <= Self.maxDepth else { throw ScanError(.invalidJSON, "nesting deeper than \(Self.maxDepth)") }
            if try beginObject() {
                repeat {
                    _ = try key()
                    try skipValueChecked()
                } while try more(Byte.closeBrace)
            }
            depth -= 1
        case Byte.openBracket:
            depth += 1
            guard depth <= Self.maxDepth else { throw ScanError(.invalidJSON, "nesting deeper than \(Self.maxDepth)") }
            if try beginArray() {
                repeat { try skipValueChecked() } while try more(Byte.closeBracket)
            }
            depth -= 1
        case Byte.t: try literal("true")
        case Byte.f: try literal("false")
        case Byte.n: try literal("null")
        case Byte.minus, Byte.zero...Byte.nine: _ = try number()
        default: throw unexpected(expected: "a JSON value")
        }
    }

    /// Skips a value and returns its exact text.
    mutating func rawValue() throws(ScanError) -> String {
        skipSpace()
        let start = i
        try skipValue()
        return String(decoding: UnsafeBufferPointer(start: base + start, count: i - start), as: UTF8.self)
    }

    /// `rawValue()` through the interner.
    mutating func sharedRawValue() throws(ScanError) -> String {
        skipSpace()
        let start = i
        try skipValue()
        return interner.string(UnsafeBufferPointer(start: base + start, count: i - start))
    }

    /// The kind of the next value (after whitespace), without consuming it.
    mutating func nextKind() throws(ScanError) -> JSONKind {
        let c = try nextNonSpace()
        guard let kind = JSONKind(first: c) else { throw unexpected(expected: "a JSON value") }
        return kind
    }

    // MARK: Strings

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

    // MARK: Numbers

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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
