import Foundation
import Testing
@testable import Geo

/// Matching of small, hand-written recipient lists against the sample area's addresses.
struct RecipientMatcherTests {
    static let book = AddressBook(try! loadAddresses([sampleFile("addresses.geojsonseq")]).features)

    /// The matched address's id, or the review reason (and candidate count) of each row.
    static func outcomes(_ csv: String, columns: [RecipientField: String] = [:]) throws -> [String] {
        let table = try CSVTable.parse(Data(csv.utf8), file: "list.csv")
        let m = RecipientMatches(table: table, columns: try RecipientColumns(header: table.header, overrides: columns), book: book)
        return m.results.map { r in
            switch r {
            case let .matched(a, _, _): book.addresses[a].id
            case let .review(why, _, c): "\(why.rawValue)/\(c.count)"
            }
        }
    }

    @Test func onePostalLineAsPeopleWriteIt() throws {
        let got = try Self.outcomes("""
            Name,Address,Zip
            A,"94-29 Vanderveer Street, Queens Village, NY 11428",11428
            B,9429 vanderveer st,
            C,"94-86 218 ST Apt 2, Queens",
            D,216-07 JAMAICA AVE.,11428
            E,94-32 215th Pl #3,
            F,9445 Springfeild Blvd,
            G,94-45 Springfield Boulevrd,
            """)
        #expect(got == [
            "00068fdd-2b44-52de-92c3-91f05d14074c", "00068fdd-2b44-52de-92c3-91f05d14074c",
            "003d9dbb-7da8-5e92-a9db-676748cbf46d", "028b491f-ecf3-5891-8a18-65a029620950",
            "02db84e2-36d5-539c-b947-57829098dd90", "0374ce56-badf-5a5a-a2cd-d8b9241a7e80",
            "0374ce56-badf-5a5a-a2cd-d8b9241a7e80",
        ])
    }

    @Test func badRowsGoToReviewWithTheirReason() throws {
        let got = try Self.outcomes("""
            number,street,postcode,lat,lon
            94-29,,11428,,
            ,Vanderveer Street,11428,,
            94-29,Nonesuch Street,11428,,
            99-99,Vanderveer Street,11428,,
            93-45,215th,,,
            94-29,Vanderveer Street,,40.0,-73.0
            94-29,Vanderveer Street,,north,west
            """)
        #expect(got == ["no_street/0", "no_number/0", "street_not_found/0", "number_not_found/3",
                        "street_not_found/0", "far_from_coordinates/1", "bad_coordinates/0"])
    }

    @Test func columnsAreDetectedOrGiven() throws {
        let got = try Self.outcomes("Nr,Strasse,Whatever\n94-29,Vanderveer St,x\n", columns: [:])
        #expect(got == ["00068fdd-2b44-52de-92c3-91f05d14074c"])
        let given = try Self.outcomes("No,Rd\n94-29,Vanderveer St\n", columns: [.number: "No", .street: "Rd"])
        #expect(given == ["00068fdd-2b44-52de-92c3-91f05d14074c"])
        #expect(throws: RecipientColumnsError.self) { try RecipientColumns(header: ["a", "b"]) }
        #expect(throws: RecipientColumnsError.self) { try RecipientColumns(header: ["address"], overrides: [.city: "Town"]) }
    }

    @Test func twoRowsToOneAddressAreReported() throws {
        let table = try CSVTable.parse(Data("address\n94-29 Vanderveer St\n9429 VANDERVEER STREET\n94-86 218th St\n".utf8), file: "l.csv")
        let m = RecipientMatches(table: table, columns: try RecipientColumns(header: table.header), book: Self.book)
        #expect(m.sharedWith == [0: [1], 1: [0]])
        #expect(m.sharedAddressCount == 1)
        #expect(m.matchedCSV().split(separator: "\n")[1].contains(",3,94-29 Vanderveer St"))
    }

    /// A road's other name (`names.common`) finds its addresses with the segments, either way:
    /// a row in Swedish finds an address in Finnish, and an address written in Swedish is
    /// filed under the Finnish name. Without the segments, neither is found.
    @Test func aStreetByAnotherOfItsRoadsNames() {
        let addresses = [Address(id: "m5", point: Coord(0, 0), number: "5", street: "Mannerheimintie"),
                         Address(id: "m7", point: Coord(0.001, 0), number: "7", street: "Mannerheimvägen")]
        let road = Segment(id: "r", line: [Coord(0, 0), Coord(0.01, 0)], subtype: "road", segmentClass: "primary",
                           name: "Mannerheimintie", namesJSON: #"{"primary":"Mannerheimintie","common":{"sv":"Mannerheimvägen"}}"#)
        func outcome(_ book: AddressBook, _ number: String, _ street: String) -> String {
            var m = RecipientMatcher(book: book)
            switch m.match(Recipient(number: number, street: street)) {
            case let .matched(a, score, how): return "\(book.addresses[a].id) \(how.rawValue) \(score)"
            case let .review(why, _, _): return why.rawValue
            }
        }
        let roads = AddressBook(addresses, segments: [road]), plain = AddressBook(addresses)
        #expect(outcome(roads, "5", "Mannerheimvägen") == "m5 street_other_name 1.0")
        #expect(outcome(roads, "7", "Mannerheimintie") == "m7 exact 1.0")
        #expect(outcome(plain, "5", "Mannerheimvägen") == "number_not_found")
        #expect(outcome(plain, "7", "Mannerheimintie") == "number_not_found")
    }

    /// Units, ranges and coordinates on a made-up street: two flats at 5, houses 10 and 12,
    /// and 20 Main Street in two towns.
    @Test func unitsRangesAndCoordinates() {
        let book = AddressBook([
            Address(id: "5-1", point: Coord(0, 0), number: "5", street: "Main Street", unit: "Apt 1"),
            Address(id: "5-2", point: Coord(0, 0), number: "5", street: "Main Street", unit: "Apt 2"),
            Address(id: "10", point: Coord(0.001, 0), number: "10", street: "Main Street"),
            Address(id: "12", point: Coord(0.002, 0), number: "12", street: "Main Street"),
            Address(id: "20a", point: Coord(0.01, 0), number: "20", street: "Main Street", postcode: "11111"),
            Address(id: "20b", point: Coord(0.05, 0), number: "20", street: "Main Street", postcode: "22222"),
        ])
        var m = RecipientMatcher(book: book)
        func outcome(_ r: Recipient) -> String {
            switch m.match(r) {
            case let .matched(a, _, how): "\(book.addresses[a].id) \(how.rawValue)"
            case let .review(why, _, c): "\(why.rawValue)/\(c.count)"
            }
        }
        #expect(outcome(Recipient(number: "5", street: "Main St", unit: "#2")) == "5-2 exact")
        #expect(outcome(Recipient(number: "5", street: "Main St")) == "ambiguous/2")
        #expect(outcome(Recipient(number: "5", street: "Main St", unit: "Apt 9")) == "unit_not_found/0")
        #expect(outcome(Recipient(number: "10", street: "Main St", unit: "Apt 3")) == "10 exact")
        #expect(outcome(Recipient(number: "12-14", street: "Main St")) == "12 range")
        #expect(outcome(Recipient(number: "10-12", street: "Main St")) == "ambiguous/2")
        #expect(outcome(Recipient(number: "20", street: "Main St")) == "ambiguous/2")
        #expect(outcome(Recipient(number: "20", street: "Main St", postcode: "22222")) == "20b tie_break")
        #expect(outcome(Recipient(number: "20", street: "Main St", point: Coord(0.0101, 0))) == "20a tie_break")
    }

    @Test(arguments: [
        ("94-10", "9410", "94-10", nil), ("9410", "9410", "9410", nil), ("12A", "12a", "12a", nil),
        ("12 a", "12a", "12 a", nil), ("12 1/2", "12 1/2", "12 1/2", nil), ("10-14", "1014", "10-14", 10...14),
    ] as [(String, String, String, ClosedRange<Int>?)])
    func houseNumbers(text: String, key: String, written: String, range: ClosedRange<Int>?) throws {
        let n = try #require(HouseNumber(text))
        #expect(n.key == key && n.written == written && n.range == range)
    }

    @Test func notHouseNumbers() {
        #expect(HouseNumber("rear") == nil && HouseNumber("") == nil && HouseNumber("A12") == nil)
    }

    @Test func unitsStreetLinesAndNames() {
        #expect(["Apt 2", "#2", "apartment 2", "Unit 2", "no. 2"].map(UnitKey.make) == Array(repeating: "2", count: 5))
        #expect(UnitKey.make("Unit B") == "b" && UnitKey.make("") == nil)
        #expect(StreetLine("94-10 212th St Apt 2") == StreetLine(number: "94-10", street: "212th St", unit: "Apt 2"))
        #expect(StreetLine("12 1/2 Main Street #4") == StreetLine(number: "12 1/2", street: "Main Street", unit: "#4"))
        #expect(StreetLine("Hauptstraße 5") == StreetLine(number: "5", street: "Hauptstraße", unit: nil))
        #expect(StreetLine("214-39 Rear Jamaica Ave") == StreetLine(number: "214-39 Rear", street: "Jamaica Ave", unit: nil))
        #expect(StreetName.normalize("Hauptstraße") == "haupt st" && StreetName.normalize("Haupt Str.") == "haupt st")
        #expect(StreetName.normalize("Hauptstr.") == "haupt st" && StreetName.normalize("Rue de l'Église") == "rue de leglise")
        #expect(StreetName.normalize("West 73rd Street") == StreetName.normalize("W 73 St"))
        #expect(StreetName.normalize("1st Avenue") == "1 ave" && StreetName.normalize("Forest Avenue") == "forest ave")
        let one = OneLineAddress("94-10 212th St, Queens Village, NY 11428-1234")
        #expect(one.city == "Queens Village" && one.postcode == "11428" && one.line.number == "94-10")
    }

    @Test func spellingIsCorrectedOnlyInWordsAndWithinLimits() {
        #expect(EditDistance.distance(Array("springfield".utf8), Array("springfeild".utf8)) == 1)
        #expect(EditDistance.distance(Array("vanderveer".utf8), Array("vandervere".utf8)) == 1)
        #expect(EditDistance.distance(Array("".utf8), Array("abc".utf8)) == 3)
        #expect(Self.book.corrections(of: "vandervere st") == ["vanderveer st"])
        #expect(Self.book.corrections(of: "216 st").isEmpty)
        let south = AddressBook([Address(id: "a", point: Coord(0, 0), number: "1", street: "Service Road South")])
        #expect(south.corrections(of: "svc rd sotuh") == ["svc rd s"])
    }
}

/// RFC 4180 reading of recipient lists.
struct CSVTableTests {
    @Test func quotedFieldsHoldCommasQuotesAndLineBreaks() throws {
        let t = try CSVTable.parse(Data("\u{FEFF}a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\r\n\n\"two\nlines\",\r\nlast,\"\"".utf8), file: "t.csv")
        #expect(t.header == ["a", "b"])
        #expect(t.rows == [["x, y", "say \"hi\""], ["two\nlines", ""], ["last", ""]])
        #expect(t.lines == [2, 4, 6])
    }

    @Test(arguments: [
        ("a,b\n1,2\n3\n", 3, "field(s)"), ("a,b\n1,\"2\n3,4\n", 2, "never closed"), ("a,b\n1,x\"y\n", 2, "quote inside"),
        ("a,b\n\"1\"x,2\n", 2, "after the closing quote"), ("", 1, "empty file"), ("a,,b\n", 1, "no name"), ("a,A\n", 1, "twice"),
    ] as [(String, Int, String)])
    func malformedListsNameTheLine(text: String, line: Int, words: String) {
        do {
            _ = try CSVTable.parse(Data(text.utf8), file: "bad.csv")
            Issue.record("parsed \(text.debugDescription)")
        } catch {
            #expect(error.line == line && error.kind == .badValue && error.detail.contains(words), "\(error)")
        }
    }

    @Test func notUTF8() {
        #expect(throws: InputError.self) { try CSVTable.parse(Data([0x61, 0x0A, 0xFF, 0x0A]), file: "x.csv") }
    }
}
