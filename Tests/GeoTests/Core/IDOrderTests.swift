import Testing
@testable import Geo

@Suite struct IDOrderTests {
    /// The order String `<` gives, equal ids by index.
    static func reference(_ ids: [String]) -> [Int] {
        ids.indices.sorted { ids[$0] != ids[$1] ? ids[$0] < ids[$1] : $0 < $1 }
    }

    @Test func asciiIdsSortAsStringsDo() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdef-_:t\u{7f} ")
        var ids: [String] = []
        for _ in 0..<3000 {
            // Many shared 16-byte heads, lengths around 16, and exact repeats.
            let head = String((0..<Int.random(in: 0...20, using: &rng)).map { _ in alphabet[Int.random(in: 0..<3, using: &rng)] })
            let tail = String((0..<Int.random(in: 0...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
            ids.append(head + tail)
        }
        ids += ["", "a", "a\u{0}", "a\u{0}b", "0000483d-ea20-587f-9f9c-251bdea7ab3d-t0", "0000483d-ea20-587f-9f9c-251bdea7ab3d-t10",
                "0000483d-ea20-587f-9f9c-251bdea7ab3d-t2", "0000483d-ea20-587f", "0000483d-ea20-587f"]
        #expect(IDOrder.sortedIndices(ids) == Self.reference(ids))
        let ranks = IDOrder.ranks(ids)
        for (n, i) in Self.reference(ids).enumerated() { #expect(ranks[i] == Int32(n)) }
    }

    /// Non-ASCII ids (where byte order and String order may differ) take String's order.
    @Test func nonASCIIIdsSortAsStringsDo() {
        let ids = ["é", "e\u{301}f", "z", "Å", "A\u{30A}", "é", "b", "ü-1", "u-1", "\u{1F600}"]
        #expect(IDOrder.sortedIndices(ids) == Self.reference(ids))
    }

    @Test func emptyInput() {
        #expect(IDOrder.sortedIndices([]).isEmpty)
    }
}

@Suite struct HouseNumberValueTests {
    /// ASCII numbers are read byte by byte, others Character by Character: both read the same.
    @Test(arguments: [("82-45", 82045.0), ("114-101", 114101.0), ("115-03", 115003.0), ("89-95", 89095.0), ("1-2-3", 1002003.0),
                      ("12-", 12.0), ("123A", 123.0), ("12 1/2", 12.0), ("227-16 1/2", 227016.0), ("12 - 3", 12003.0), ("4 B", 4.0), ("A12", nil), ("", nil), ("-", nil),
                      ("12\r\n3", 12.0), ("12é", 12.0), ("é12", nil), ("１２", nil), ("4-２", 4.0), ("7\u{301}", nil)] as [(String, Double?)])
    func readsHouseNumbers(_ text: String, _ value: Double?) {
        #expect(HouseNumbers.value(text, blocks: true) == value)
    }

    /// Where hyphens are rare they mark ranges, read as the first number.
    @Test func rangesWhereHyphensAreRare() {
        #expect(HouseNumbers.value("12-14", blocks: false) == 12)
        #expect(HouseNumbers.value("4-２", blocks: false) == 4)
        #expect(HouseNumbers.blockStyle(["197-02", "197-04", "12", nil, "A"]))
        #expect(!HouseNumbers.blockStyle(["12-14", "3", "5", "7"]))
        #expect(!HouseNumbers.blockStyle([String?]()))
        #expect(HouseNumbers.values(["197-02", "197-04", "12-14"]) == [197002, 197004, 12014])
        #expect(HouseNumbers.values(["12-14", "3", "5"]) == [12, 3, 5])
    }

    /// Kendall's tau of position against number, either way.
    @Test func agreementMeasuresHowSteadilyNumbersRun() {
        let row = (0..<6).map { (x: Double(10 * $0), n: Double(2 * $0 + 1)) }
        #expect(HouseNumbers.agreement(row, apart: 10) == 1)
        #expect(HouseNumbers.agreement(row.map { (x: -$0.x, n: $0.n) }, apart: 10) == 1)
        let unordered = zip(row, [7.0, 2, 11, 4, 9, 1]).map { (x: $0.x, n: $1) }
        #expect(HouseNumbers.agreement(unordered, apart: 10)! < 0.5)
        // Points nearer than `apart` along the street are not compared.
        #expect(HouseNumbers.agreement(unordered, apart: 60) == nil)
        #expect(HouseNumbers.agreement([(x: 0, n: 3), (x: 4, n: 1), (x: 20, n: 5)], apart: 10) == 1)
    }
}
