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
        #expect(StreetAliases.aliases(segments, StreetName.keys(segments.map(\.name))) == ["eichenallee": "oak ave"])
    }
}
