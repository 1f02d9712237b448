/// House-number order along a street: on one side of a block face, numbers grow steadily in
/// one direction. Fitting number against position among an address's neighbours tells where
/// along the street its own house should stand, which breaks ties between attached houses.
public enum HouseNumbers {
    /// A house number as a number, for its order along the street: the digits up to the first
    /// other character ("123A" → 123), or up to digits after a space ("12 1/2" → 12, after 12
    /// and before 13 by its text). Parts between hyphens are a block and a
    /// house where the data set numbers so (`blocks`, see `blockStyle`: Queens' "114-101" is
    /// 114101, after "114-99" and before "115-03", 115003), else a range, read as its first
    /// number ("12-14" → 12). Nil when it has no digits or a letter before its digits.
    public static func value(_ s: String?, blocks: Bool) -> Double? {
        guard let s else { return nil }
        var r = Reading()
        // ASCII text byte by byte (no grapheme breaking); anything else by Character below.
        var ascii = true, spaced = false
        bytes: for c in s.utf8 {
            switch c {
            case 48...57:
                if spaced && r.inPart { return r.value(blocks: blocks) }
                r.digit(Double(c - 48))
            case 45: r.hyphen(); spaced = false
            case 32: spaced = true
            case 0x80...: ascii = false; break bytes
            default: return r.value(blocks: blocks)
            }
        }
        if ascii { return r.value(blocks: blocks) }
        r = Reading()
        spaced = false
        for ch in s {
            if let d = ch.wholeNumberValue, ch.isASCII {
                if spaced && r.inPart { break }
                r.digit(Double(d))
            }
            else if ch == "-" { r.hyphen(); spaced = false }
            else if ch == " " { spaced = true }
            else if r.any { break } else { return nil }
        }
        return r.value(blocks: blocks)
    }

    /// True when most of `numbers` that have digits hold a hyphen: the data set writes block,
    /// hyphen, house (Queens' "197-02"); false where hyphens are rare and mark ranges ("12-14").
    public static func blockStyle<S: Sequence>(_ numbers: S) -> Bool where S.Element == String? {
        var hyphenated = 0, all = 0
        for case let n? in numbers where n.utf8.contains(where: { (48...57).contains($0) }) {
            all += 1
            if n.utf8.contains(45) { hyphenated += 1 }
        }
        return 2 * hyphenated > all
    }

    /// Each address's household key, "number|street" (units of one number are one household),
    /// where a number standing within a range of its street ("14" within "10-14", "1A" within
    /// "1-1C") takes the range's key: its building holds the range. Not where the data set writes
    /// block, hyphen, house (`blockStyle`), for a number two ranges of its street hold, or for
    /// one of the other parity than a range whose ends share theirs ("11" is not within "10-14").
    /// `inRange`: true for an address whose key is so a range's.
    static func householdKeys(numbers: [String?], streets: [String?]) -> (keys: [String], inRange: [Bool]) {
        let keys = numbers.indices.map { "\(numbers[$0] ?? "")|\(streets[$0] ?? "")" }
        var inRange = [Bool](repeating: false, count: keys.count)
        guard !blockStyle(numbers) else { return (keys, inRange) }
        let read = numbers.map { $0.flatMap(range) }
        var ranges: [String: [(lo: Part, hi: Part, key: String)]] = [:]
        for i in numbers.indices {
            if let street = streets[i], let r = read[i], r.lo < r.hi { ranges[street, default: []].append((r.lo, r.hi, keys[i])) }
        }
        guard !ranges.isEmpty else { return (keys, inRange) }
        var out = keys
        for i in numbers.indices where read[i] == nil {
            guard let street = streets[i], let within = ranges[street], let p = numbers[i].flatMap({ part($0[...]) }) else { continue }
            let holding = Set(within.filter { r in
                r.lo <= p && p <= r.hi && (r.lo.value % 2 != r.hi.value % 2 || p.value % 2 == r.lo.value % 2)
            }.map(\.key))
            if holding.count == 1 { out[i] = holding.first!; inRange[i] = true }
        }
        return (out, inRange)
    }

    /// A plain house number: digits and the letters after them ("12", "1C"), compared by the
    /// digits, then the letters.
    struct Part: Comparable {
        var value: Int, letters: String
        static func < (a: Part, b: Part) -> Bool { a.value != b.value ? a.value < b.value : a.letters < b.letters }
    }

    /// "12", "1C", "1 c": a plain house number; nil for anything else.
    static func part(_ s: Substring) -> Part? {
        let t = s.trimmingCharacters(in: .whitespaces)
        let digits = t.prefix { $0.isASCII && $0.isNumber }
        let rest = t.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.count < 7, rest.allSatisfy({ $0.isLetter }), rest.count <= 2 else { return nil }
        return Part(value: Int(digits)!, letters: rest.lowercased())
    }

    /// "10-14", "1-1C", "2A – 4": a range of plain numbers; nil for anything else.
    static func range(_ s: String) -> (lo: Part, hi: Part)? {
        let sides = s.split(whereSeparator: { $0 == "-" || $0 == "–" })
        guard sides.count == 2, let lo = part(sides[0]), let hi = part(sides[1]) else { return nil }
        return (lo, hi)
    }

    /// Every number's value, hyphens read in the style of the whole list (`blockStyle`).
    public static func values(_ numbers: [String?]) -> [Double?] {
        let blocks = blockStyle(numbers)
        return numbers.map { value($0, blocks: blocks) }
    }

    /// The digits of a number read so far, in parts between hyphens.
    private struct Reading {
        var part = 0.0, inPart = false
        var first = 0.0, folded = 0.0, parts = 0
        var any: Bool { inPart || parts > 0 }
        mutating func digit(_ d: Double) { part = part * 10 + d; inPart = true }
        mutating func hyphen() {
            guard inPart else { return }
            if parts == 0 { first = part; folded = part } else { folded = folded * 1000 + min(part, 999) }
            parts += 1
            part = 0; inPart = false
        }
        func value(blocks: Bool) -> Double? {
            var r = self
            r.hyphen()
            guard r.parts > 0 else { return nil }
            return blocks ? r.folded : r.first
        }
    }

    /// Where along the street a house with number `target` should stand, from neighbours
    /// given as (position, number): midway between the nearest lower and the nearest higher
    /// number (by number, then by distance). Gaps in the numbering do not distort it. Nil
    /// without a neighbour on each side.
    static func expectedPosition(of target: Double, among pairs: [(x: Double, n: Double)]) -> Double? {
        var lower: (x: Double, n: Double)? = nil, higher: (x: Double, n: Double)? = nil
        for p in pairs {
            if p.n < target {
                if lower == nil || p.n > lower!.n || (p.n == lower!.n && abs(p.x) < abs(lower!.x)) { lower = p }
            } else if p.n > target {
                if higher == nil || p.n < higher!.n || (p.n == higher!.n && abs(p.x) < abs(higher!.x)) { higher = p }
            }
        }
        guard let lower, let higher else { return nil }
        return (lower.x + higher.x) / 2
    }

    /// How steadily the numbers run along the street, either way: Kendall's tau of position
    /// against number, in absolute value, over the pairs of different numbers whose positions
    /// lie at least `apart` metres apart (1: every such pair in order; about 0: numbers given
    /// in no order along the street, as where houses were numbered as they were built). Nil
    /// when no pair is compared.
    static func agreement(_ pairs: [(x: Double, n: Double)], apart: Double) -> Double? {
        signedAgreement(pairs, apart: apart).map(abs)
    }

    /// `agreement` with its sign: above 0 where the numbers grow along the street's line,
    /// below 0 where they fall.
    static func signedAgreement(_ pairs: [(x: Double, n: Double)], apart: Double) -> Double? {
        var concordant = 0, discordant = 0
        for i in pairs.indices {
            for j in pairs.indices where j > i {
                let dx = pairs[j].x - pairs[i].x, dn = pairs[j].n - pairs[i].n
                guard abs(dx) >= apart, dn != 0 else { continue }
                if (dx > 0) == (dn > 0) { concordant += 1 } else { discordant += 1 }
            }
        }
        guard concordant + discordant > 0 else { return nil }
        return Double(concordant - discordant) / Double(concordant + discordant)
    }
}
