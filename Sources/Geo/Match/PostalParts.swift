import Foundation

/// A house number as a clerk reads it. `key` drops the separators between digit groups and
/// keeps letters and a fraction ("94-10" and "9410" → "9410", "12A" and "12 a" → "12a",
/// "12 1/2" → "12 1/2"); `written` keeps the hyphens ("94-10"), case folded.
public struct HouseNumber: Hashable, Sendable {
    public var key: String
    public var written: String
    /// "10-14" read as a range of houses 10 through 14 (low < high); nil otherwise. A Queens
    /// number "94-10" (low > high) is never a range.
    public var range: ClosedRange<Int>?

    /// Nil when the text holds no digit before its first letter ("A12", "rear").
    public init?(_ text: String) {
        let t = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        guard let first = t.unicodeScalars.first, ("0"..."9").contains(first) else { return nil }
        var key = "", fraction = ""
        for part in t.split(separator: " ") {
            if part.contains("/") { fraction = " " + part; continue }
            for ch in part where ch.isASCII && (ch.isNumber || ch.isLetter) { key.append(ch) }
        }
        guard !key.isEmpty else { return nil }
        self.key = key + fraction
        self.written = t
        let sides = t.split(separator: "-", omittingEmptySubsequences: false)
        if sides.count == 2, let lo = Int(sides[0]), let hi = Int(sides[1]), lo < hi, hi - lo <= 200 {
            range = lo...hi
        }
    }
}

/// Units: the designator dropped ("Apt 2", "#2", "Unit 2", "apartment 2" → "2"; "Unit B",
/// "Ste b" → "b"); nil for an empty unit.
public enum UnitKey {
    static let designators: Set<String> = [
        "apt", "apartment", "unit", "ste", "suite", "no", "number", "rm", "room", "fl", "floor", "flat", "bldg", "lot",
    ]

    public static func make(_ text: String?) -> String? {
        guard let text else { return nil }
        var words = text.lowercased().split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
        while let w = words.first, designators.contains(w), words.count > 1 { words.removeFirst() }
        let key = words.joined()
        return key.isEmpty ? nil : key
    }

    /// Whether a word of a street line starts a unit ("Apt", "#2", "Unit").
    static func startsUnit(_ word: Substring) -> Bool {
        word.hasPrefix("#") || unitWords.contains(word.lowercased().replacingOccurrences(of: ".", with: ""))
    }
    static let unitWords: Set<String> = ["apt", "apartment", "unit", "ste", "suite", "rm", "room", "fl", "floor", "flat"]
}

/// The parts of a street line ("94-10 212th St Apt 2"; "Hauptstraße 5"), split the way people
/// write them: a number first (or last, when the line starts with a word and ends with one),
/// a fraction after it, a unit from its designator ("Apt", "Unit", "#") to the end.
public struct StreetLine: Sendable, Equatable {
    public var number: String?
    public var street: String?
    public var unit: String?

    /// Words that belong to the house number before them ("214-39 Rear").
    static let numberWords: Set<String> = ["rear", "front"]

    public init(number: String?, street: String?, unit: String?) {
        self.number = number; self.street = street; self.unit = unit
    }

    /// `findNumber` false reads a street column after a number column: no number in it.
    public init(_ line: String, findNumber: Bool = true) {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        if let u = words.firstIndex(where: UnitKey.startsUnit), u > 0 {
            unit = words[u...].joined(separator: " ")
            words.removeSubrange(u...)
        }
        let startsWithDigit: (Substring) -> Bool = { $0.first.map { $0.isASCII && $0.isNumber } ?? false }
        if findNumber, let first = words.first, startsWithDigit(first), words.count > 1 {
            var n = String(first)
            words.removeFirst()
            if let f = words.first, f.contains("/"), startsWithDigit(f) { n += " " + f; words.removeFirst() }
            if words.count > 1, let f = words.first, Self.numberWords.contains(f.lowercased()) { n += " " + f; words.removeFirst() }
            number = n
        } else if findNumber, words.count > 1, let last = words.last, startsWithDigit(last) {
            number = String(last)
            words.removeLast()
        }
        let s = words.joined(separator: " ").trimmingCharacters(in: .init(charactersIn: " ,"))
        street = s.isEmpty ? nil : s
    }
}

/// A one-line postal address split at its commas: the street line, then the city, the region
/// and the postcode ("94-10 212th St Apt 2, Queens Village, NY 11428").
public struct OneLineAddress: Sendable, Equatable {
    public var line: StreetLine
    public var city: String?
    public var postcode: String?

    public init(_ text: String) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        line = StreetLine(parts.first ?? "")
        for part in parts.dropFirst() {
            for word in part.split(separator: " ") where word.count >= 4 && word.allSatisfy({ $0.isNumber || $0 == "-" }) {
                postcode = String(word.prefix(while: { $0 != "-" }))
            }
        }
        if parts.count > 1 {
            let words = parts[1].split(separator: " ").filter { !$0.allSatisfy({ $0.isNumber || $0 == "-" }) }
            city = words.isEmpty ? nil : words.joined(separator: " ")
        }
    }
}
