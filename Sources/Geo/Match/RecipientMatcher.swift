import Foundation

/// Why a row of a recipient list was not matched with confidence.
public enum ReviewReason: String, Sendable, CaseIterable {
    case noStreet = "no_street"
    case noNumber = "no_number"
    case streetNotFound = "street_not_found"
    case streetAmbiguous = "street_ambiguous"
    case numberNotFound = "number_not_found"
    case ambiguous = "ambiguous"
    case unitNotFound = "unit_not_found"
    case unitMissing = "unit_missing"
    case farFromCoordinates = "far_from_coordinates"
    case badCoordinates = "bad_coordinates"
}

/// How a confident match was made.
public enum MatchHow: String, Sendable {
    /// Street and number as in the extract (number as written, or without its separators).
    case exact
    /// The street found after correcting one misspelt word.
    case streetCorrected = "street_corrected"
    /// The street named as its road's `names.common` or `names.rules` give it (another
    /// language, an official or a short name), with the segments given.
    case streetOtherName = "street_other_name"
    /// A range "10-14" matched to the one number of it that exists.
    case range
    /// Equal candidates told apart by postcode, city or the given coordinates.
    case tieBreak = "tie_break"
}

/// An address that may be the one a row means, with a score in (0, 1].
public struct MatchCandidate: Sendable, Equatable {
    public var address: Int
    public var score: Double
}

/// The outcome for one row.
public enum RowMatch: Sendable, Equatable {
    case matched(address: Int, score: Double, how: MatchHow)
    /// Up to three candidates, best first; none when nothing in the extract fits.
    case review(ReviewReason, detail: String, candidates: [MatchCandidate])
}

/// Matches recipients to the addresses of an extract as a postal clerk would: the street by
/// its normalised name (one misspelt word corrected when that leaves one street), the house
/// number as written or without separators (a range by the one number of it that exists),
/// then the unit, with postcode, city and coordinates breaking ties. What is not certain goes
/// to review, never guessed.
public struct RecipientMatcher {
    public let book: AddressBook
    /// A match farther than this from the row's own coordinates goes to review (metres).
    public var maxCoordinateMeters = 250.0
    /// The best candidate must beat the next by this much to be taken.
    static let margin = 0.02
    private var streetMemo: [String: StreetKeys] = [:]
    private var streetKeys = TextMemo<String?>()

    public init(book: AddressBook) { self.book = book }

    public mutating func match(_ r: Recipient) -> RowMatch {
        if r.badPoint { return .review(.badCoordinates, detail: "lat/lon is not a valid latitude and longitude", candidates: []) }
        guard let streetText = r.street, let key = streetKeys.value(streetText, StreetName.normalize) else {
            return .review(.noStreet, detail: "the row gives no street", candidates: [])
        }
        guard let numberText = r.number, let number = HouseNumber(numberText) else {
            return .review(.noNumber, detail: r.number.map { "'\($0)' is not a house number" } ?? "the row gives no house number",
                           candidates: [])
        }
        let streets = resolve(key)
        if streets.keys.isEmpty {
            return .review(.streetNotFound, detail: "no street '\(streetText)' in the extract", candidates: [])
        }
        var found: [MatchCandidate] = [], usedRange = false
        for s in streets.keys {
            let base = streets.corrected ? 0.9 : 1.0
            let numbers = book.streets[s]!
            if let hits = numbers[number.key] {
                for a in hits { found.append(.init(address: Int(a), score: base * (book.written[Int(a)] == number.written ? 1 : 0.98))) }
            } else if let range = number.range {
                for n in stride(from: range.lowerBound, through: range.upperBound, by: 2) {
                    for a in numbers[String(n)] ?? [] { found.append(.init(address: Int(a), score: base * 0.85)) }
                }
                usedRange = true
            }
        }
        if streets.corrected && Set(found.map { StreetName.normalize(book.addresses[$0.address].street) }).count > 1 {
            return .review(.streetAmbiguous, detail: "'\(streetText)' is one spelling away from several streets with this number",
                           candidates: top(found))
        }
        if found.isEmpty {
            return .review(.numberNotFound, detail: "no number \(numberText) on \(streetText)",
                           candidates: nearestNumbers(number, streets: streets.keys))
        }
        found = unitFiltered(found, unit: UnitKey.make(r.unit))
        if found.isEmpty {
            return .review(.unitNotFound, detail: "no unit '\(r.unit ?? "")' at \(numberText) \(streetText)", candidates: [])
        }
        return decide(found, r, how: streets.corrected ? .streetCorrected : streets.otherName ? .streetOtherName
                                     : usedRange ? .range : .exact)
    }

    /// The street keys a row's key names: itself when the extract has it, else the road it is
    /// another name of, else its corrections.
    private mutating func resolve(_ key: String) -> StreetKeys {
        if let m = streetMemo[key] { return m }
        let m: StreetKeys
        if book.streets[key] != nil { m = StreetKeys(keys: [key]) }
        else if let primary = book.aliases[key], book.streets[primary] != nil { m = StreetKeys(keys: [primary], otherName: true) }
        else { m = StreetKeys(keys: book.corrections(of: key), corrected: true) }
        streetMemo[key] = m
        return m
    }

    /// The extract's street keys a row's street stands for, and how they were found.
    private struct StreetKeys {
        var keys: [String]
        var corrected = false
        var otherName = false
    }

    /// Candidates kept by the unit: the row's unit when the extract has it; without a unit in
    /// the row (or a unit the extract does not know at a number that has none), the addresses
    /// without a unit. A number with units but none that fits leaves none.
    private func unitFiltered(_ c: [MatchCandidate], unit: String?) -> [MatchCandidate] {
        let withUnit = c.filter { book.units[$0.address] != nil }
        if withUnit.isEmpty { return unit == nil ? c : c.map { .init(address: $0.address, score: $0.score * 0.97) } }
        if let unit {
            let same = c.filter { book.units[$0.address] == unit }
            return same.isEmpty ? [] : same
        }
        let bare = c.filter { book.units[$0.address] == nil }
        return bare.isEmpty ? c.map { .init(address: $0.address, score: $0.score * 0.9) } : bare
    }

    /// Postcode and city weigh the candidates; the best is taken when it leads by `margin`, or
    /// when the row's coordinates pick it out; otherwise the row goes to review.
    private func decide(_ found: [MatchCandidate], _ r: Recipient, how: MatchHow) -> RowMatch {
        let city = r.city.flatMap { StreetName.normalize($0) }
        var scored = found.map { c -> MatchCandidate in
            let a = book.addresses[c.address]
            var s = c.score
            if let p = r.postcode, let q = a.postcode, !q.isEmpty { s *= p.prefix(5) == q.prefix(5) ? 1 : 0.8 }
            if let city, let ac = book.cities[c.address], ac != city { s *= 0.99 }
            return .init(address: c.address, score: s)
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.address < $1.address }
        let best = scored[0]
        var chosen: MatchCandidate? = scored.count == 1 || best.score - scored[1].score >= Self.margin ? best : nil
        var how = how
        if let p = r.point {
            if chosen == nil {
                let byDistance = scored.filter { $0.score == best.score }.map { ($0, meters(p, book.addresses[$0.address].point)) }
                    .sorted { $0.1 < $1.1 }
                if byDistance.count > 1, byDistance[0].1 * 2 < byDistance[1].1 { chosen = byDistance[0].0; how = .tieBreak }
            }
            if let c = chosen, meters(p, book.addresses[c.address].point) > maxCoordinateMeters {
                let d = Int(meters(p, book.addresses[c.address].point).rounded())
                return .review(.farFromCoordinates, detail: "the address found is \(d) m from the row's coordinates", candidates: top(scored))
            }
        } else if chosen != nil && scored.count > 1 && how == .exact && found.allSatisfy({ $0.score == found[0].score }) {
            how = .tieBreak
        }
        guard let c = chosen else {
            return .review(.ambiguous, detail: "\(scored.count) addresses fit equally well", candidates: top(scored))
        }
        return .matched(address: c.address, score: c.score, how: how)
    }

    /// The three addresses of the streets whose numbers are nearest `number` (by numeric value).
    private func nearestNumbers(_ number: HouseNumber, streets: [String]) -> [MatchCandidate] {
        // Number keys hold no hyphen (`HouseNumber.key`), so the hyphen style does not matter.
        guard let target = HouseNumbers.value(number.key, blocks: false) else { return [] }
        var c: [(Int, Double)] = []
        for s in streets {
            for (k, ids) in book.streets[s]! {
                guard let v = HouseNumbers.value(k, blocks: false) else { continue }
                for a in ids { c.append((Int(a), abs(v - target))) }
            }
        }
        c.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        return c.prefix(3).map { .init(address: $0.0, score: 0.5 / (1 + $0.1)) }
    }

    private func top(_ c: [MatchCandidate]) -> [MatchCandidate] {
        Array(c.sorted { $0.score != $1.score ? $0.score > $1.score : $0.address < $1.address }.prefix(3))
    }

    /// Metres between two longitude/latitude points (equirectangular; fine below a few km).
    func meters(_ a: Coord, _ b: Coord) -> Double {
        let k = cos((a.y + b.y) / 2 * .pi / 180)
        return hypot((a.x - b.x) * 111_320 * k, (a.y - b.y) * 110_574)
    }
}
