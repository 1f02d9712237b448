/// Street names reduced to a comparable key: case and punctuation folded, the common suffixes
/// and directionals abbreviated ("North 204th Street" and "N 204th St." give "n 204th st").
/// An empty or missing name has no key (nil).
public enum StreetName {
    public static func normalize(_ name: String?) -> String? {
        guard let name else { return nil }
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return map(asciiTokens(name)) }
        var tokens: [String] = []
        var current = ""
        for ch in name.lowercased() {
            if ch.isLetter || ch.isNumber {
                current.append(ch)
            } else if ch == "'" || ch == "’" || ch == "." {
                continue  // O'Connor → oconnor, St. → st
            } else if !current.isEmpty {
                tokens.append(current); current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return map(tokens)
    }

    /// `normalize` of each name, each distinct name worked out once (a city's addresses share
    /// a few thousand street names).
    public static func keys<S: Sequence>(_ names: S) -> [String?] where S.Element == String? {
        keys(from: names)
    }

    /// The street keys of addresses, read in place (not generic, so callers in other modules
    /// do not go through a sequence's witness tables address by address).
    public static func keys(of addresses: [Address]) -> [String?] {
        keys(from: addresses.indices.lazy.map { addresses[$0].street })
    }

    @inline(__always)
    private static func keys<S: Sequence>(from names: S) -> [String?] where S.Element == String? {
        var memo = TextMemo<String?>()
        return names.map { name in name.flatMap { memo.value($0, normalize) } }
    }

    /// The same tokens for ASCII text, byte by byte (no Unicode property look-ups).
    static func asciiTokens(_ name: String) -> [String] {
        var tokens: [String] = []
        var current: [UInt8] = []
        for var c in name.utf8 {
            if c >= 65 && c <= 90 { c += 32 }
            if (c >= 97 && c <= 122) || (c >= 48 && c <= 57) {
                current.append(c)
            } else if c == 39 || c == 46 {
                continue
            } else if !current.isEmpty {
                tokens.append(String(decoding: current, as: UTF8.self)); current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { tokens.append(String(decoding: current, as: UTF8.self)) }
        return tokens
    }

    static func map(_ tokens: [String]) -> String? {
        guard !tokens.isEmpty else { return nil }
        let mapped = tokens.enumerated().map { (i, t) -> String in
            if let s = suffixes[t] { return s }
            // Directionals only as a first or last word, so "East End Avenue" keeps its name.
            if i == 0 || i == tokens.count - 1, let d = directionals[t] { return d }
            return t
        }
        return mapped.joined(separator: " ")
    }

    static let suffixes: [String: String] = [
        "street": "st", "str": "st", "avenue": "ave", "av": "ave", "avn": "ave", "road": "rd",
        "drive": "dr", "drv": "dr", "court": "ct", "crt": "ct", "lane": "ln", "place": "pl",
        "boulevard": "blvd", "boul": "blvd", "blv": "blvd", "terrace": "ter", "terr": "ter",
        "parkway": "pkwy", "pky": "pkwy", "pkway": "pkwy", "highway": "hwy", "hiway": "hwy",
        "circle": "cir", "circ": "cir", "square": "sq", "expressway": "expy", "expwy": "expy",
        "turnpike": "tpke", "crescent": "cres", "trail": "trl", "alley": "aly", "plaza": "plz",
        "way": "way", "walk": "walk", "path": "path", "loop": "loop", "row": "row", "mall": "mall",
        "course": "crse", "crossing": "xing", "point": "pt", "heights": "hts", "center": "ctr",
        "centre": "ctr", "extension": "ext", "freeway": "fwy", "route": "rte", "service": "svc",
    ]
    static let directionals: [String: String] = [
        "north": "n", "south": "s", "east": "e", "west": "w",
        "northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw",
    ]
}
