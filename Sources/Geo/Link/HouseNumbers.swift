/// House-number order along a street: on one side of a block face, numbers grow steadily in
/// one direction. Fitting number against position among an address's neighbours tells where
/// along the street its own house should stand, which breaks ties between attached houses.
public enum HouseNumbers {
    /// A house number as a number: digits kept in order, hyphens dropped ("82-45" → 8245,
    /// "123A" → 123); nil when it has no digits or a letter before its digits.
    public static func value(_ s: String?) -> Double? {
        guard let s else { return nil }
        var v = 0.0, any = false
        // ASCII text byte by byte (no grapheme breaking); anything else by Character below.
        var ascii = true
        bytes: for c in s.utf8 {
            switch c {
            case 48...57: v = v * 10 + Double(c - 48); any = true
            case 45, 32: continue
            case 0x80...: ascii = false; break bytes
            default: return any ? v : nil
            }
        }
        if ascii { return any ? v : nil }
        v = 0; any = false
        for ch in s {
            if let d = ch.wholeNumberValue, ch.isASCII { v = v * 10 + Double(d); any = true }
            else if ch == "-" || ch == " " { continue }
            else if any { break } else { return nil }
        }
        return any ? v : nil
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
}
