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
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
