/// House-number order along a street: on one side of a block face, numbers grow steadily in
/// one direction. Fitting number against position among an address's neighbours tells where
/// along the street its own house should stand, which breaks ties between attached houses.
enum HouseNumbers {
    /// A house number as a number: digits kept in order, hyphens dropped ("82-45" → 8245,
    /// "123A" → 123); nil when it has no digits or a letter before its digits.
    static func value(_ s: String?) -> Double? {
        guard let s else { return nil }
        var v = 0.0, any = false
        for ch in s {
            if let d = ch.wholeNumberValue, ch.isASCII { v = v * 10 + Double(d); any = true }
            else if ch == "-" || ch == " " { continue }
            else if any { break } else { return nil }
        }
        return any ? v : nil
    }

    /// Least-squares fit of number = α + β·x over (x, number) pairs; returns the x where the
    /// fit reaches `target`, or nil when fewer than two distinct numbers or positions exist.
    static func expectedPosition(of target: Double, among pairs: [(x: Double, n: Double)]) -> Double? {
        guard pairs.count >= 2 else { return nil }
        let k = Double(pairs.count)
        let mx = pairs.reduce(0) { $0 + $1.x } / k, mn = pairs.reduce(0) { $0 + $1.n } / k
        var sxx = 0.0, sxn = 0.0
        for p in pairs { sxx += (p.x - mx) * (p.x - mx); sxn += (p.x - mx) * (p.n - mn) }
        guard sxx > 1e-6, abs(sxn) > 1e-9 else { return nil }
        let beta = sxn / sxx
        return mx + (target - mn) / beta
    }
}
