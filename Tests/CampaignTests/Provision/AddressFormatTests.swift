import Testing
@testable import Campaign
import Geo

/// The one-line form written into the buffer must be exactly what joining the parts as
/// strings gives, for every mix of absent, empty and present fields.
struct AddressFormatTests {
    /// The definition: parts joined by ", ", a part left out when it has nothing.
    static func reference(_ a: Address) -> String {
        var parts: [String] = []
        let street = [a.number, a.street].compactMap { $0 }.joined(separator: " ")
        if !street.isEmpty { parts.append(street) }
        if let u = a.unit, !u.isEmpty { parts.append("Unit \(u)") }
        let levels = AddressFormat.levelValues(a.addressLevelsJSON)
        if let city = a.postalCity ?? (levels.count > 1 ? levels[1] : nil) { parts.append(city) }
        let tail = [levels.first, a.postcode].compactMap { $0 }.joined(separator: " ")
        if !tail.isEmpty { parts.append(tail) }
        return parts.joined(separator: ", ")
    }

    @Test func matchesTheDefinitionForEveryMixOfFields() {
        let texts: [String?] = [nil, "", "81-42", "243rd Street", "Straße 5"]
        let levels: [String?] = [nil, "[]", #"[{"value":"NY"}]"#, #"[{"value":"NY"},{"value":"QUEENS"}]"#, #"[{"value":""},{"value":""}]"#]
        var n = 0
        for number in texts { for street in texts { for unit in [nil, "", "2"] { for city in [nil, "", "Queens"] {
            for level in levels { for postcode in [nil, "", "11426"] {
                let a = Address(id: "a\(n)", point: Coord(0, 0), number: number, street: street, unit: unit,
                                postcode: postcode, postalCity: city, addressLevelsJSON: level)
                #expect(AddressFormat.oneLine(a) == Self.reference(a))
                n += 1
            } }
        } } } }
        #expect(n == 5 * 5 * 3 * 3 * 5 * 3)
        let a = Address(id: "x", point: Coord(0, 0), number: "81-42", street: "243rd Street", unit: "2",
                        postcode: "11426", addressLevelsJSON: #"[{"value":"NY"},{"value":"QUEENS"}]"#)
        #expect(AddressFormat.oneLine(a) == "81-42 243rd Street, Unit 2, QUEENS, NY 11426")
    }
}
