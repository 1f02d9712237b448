import Foundation

/// The other names a road segment carries besides its primary one: Overture's `names.common`
/// (the name in other languages: "Mannerheimvägen" beside "Mannerheimintie") and the values of
/// `names.rules` (official, alternate and short names). An address naming its street by one of
/// them is read as naming the segment's primary name, where that reading is the only one: the
/// name is no segment's primary name, and every segment carrying it as another name has the
/// same primary name. A rule scoped to a part or one side of its segment (`between`, `side`)
/// names the whole segment here. So does a part of a primary name that holds several
/// (`parts`: a bilingual "Rue Neuve - Nieuwstraat", a parenthesised alternate), and an address
/// whose name holds several is read as naming the one road its parts name.
enum StreetAliases {
    /// The names of the roads and what each stands for.
    struct Table: Sendable {
        /// Another name's key → the one primary key it stands for.
        var names: [String: String] = [:]
        /// Every segment's primary key.
        var primaries: Set<String> = []

        subscript(key: String) -> String? { names[key] }

        /// The street key of an address naming its street `name`: its own key where a road
        /// carries it as its primary name or where it is no other name of a road (nil for an
        /// empty name), else the primary key of the one road it names: by another name, or by
        /// the parts of the name (`parts`) that name one road and no other.
        func key(of name: String?) -> String? {
            guard let k = StreetName.normalize(name), let name else { return nil }
            if primaries.contains(k) { return k }
            if let p = names[k] { return p }
            let named = Set(StreetAliases.parts(name).compactMap { StreetName.normalize($0).flatMap { names[$0] } })
            return named.count == 1 ? named.first! : k
        }
    }

    /// The street keys of `addresses` (`StreetName.normalize`), each other name of a road read
    /// as that road's primary key.
    static func addressKeys(_ addresses: [Address], segments: [Segment]) -> [String?] {
        addressKeys(addresses, aliases: aliases(segments, StreetName.keys(of: segments)))
    }

    /// The same with the table of `aliases` made already.
    static func addressKeys(_ addresses: [Address], aliases table: Table) -> [String?] {
        guard !table.names.isEmpty else { return StreetName.keys(of: addresses) }
        var memo = TextMemo<String?>()
        return addresses.indices.map { i in addresses[i].street.flatMap { memo.value($0, table.key(of:)) } }
    }

    /// Each other name of a road (`names.common`, the values of `names.rules`) and each part of
    /// its primary name (`parts`) that no road carries as its primary name, keyed to the
    /// primary key of the road carrying it where only one primary key claims it.
    static func aliases(_ segments: [Segment], _ segmentKeys: [String?]) -> Table {
        var primaries = Set<String>()
        for case let k? in segmentKeys { primaries.insert(k) }
        var found: [String: String?] = [:]  // nil once two primary keys claim the name
        // A street's segments share one name and one names object: each read once.
        var partsOf: [String: [String]] = [:], otherOf: [String: [String]] = [:]
        for s in segments.indices {
            guard let primary = segmentKeys[s] else { continue }
            var names: [String] = []
            if let name = segments[s].name {
                names = partsOf[name] ?? parts(name)
                partsOf[name] = names
            }
            if let json = segments[s].namesJSON, json.contains("common") || json.contains("rules") {
                let other = otherOf[json] ?? otherNames(json)
                otherOf[json] = other
                names += other
            }
            for name in names {
                guard let k = StreetName.normalize(name), k != primary, !primaries.contains(k) else { continue }
                if let claimed = found[k] {
                    if claimed != primary { found[k] = .some(nil) }
                } else {
                    found[k] = primary
                }
            }
        }
        return Table(names: found.compactMapValues { $0 }, primaries: primaries)
    }

    /// The names one road name holds besides itself: the name without its parenthesised names
    /// ("夜呣斜巷(崗頂斜路) Calçada do Gamboa" → "夜呣斜巷 Calçada do Gamboa"), each side of a
    /// spaced " - ", " – ", " — " or " / " ("Rue Neuve - Nieuwstraat"), each run of Chinese,
    /// Japanese or Korean script and each run of other script in a side ("十月初五日街 Rua de
    /// Cinco de Outubro" → "十月初五日街", "Rua de Cinco de Outubro"), and each parenthesised
    /// name. None for a name that holds no other.
    static func parts(_ name: String) -> [String] {
        var outside = "", inside: [String] = [], current = "", depth = 0
        for ch in name {
            if ch == "(" || ch == "（" {
                depth += 1; current = ""; outside.append(" ")
            } else if (ch == ")" || ch == "）") && depth > 0 {
                depth -= 1; inside.append(current); current = ""; outside.append(" ")
            } else if depth > 0 {
                current.append(ch)
            } else {
                outside.append(ch)
            }
        }
        let words = outside.split(whereSeparator: \.isWhitespace)
        var out = inside.isEmpty ? [] : [words.joined(separator: " ")]
        // The sides of a separator standing between spaces.
        var sides: [[Substring]] = [[]]
        for w in words {
            if ["-", "–", "—", "/"].contains(w) { sides.append([]) } else { sides[sides.count - 1].append(w) }
        }
        sides = sides.filter { !$0.isEmpty }
        if sides.count > 1 { out += sides.map { $0.joined(separator: " ") } }
        for side in sides { out += scriptRuns(side.joined(separator: " ")) }
        out += inside
        var seen = Set<String>()
        return out.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != name && seen.insert($0).inserted }
    }

    /// The runs of Chinese, Japanese or Korean script and of other script in `text`, spaces
    /// and punctuation going with the run they stand in; none when it holds one script only.
    static func scriptRuns(_ text: String) -> [String] {
        var runs: [String] = [], kind: Bool? = nil
        for ch in text {
            guard ch.isLetter || ch.isNumber else {
                if !runs.isEmpty { runs[runs.count - 1].append(ch) }
                continue
            }
            let cjk = StreetName.isCJK(ch)
            if cjk != kind { runs.append(""); kind = cjk }
            runs[runs.count - 1].append(ch)
        }
        return runs.count > 1 ? runs : []
    }

    /// The names of `common` and the values of `rules` in an Overture `names` object.
    static func otherNames(_ json: String) -> [String] {
        guard let o = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else { return [] }
        var names: [String] = []
        if let common = o["common"] as? [String: Any] { names += common.values.compactMap { $0 as? String } }
        if let rules = o["rules"] as? [[String: Any]] { names += rules.compactMap { $0["value"] as? String } }
        return names
    }
}
