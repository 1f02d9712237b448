import Testing
@testable import Geo

/// A number given with no street is read as one of the named road it stands by: in that road's
/// face, and as a second household (not a cross street's corner number) on a footprint holding
/// one of the road's own numbers.
@Suite struct StreetlessNumberTests {
    /// Main Street (y = 0) with houses 10 m wide, their fronts 5 m off the line, "h0" to "h6"
    /// from x = 0. 200 to 206 Main Street stand before the middles of four houses in a row;
    /// "210", with no street, and "212-214 Main Street" share one point before the corner where
    /// the next two houses meet, as near to both; 216 stands before the last. Numbered from
    /// the west ("h0" 200) or from the east ("h6" 200): 210 takes the house before 212-214's.
    func scene(fromEast: Bool, streetless: Bool = true) -> Scene {
        var s = Scene()
        s.road("main", "LINESTRING(-40 0,120 0)", name: "Main Street")
        for k in 0..<7 {
            let x = 10 * Double(k)
            s.building("h\(k)", "POLYGON((\(x) 5,\(x + 10) 5,\(x + 10) 15,\(x) 15,\(x) 5))")
        }
        let at = { (x: Double) in fromEast ? 70 - x : x }
        for (k, n) in ["200", "202", "204", "206"].enumerated() {
            s.address("m\(n)", at(5 + 10 * Double(k)), 3, number: n, street: "Main Street")
        }
        s.address("n210", at(50), 3, number: "210", street: streetless ? nil : "Main Street")
        s.address("m212", at(50), 3, number: "212-214", street: "Main Street")
        s.address("m216", at(65), 3, number: "216", street: "Main Street")
        return s
    }

    @Test(arguments: [false, true]) func aStreetlessNumberTakesItsPlaceInTheRoadsFace(fromEast: Bool) throws {
        let r = try scene(fromEast: fromEast).link()
        #expect(r.link("n210").buildingID == (fromEast ? "h2" : "h4"))
        #expect(r.link("m212").buildingID == (fromEast ? "h1" : "h5"))
    }

    /// The same numbers with the street given link alike.
    @Test(arguments: [false, true]) func itLinksAsTheSameNumberWithItsStreetGiven(fromEast: Bool) throws {
        let with = try scene(fromEast: fromEast, streetless: false).link(), without = try scene(fromEast: fromEast).link()
        for id in ["m200", "m202", "m204", "m206", "n210", "m212", "m216"] {
            #expect(with.link(id).buildingID == without.link(id).buildingID)
        }
    }

    /// One house on Main Street, the only one near, takes both "12 Main Street" and a "14"
    /// given with no street: two numbers of Main Street on one home, each link's confidence
    /// divided as where "14" names its street, below that of "12" alone there.
    @Test func sharedHomeCountsTheStreetlessNumberAsOneOfTheRoad() throws {
        func scene(fourteen: Bool = true, streetless: Bool = true) -> Scene {
            var s = Scene()
            s.road("main", "LINESTRING(-40 0,60 0)", name: "Main Street")
            s.building("h", "POLYGON((0 5,10 5,10 15,0 15,0 5))")
            s.address("m12", 3, 3, number: "12", street: "Main Street")
            if fourteen { s.address("n14", 7, 3, number: "14", street: streetless ? nil : "Main Street") }
            return s
        }
        let with = try scene(streetless: false).link(), without = try scene().link()
        for id in ["m12", "n14"] {
            #expect(without.link(id).buildingID == "h" && without.link(id).method == .buffer)
            #expect(without.link(id).confidence == with.link(id).confidence)
        }
        let alone = try scene(fourteen: false).link()
        #expect(with.link("m12").confidence < alone.link("m12").confidence)
    }
}
