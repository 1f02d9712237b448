import Testing
@testable import Geo

@Suite struct StreetAliasesTests {
    func segment(_ id: String, _ name: String?, _ names: String?) -> Segment {
        Segment(id: id, line: [Coord(0, 0), Coord(1, 0)], subtype: "road", segmentClass: "residential", name: name, namesJSON: names)
    }

    @Test func commonNamesAndRuleValuesNameTheStreet() {
        let segments = [
            segment("a", "Mannerheimintie", #"{"primary":"Mannerheimintie","common":{"fi":"Mannerheimintie","sv":"Mannerheimvägen"},"rules":null}"#),
            segment("b", "Rue Neuve - Nieuwstraat", #"{"primary":"Rue Neuve - Nieuwstraat","common":null,"rules":[{"variant":"alternate","language":"fr","value":"Rue Neuve","between":null,"side":null},{"variant":"alternate","language":"nl","value":"Nieuwstraat","between":[0,0.5],"side":"left"}]}"#),
        ]
        let addresses = ["Mannerheimvägen", "MANNERHEIMINTIE", "rue neuve", "Nieuwstraat", "Elm Street"].enumerated().map {
            Address(id: "x\($0.offset)", point: Coord(0, 0), number: "1", street: $0.element)
        }
        #expect(StreetAliases.addressKeys(addresses, segments: segments) == [
            "mannerheimintie", "mannerheimintie", "rue neuve nieuwstraat", "rue neuve nieuwstraat", "elm st"])
    }

    @Test func aNameTwoStreetsClaimOrAnotherStreetsOwnNameIsLeftAsWritten() {
        let segments = [
            segment("a", "Oak Avenue", #"{"primary":"Oak Avenue","common":{"de":"Eichenallee","fr":"Allée des Ormes"}}"#),
            segment("b", "Elm Street", #"{"primary":"Elm Street","common":{"fr":"Allée des Ormes"}}"#),
            segment("c", "Birch Road", #"{"primary":"Birch Road","rules":[{"variant":"short","value":"Elm St"}]}"#),
            segment("d", "Pine Lane", #"{"primary":"Pine Lane","common":"#),  // broken: no other name
        ]
        #expect(StreetAliases.aliases(segments, StreetName.keys(segments.map(\.name))).names == ["eichenallee": "oak ave"])
    }

    @Test func aNameHoldingSeveralNamesHoldsEach() {
        #expect(StreetAliases.parts("夜呣斜巷(崗頂斜路) Calçada do Gamboa")
            == ["夜呣斜巷 Calçada do Gamboa", "夜呣斜巷", "Calçada do Gamboa", "崗頂斜路"])
        #expect(StreetAliases.parts("Rue Neuve - Nieuwstraat") == ["Rue Neuve", "Nieuwstraat"])
        #expect(StreetAliases.parts("Main Street").isEmpty && StreetAliases.parts("Saint-Roman").isEmpty)
        #expect(StreetName.normalize("炮兵街Rua dos Artilheiros") == StreetName.normalize("炮兵街 Rua dos Artilheiros"))
    }

    /// An address naming its street by one language of a bilingual name, or with a parenthesised
    /// alternate left out, names that road; a part two roads hold names neither.
    @Test func aPartOfABilingualNameNamesTheRoad() {
        let segments = [
            segment("a", "高園街 Rua de D. Belchior Carneiro", nil),
            segment("b", "夜呣斜巷(崗頂斜路) Calçada do Gamboa", nil),
            segment("c", "Rue Neuve - Nieuwstraat", nil),
            segment("d", "Rue de la Loi - Wetstraat", nil),
            segment("e", "Rue de la Loi - Loistraat", nil),
        ]
        let addresses = ["高園街 Rua de Dom Belchior Carneiro", "夜呣斜巷 Calcada do Gamboa", "Nieuwstraat", "Rue de la Loi",
                         "Wetstraat"].enumerated().map {
            Address(id: "x\($0.offset)", point: Coord(0, 0), number: "1", street: $0.element)
        }
        let keys = StreetName.keys(segments.map(\.name))
        #expect(StreetAliases.addressKeys(addresses, segments: segments) == [keys[0], keys[1], keys[2], "rue de la loi", keys[3]])
    }
}
