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
        var concordant = 0, discordant = 0
        for i in pairs.indices {
            for j in pairs.indices where j > i {
                let dx = pairs[j].x - pairs[i].x, dn = pairs[j].n - pairs[i].n
                guard abs(dx) >= apart, dn != 0 else { continue }
                if (dx > 0) == (dn > 0) { concordant += 1 } else { discordant += 1 }
            }
        }
        guard concordant + discordant > 0 else { return nil }
        return Double(abs(concordant - discordant)) / Double(concordant + discordant)
    }
}
