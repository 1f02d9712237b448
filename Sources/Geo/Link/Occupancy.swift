/// What the house numbers on a footprint cost: a single-family footprint holds one household.
/// A house key is "number|street" (`FeatureAttributes.houseKeys`): units of one number share a key,
/// and a number within a range of its street takes the range's (`HouseNumbers.householdKeys`).
struct Occupancy {
    /// Each number beyond the first along one street (a second household).
    var second: Double
    /// Each street beyond the first (a corner footprint numbered on its cross street).
    var corner: Double

    /// The street part of a house key.
    static func street(of key: String) -> Substring {
        // Byte by byte: "|" is one byte, and a search by characters costs several times more
        // (the assignment asks this for every key a candidate footprint holds, again and again).
        let bytes = key.utf8
        guard let bar = bytes.firstIndex(of: UInt8(ascii: "|")) else { return Substring(key) }
        return key[bytes.index(after: bar)...]
    }

    /// How many of the keys are of `street` (`street(of:)`).
    static func count(on street: Substring, _ keys: some Collection<String>) -> Int {
        keys.reduce(0) { $0 + (Self.street(of: $1) == street ? 1 : 0) }
    }

    /// How many streets the distinct keys name.
    private static func streets(_ keys: some Collection<String>) -> Int { Set(keys.map { street(of: $0) }).count }

    /// The cost of a footprint holding these distinct keys.
    func cost(_ keys: some Collection<String>) -> Double {
        let streets = Self.streets(keys)
        return second * Double(keys.count - streets) + corner * Double(max(0, streets - 1))
    }

    /// What `key` adds to the cost of a footprint holding `held` (distinct keys; `key` itself
    /// is left out of them): nothing for its own number, `second` for another number of its
    /// street, `corner` for numbers of other streets only.
    func added(_ key: String, to held: some Sequence<String>) -> Double {
        var mine: Substring?  // worked out only when the footprint holds another key
        for h in held where h != key {
            let s = mine ?? Self.street(of: key)
            mine = s
            if Self.street(of: h) == s { return second }
        }
        return mine == nil ? 0 : corner
    }
}
