import Foundation

/// The other names a road segment carries besides its primary one: Overture's `names.common`
/// (the name in other languages: "Mannerheimvägen" beside "Mannerheimintie") and the values of
/// `names.rules` (official, alternate and short names). An address naming its street by one of
/// them is read as naming the segment's primary name, where that reading is the only one: the
/// name is no segment's primary name, and every segment carrying it as another name has the
/// same primary name. A rule scoped to a part or one side of its segment (`between`, `side`)
/// names the whole segment here.
enum StreetAliases {
    /// The street keys of `addresses` (`StreetName.normalize`), each other name of a road read
    /// as that road's primary key.
    static func addressKeys(_ addresses: [Address], segments: [Segment]) -> [String?] {
        addressKeys(addresses, aliases: aliases(segments, StreetName.keys(of: segments)))
    }

    /// The same with the table of `aliases` made already.
    static func addressKeys(_ addresses: [Address], aliases table: [String: String]) -> [String?] {
        let keys = StreetName.keys(of: addresses)
        guard !table.isEmpty else { return keys }
        return keys.map { k in k.flatMap { table[$0] } ?? k }
    }

    /// Other name's key → the one primary key it stands for.
    static func aliases(_ segments: [Segment], _ segmentKeys: [String?]) -> [String: String] {
        var primaries = Set<String>()
        for case let k? in segmentKeys { primaries.insert(k) }
        var found: [String: String?] = [:]  // nil once two primary keys claim the name
        var read: [String: [String]] = [:]  // a street's segments share one names object
        for s in segments.indices {
            guard let primary = segmentKeys[s], let json = segments[s].namesJSON,
                  json.contains("common") || json.contains("rules") else { continue }
            let names = read[json] ?? otherNames(json)
            read[json] = names
            for name in names {
                guard let k = StreetName.normalize(name), k != primary, !primaries.contains(k) else { continue }
                if let claimed = found[k] {
                    if claimed != primary { found[k] = .some(nil) }
                } else {
                    found[k] = primary
                }
            }
        }
        return found.compactMapValues { $0 }
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
