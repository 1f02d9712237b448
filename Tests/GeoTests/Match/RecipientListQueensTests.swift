import Foundation
import Testing
@testable import Geo

/// A recipient list made from the Queens Village addresses, rewritten the way people type
/// them, matched back to the extract.
struct RecipientListQueensTests {
    /// The rewrite rules, each applied to a row with probability 1/2 (the typo 1/4):
    /// - lower: the whole line lower-cased;
    /// - abbreviate: the street type abbreviated as the USPS does (Street → St, Avenue → Ave,
    ///   Boulevard → Blvd, Road → Rd, Place → Pl, Drive → Dr, Terrace → Ter, Lane → Ln, Court → Ct);
    /// - ordinal: the ordinal ending dropped (212th → 212);
    /// - joined: a Queens number written without its hyphen (94-10 → 9410);
    /// - unit: an apartment the extract does not have ("Apt 2") added, so the extract misses it;
    /// - typo: one letter of one street word of 5 letters or more swapped with its neighbour,
    ///   doubled or dropped (never a number);
    /// - oneLine: number, street and unit in one `address` column with ", Queens, NY <postcode>",
    ///   else separate number, street, postcode columns.
    static func rewrite(_ a: Address, _ g: inout SeededRandom) -> (number: String, street: String, unit: String) {
        var street = a.street!, number = a.number!, unit = ""
        if Bool.random(using: &g) {
            let short = ["Street": "St", "Avenue": "Ave", "Boulevard": "Blvd", "Road": "Rd", "Place": "Pl", "Drive": "Dr",
                         "Terrace": "Ter", "Lane": "Ln", "Court": "Ct"]
            street = street.split(separator: " ").map { short[String($0)] ?? String($0) }.joined(separator: " ")
        }
        if Bool.random(using: &g) {
            street = street.split(separator: " ").map { w in
                w.first!.isNumber && ["st", "nd", "rd", "th"].contains(w.suffix(2).lowercased()) ? String(w.dropLast(2)) : String(w)
            }.joined(separator: " ")
        }
        if Bool.random(using: &g), number.contains("-") { number = number.replacingOccurrences(of: "-", with: "") }
        if Bool.random(using: &g) { unit = "Apt \(Int.random(in: 1...4, using: &g))" }
        if Int.random(in: 0..<4, using: &g) == 0 {
            var words = street.split(separator: " ").map { Array($0) }
            let long = words.indices.filter { words[$0].count >= 5 && words[$0].allSatisfy(\.isLetter) }
            if let w = long.randomElement(using: &g) {
                let i = Int.random(in: 1..<(words[w].count - 1), using: &g)
                switch Int.random(in: 0..<3, using: &g) {
                case 0: words[w].swapAt(i, i + 1)
                case 1: words[w].insert(words[w][i], at: i)
                default: words[w].remove(at: i)
                }
                street = words.map { String($0) }.joined(separator: " ")
            }
        }
        if Bool.random(using: &g) { (number, street, unit) = (number.lowercased(), street.lowercased(), unit.lowercased()) }
        return (number, street, unit)
    }

    static func csvField(_ s: String) -> String { s.contains(",") ? "\"\(s)\"" : s }

    @Test(.enabled(if: sharedDataFile("queens-village-ny/addresses.geojsonseq") != nil, "needs ../shared/data/queens-village-ny"))
    func rewrittenAddressesMatchBack() throws {
        let addresses = try loadAddresses([try #require(sharedDataFile("queens-village-ny/addresses.geojsonseq"))]).features
        let book = AddressBook(addresses)
        var g = SeededRandom(seed: 27)
        var csv = "id,address,number,street,postcode\n", expected: [String] = []
        for a in addresses where a.street != nil && a.number.flatMap(HouseNumber.init) != nil {
            let (number, street, unit) = Self.rewrite(a, &g)
            let postcode = a.postcode ?? ""
            if Bool.random(using: &g) {
                let line = "\(number) \(street)\(unit.isEmpty ? "" : " " + unit), Queens, NY \(postcode)"
                csv += "\(a.id),\(Self.csvField(line)),,,\n"
            } else {
                csv += "\(a.id),,\(number),\(Self.csvField(street + (unit.isEmpty ? "" : " " + unit))),\(postcode)\n"
            }
            expected.append(a.id)
        }
        let table = try CSVTable.parse(Data(csv.utf8), file: "recipients.csv")
        let m = RecipientMatches(table: table, columns: try RecipientColumns(header: table.header), book: book)
        var right = 0, wrong: [String] = []
        for (i, r) in m.results.enumerated() {
            guard case .matched(let a, _, _) = r else { continue }
            if addresses[a].id == expected[i] { right += 1 } else { wrong.append("line \(table.lines[i]) → \(addresses[a].id)") }
        }
        var reasons: [String: Int] = [:]
        for r in m.results { if case .review(let why, _, _) = r { reasons[why.rawValue, default: 0] += 1 } }
        let share = Double(right) / Double(expected.count)
        print("queens-village-ny: \(expected.count) rows, \(right) right (\(String(format: "%.2f", share * 100)) %), "
              + "\(wrong.count) wrong, \(m.reviewCount) review, \(m.notFoundCount) not found \(reasons.sorted { $0.key < $1.key })")
        #expect(expected.count > 30_000)
        #expect(wrong.isEmpty, "wrong confident matches: \(wrong.prefix(10))")
        #expect(share >= 0.99)
    }
}
