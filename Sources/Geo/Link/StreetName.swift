import Foundation

/// Street names reduced to a comparable key: case, accents and punctuation folded, the common
/// suffixes and directionals abbreviated, ordinals written as plain numbers ("North 204th
/// Street" and "N 204 St." give "n 204 st"; "Hauptstraße" and "Haupt Str." give "haupt st").
/// An empty or missing name has no key (nil).
public enum StreetName {
    public static func normalize(_ name: String?) -> String? {
        guard let name else { return nil }
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return map(asciiTokens(name)) }
        var tokens: [String] = []
        var current = ""
        let folded = name.replacingOccurrences(of: "ß", with: "ss").replacingOccurrences(of: "ẞ", with: "ss")
            .folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var wasCJK = false
        for ch in folded.lowercased() {
            if ch.isLetter || ch.isNumber {
                // A word of Chinese, Japanese or Korean script and one of another script are two
                // words, with or without a space between ("炮兵街Rua dos Artilheiros").
                let isCJK = StreetName.isCJK(ch)
                if isCJK != wasCJK, !current.isEmpty { tokens.append(current); current = "" }
                wasCJK = isCJK
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

    /// True for a character of Chinese, Japanese or Korean script (Han ideographs, kana,
    /// hangul), which names write without spaces.
    static func isCJK(_ ch: Character) -> Bool {
        guard let v = ch.unicodeScalars.first?.value else { return false }
        return (0x2E80...0x2FDF).contains(v) || (0x3040...0x30FF).contains(v) || (0x3400...0x4DBF).contains(v)
            || (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7AF).contains(v) || (0xF900...0xFAFF).contains(v)
            || (0x20000...0x3FFFF).contains(v)
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

    /// The keys of the segments' primary names, read in place as `keys(of:)` reads addresses'.
    public static func keys(of segments: [Segment]) -> [String?] {
        keys(from: segments.indices.lazy.map { segments[$0].name })
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
        let tokens = tokens.flatMap(splitCompound)
        let mapped = tokens.enumerated().map { (i, t) -> String in
            if let s = suffixes[t] { return s }
            if let n = cardinal(t) { return n }
            // Directionals only as a first or last word, so "East End Avenue" keeps its name.
            if i == 0 || i == tokens.count - 1, let d = directionals[t] { return d }
            return t
        }
        return mapped.joined(separator: " ")
    }

    /// "73rd" → "73", "1st" → "1": digits followed by an English ordinal ending; nil otherwise.
    static func cardinal(_ t: String) -> String? {
        let u = t.utf8
        guard u.count >= 3, let first = u.first, first >= 48, first <= 57 else { return nil }
        let end = String(t.suffix(2))
        guard ["st", "nd", "rd", "th"].contains(end) else { return nil }
        let digits = t.dropLast(2)
        return digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) ? String(digits) : nil
    }

    /// A German compound split off its street word: "hauptstrasse" and "hauptstr" → ["haupt",
    /// "strasse"/"str"]; any other token as it is.
    static func splitCompound(_ t: String) -> [String] {
        for end in ["strasse", "str"] where t.count >= end.count + 3 && t.hasSuffix(end) {
            let stem = String(t.dropLast(end.count))
            if stem.utf8.allSatisfy({ $0 >= 97 && $0 <= 122 }) { return [stem, end] }
        }
        return [t]
    }

    static let suffixes: [String: String] = [
        "strasse": "st",
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
