import Testing
@testable import Geo

@Suite struct TextNumbersTests {
    /// Numbers in the order first seen, the same bytes always the same number; through many
    /// growths of the table and texts of every length.
    @Test func numbersEachTextOnceInOrderFirstSeen() {
        var rng = SeededRandom(seed: 7)
        let alphabet = Array("abcdefghij klmnop-0123456789éß\u{301}")
        var numbers = TextNumbers(capacity: 4)
        var byBytes: [[UInt8]: Int32] = [:]
        for _ in 0..<60_000 {
            let length = Int(rng.next() % 40)
            let text = String((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
            let n = numbers.number(text)
            let bytes = Array(text.utf8)
            if let known = byBytes[bytes] { #expect(n == known) } else {
                #expect(n == Int32(byBytes.count))
                byBytes[bytes] = n
            }
            #expect(numbers.existing(text) == n)
            #expect(numbers.texts[Int(n)].utf8.elementsEqual(text.utf8))
        }
        #expect(numbers.count == byBytes.count)
        #expect(numbers.existing("not there: no such text") == nil)
    }

    /// Texts equal as Strings but not byte for byte are told apart; so are texts that differ
    /// only past their first eight bytes, or in their length.
    @Test func tellsApartByBytes() {
        var numbers = TextNumbers()
        let composed = "Caf\u{e9}", decomposed = "Cafe\u{301}"
        #expect(composed == decomposed)
        #expect(numbers.number(composed) != numbers.number(decomposed))
        #expect(numbers.number("12345678a") != numbers.number("12345678b"))
        #expect(numbers.number("") != numbers.number("\u{0}"))
        #expect(numbers.number("abcdefgh") != numbers.number("abcdefgh\u{0}"))
        #expect(numbers.number("") == 4 && numbers.existing("12345678b") == 3 && numbers.count == 8)
    }

    /// Street keys through the memo are those `normalize` gives name by name.
    @Test func streetKeysMatchNormalize() {
        let names: [String?] = ["Main St.", nil, "main street", "Main St.", "O'Connor Ave", "Cafe\u{301} Rd", "Caf\u{e9} Rd", nil, "E 5th St"]
        #expect(StreetName.keys(names) == names.map(StreetName.normalize))
    }
}
