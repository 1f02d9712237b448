import Foundation

/// The addresses of an extract indexed the way a recipient list is looked up: by normalised
/// street (`StreetName.normalize`), then by house-number key (`HouseNumber.key`).
public struct AddressBook: Sendable {
    public let addresses: [Address]
    /// Street key → house-number key → address indices.
    var streets: [String: [String: [Int32]]] = [:]
    /// Alphabetic words of the street keys (4 letters or more), for spelling corrections.
    var words: [String] = []
    /// By address: its `HouseNumber.written`, unit key and postcode, worked out once.
    var written: [String] = []
    var units: [String?] = []
    /// By address: its city's key (`postal_city`, else the second of `address_levels`).
    var cities: [String?] = []
    /// Another name's key → the primary key of the road carrying it (`StreetAliases`: Overture's
    /// `names.common` and `names.rules` of the segments given); empty without segments.
    var aliases = StreetAliases.Table()

    /// The addresses indexed; with `segments`, an address naming its street by another of its
    /// road's names is filed under the road's primary name, and a row may name it either way.
    public init(_ addresses: [Address], segments: [Segment] = []) {
        self.addresses = addresses
        aliases = StreetAliases.aliases(segments, StreetName.keys(of: segments))
        let keys = StreetAliases.addressKeys(addresses, aliases: aliases)
        var numbers = TextMemo<HouseNumber?>()
        var wordSet: Set<String> = [], levelCities = TextMemo<String?>()
        written.reserveCapacity(addresses.count); units.reserveCapacity(addresses.count)
        for (i, a) in addresses.enumerated() {
            let n = a.number.flatMap { numbers.value($0, HouseNumber.init) }
            written.append(n?.written ?? ""); units.append(UnitKey.make(a.unit))
            cities.append(a.postalCity.flatMap(StreetName.normalize) ?? a.addressLevelsJSON.flatMap { levelCities.value($0, Self.city) })
            guard let key = keys[i], let n else { continue }
            if streets[key] == nil {
                for w in key.split(separator: " ") where w.count >= 4 && w.allSatisfy({ $0.isLetter }) { wordSet.insert(String(w)) }
            }
            streets[key, default: [:]][n.key, default: []].append(Int32(i))
        }
        words = wordSet.sorted()
    }

    /// The key of the city in `address_levels` ([{"value": region}, {"value": city}, …]).
    static func city(_ levelsJSON: String) -> String? {
        guard let levels = try? JSONSerialization.jsonObject(with: Data(levelsJSON.utf8)) as? [[String: Any]], levels.count > 1 else { return nil }
        return StreetName.normalize(levels[1]["value"] as? String)
    }

    /// How many distinct streets.
    public var streetCount: Int { streets.count }

    /// The street keys one spelling correction away from `key`: one alphabetic word of 4
    /// letters or more replaced by a word of the extract's streets (or a street-type word such
    /// as "street", or a direction) within `EditDistance.allowed` edits. Numbers are never corrected.
    func corrections(of key: String) -> [String] {
        let tokens = key.split(separator: " ").map(String.init)
        var found: Set<String> = []
        for (i, t) in tokens.enumerated() where t.count >= 4 && t.allSatisfy({ $0.isLetter }) {
            let allowed = EditDistance.allowed(t.count)
            let bytes = Array(t.utf8)
            var replacements: [String] = []
            for w in words where abs(w.count - t.count) <= allowed && EditDistance.within(bytes, Array(w.utf8), allowed) {
                replacements.append(w)
            }
            for (long, short) in StreetName.suffixes.merging(StreetName.directionals, uniquingKeysWith: { a, _ in a }) where long.count >= 4 && abs(long.count - t.count) <= allowed
                && EditDistance.within(bytes, Array(long.utf8), allowed) {
                replacements.append(short)
            }
            for r in replacements {
                var c = tokens; c[i] = r
                let k = c.joined(separator: " ")
                if k != key, streets[k] != nil { found.insert(k) }
            }
        }
        return found.sorted()
    }
}

/// Edit distance (Levenshtein with adjacent transpositions) between short words.
public enum EditDistance {
    /// Edits allowed in a word of `length` letters: 1, or 2 from 8 letters.
    public static func allowed(_ length: Int) -> Int { length >= 8 ? 2 : 1 }

    /// Whether `a` and `b` are at most `limit` edits apart.
    public static func within(_ a: [UInt8], _ b: [UInt8], _ limit: Int) -> Bool {
        distance(a, b) <= limit
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps
    /// of two neighbouring letters each count one.
    public static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        let w = b.count + 1
        var d = [Int](repeating: 0, count: (a.count + 1) * w)
        for j in 0...b.count { d[j] = j }
        for i in 1...a.count {
            d[i * w] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var v = min(d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1, d[(i - 1) * w + j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { v = min(v, d[(i - 2) * w + j - 2] + 1) }
                d[i * w + j] = v
            }
        }
        return d[a.count * w + b.count]
    }
}
