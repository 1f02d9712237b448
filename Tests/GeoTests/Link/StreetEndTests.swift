import Testing
@testable import Geo

/// A street drawn only as far as x = 0, its houses going on beyond: numbers 2 and 4 stand
/// before the end with their points in front of them, numbers 6 to 14 stand beyond it and
/// their points pile up at the end, as a geocoder following the drawn line puts them.
@Suite struct StreetEndTests {
    static let beyond = ["6", "8", "10", "12", "14"]

    /// `continued`: the street goes on past x = 0, as one more piece (joined into one line) or
    /// as two that fork there (three pieces at one node: none joined, but no end either).
    func scene(continued: Bool = false, fork: Bool = false) -> Scene {
        var s = Scene()
        s.road("main", "LINESTRING(-100 0,0 0)", name: "Main Street")
        if continued { s.road("main2", "LINESTRING(0 0,150 0)", name: "Main Street") }
        if fork { s.road("main3", "LINESTRING(0 0,0 -150)", name: "Main Street") }
        Self.houses(&s, before: [-45, -30], pastFrom: 5, pileX: [-4, -2, 0, -1, -3], pileY: 7)
        return s
    }

    /// Numbers 2 and 4 in houses from x = `before` with their points in front of them; the
    /// numbers `beyond` in houses 15 m apart from x = `pastFrom`, their points piled at `pileX`, `pileY`.
    static func houses(_ s: inout Scene, before: [Double], pastFrom: Double, pileX: [Double], pileY: Double) {
        for (n, x) in zip(["2", "4"], before) {
            s.building("h\(n)", "POLYGON((\(x) 8,\(x + 10) 8,\(x + 10) 20,\(x) 20,\(x) 8))")
            s.address("a\(n)", x + 5, 6, number: n)
        }
        for (i, n) in beyond.enumerated() {
            let x = pastFrom + 15 * Double(i)
            s.building("h\(n)", "POLYGON((\(x) 8,\(x + 10) 8,\(x + 10) 20,\(x) 20,\(x) 8))")
            s.address("a\(n)", pileX[i], pileY, number: n)
        }
    }

    func linkedBeyond(_ s: Scene, endReach: Double = LinkWeights().endReach) throws -> [String] {
        let result = try s.link(\.endReach, endReach)
        return Self.beyond.map { result.link("a\($0)").buildingID ?? "-" }
    }

    @Test func numbersPiledAtAStreetEndGoToTheHousesBeyondItInOrder() throws {
        #expect(try linkedBeyond(scene()) == Self.beyond.map { "h\($0)" })
        // Read from the points alone, they crowd onto the first houses past the end.
        let crowded = try linkedBeyond(scene(), endReach: 0)
        #expect(zip(crowded, Self.beyond).filter { $0 == "h\($1)" }.count <= 2)
    }

    /// The explanation says which footprints were scored from the street's continuation.
    @Test func theExplanationMarksTheFootprintsPastTheEnd() throws {
        var o = LinkerOptions()
        o.explain = ["a14"]
        let e = try #require(try scene().link(o).explanations.first)
        let past = try #require(e.candidates.first { $0.buildingID == "h14" })
        #expect(past.pastStreetEnd && e.chosen == "h14")
        o.weights.endReach = 0
        let plain = try #require(try scene().link(o).explanations.first)
        #expect(!plain.candidates.isEmpty && plain.candidates.allSatisfy { !$0.pastStreetEnd })
    }

    /// The street ends at a cross street, and the first house past the end is the corner house
    /// numbered on the cross street: the piled numbers pass it by, in order, as they would a
    /// house of another street anywhere.
    @Test func thePiledNumbersPassTheCornerHouseOfTheCrossStreet() throws {
        var s = Scene()
        s.road("main", "LINESTRING(-100 0,0 0)", name: "Main Street")
        s.road("cross", "LINESTRING(0 -100,0 100)", name: "Cross Street")
        s.building("corner", "POLYGON((3 4,15 4,15 16,3 16,3 4))")
        s.address("c1", 1.5, 10, number: "1", street: "Cross Street")
        for (i, n) in Self.beyond.enumerated() {
            let x = 20 + 15 * Double(i)
            s.building("h\(n)", "POLYGON((\(x) 8,\(x + 10) 8,\(x + 10) 20,\(x) 20,\(x) 8))")
            s.address("a\(n)", [0.2, 0.4, 0.1, 0.3, 0.5][i], 1, number: n)
        }
        let result = try s.link()
        #expect(Self.beyond.map { result.link("a\($0)").buildingID ?? "-" } == Self.beyond.map { "h\($0)" })
        #expect(result.link("c1").buildingID == "corner")
    }

    /// A shed stands by the street's continuation just past the end, the cheapest footprint from
    /// the pile, and the last house costs more than the tolerance above it: the face alignment
    /// still gives the piled numbers the houses in order, not the shed the first and each number
    /// its neighbour's house.
    @Test func theFaceAlignsThePiledNumbersPastAShed() throws {
        var s = Scene()
        s.road("main", "LINESTRING(-100 0,0 0)", name: "Main Street")
        s.building("shed", "POLYGON((5 -1,9 -1,9 3,5 3,5 -1))")
        for (i, n) in Self.beyond.enumerated() {
            let x = 12 + 15 * Double(i)
            s.building("h\(n)", "POLYGON((\(x) 6,\(x + 8) 6,\(x + 8) 18,\(x) 18,\(x) 6))")
            s.address("a\(n)", [-4, -2, 0, -1, -3][i], 1, number: n)
        }
        var o = LinkerOptions()
        o.explain = Set(Self.beyond.map { "a\($0)" })
        let ex = try s.link(o).explanations
        let aligned = Dictionary(uniqueKeysWithValues: ex.map { ($0.addressID, $0.aligned ?? "-") })
        #expect(Self.beyond.map { aligned["a\($0)"] } == Self.beyond.map { "h\($0)" })
    }

    /// The street ends on a cross street and its numbers past the end pile on both sides of the
    /// cross street's line, each more than a front yard from any footprint; a house stands before
    /// the end (after numbers 2 and 4), on the far side of the cross street from the houses past
    /// it. A road is counted between the continuation and a house past the end, not between a
    /// point and that house: the numbers whose points stand on the near side go on past the end
    /// with the others, in order, not to the house before it (`frontYard`: each point read as
    /// standing at a house).
    func straddled(frontYard: Double = LinkWeights().frontYard) throws -> [String] {
        var s = Scene()
        s.road("main", "LINESTRING(-100 0,0 0)", name: "Main Street")
        s.road("cross", "LINESTRING(0 -100,0 100)", name: "Cross Street")
        s.building("before", "POLYGON((-30 14,-18 14,-18 26,-30 26,-30 14))")
        Self.houses(&s, before: [-65, -50], pastFrom: 20, pileX: [-3, 2, -2, 3, 1], pileY: 3)
        let result = try s.link(\.frontYard, frontYard)
        return Self.beyond.map { result.link("a\($0)").buildingID ?? "-" }
    }

    @Test func aPileOnBothSidesOfTheCrossStreetGoesOnPastTheEnd() throws {
        #expect(try straddled() == Self.beyond.map { "h\($0)" })
        // Points read as standing at their houses keep the road between them and the houses past
        // the end: number 6, across the cross street from them, takes the house before the end.
        #expect(try straddled(frontYard: 30).first == "before")
    }

    @Test func aStreetThatGoesOnHasNoEndThere() throws {
        #expect(try linkedBeyond(scene(continued: true)) == linkedBeyond(scene(continued: true), endReach: 0))
        #expect(try linkedBeyond(scene(continued: true, fork: true)) == linkedBeyond(scene(continued: true, fork: true), endReach: 0))
    }
}

/// Three houses at a street's end, each with its point in front of it (as frontage points
/// stand), and a house on the street's continuation, nearer its line than they are to theirs.
@Suite struct PointsByTheirOwnHousesTests {
    func linked(endReach: Double) throws -> [String] {
        var s = Scene()
        s.road("main", "LINESTRING(-100 0,0 0)", name: "Main Street")
        s.building("h6", "POLYGON((-5 8,5 8,5 18,-5 18,-5 8))")
        s.building("h8", "POLYGON((-5 -18,5 -18,5 -8,-5 -8,-5 -18))")
        s.building("h10", "POLYGON((-20 -18,-10 -18,-10 -8,-20 -8,-20 -18))")
        s.building("far", "POLYGON((15 -3,25 -3,25 3,15 3,15 -3))")
        s.address("a6", 0, 5, number: "6")
        s.address("a8", 0, -5, number: "8")
        s.address("a10", -9, -5, number: "10")
        let result = try s.link(\.endReach, endReach)
        return ["a6", "a8", "a10"].map { result.link($0).buildingID ?? "-" }
    }

    @Test func numbersStandingEachByItsOwnHouseAreNoPile() throws {
        // Read as a pile, the house on the continuation (1.5 m) would beat a house 3 m away.
        #expect(try linked(endReach: LinkWeights().endReach) == ["h6", "h8", "h10"])
        #expect(try linked(endReach: LinkWeights().endReach) == linked(endReach: 0))
    }

    /// A block of flats (480 m²) at the street's end holds numbers 1 to 9, their entrances'
    /// points 1–4 m before it at no common offset from the line; a house stands on the street's
    /// continuation 30 m past the end. The numbers stand at their own building, not in a pile,
    /// and all stay on the block. Taken for one household's house (`sharedFootprint` above its
    /// size), the block leaves them a pile, and the house past the end takes some of them; so
    /// do points a geocoder set, all 2 m off the line.
    @Test func numbersBeforeABlockOfFlatsAtTheEndAreNoPile() throws {
        let numbers = ["1", "3", "5", "7", "9"]
        func scene(offset: (Int) -> Double) -> Scene {
            var s = Scene()
            s.road("main", "LINESTRING(-100 0,0 0)", name: "Main Street")
            s.building("block", "POLYGON((-30 5,10 5,10 17,-30 17,-30 5))")
            s.building("past", "POLYGON((30 -5,40 -5,40 5,30 5,30 -5))")
            for (i, n) in numbers.enumerated() { s.address("f\(n)", -8 + 4 * Double(i), offset(i), number: n) }
            return s
        }
        let entrances = scene { 1.2 + 0.7 * Double($0) }
        let flats = try entrances.link()
        #expect(numbers.map { flats.link("f\($0)").buildingID } == numbers.map { _ in "block" })
        let house = try entrances.link(\.sharedFootprint, 1e9)
        #expect(numbers.contains { house.link("f\($0)").buildingID == "past" })
        let geocoded = try scene { _ in 2 }.link()
        #expect(numbers.contains { geocoded.link("f\($0)").buildingID == "past" })
    }
}

/// Maple Street is missing from the extract: its five houses stand 40 m back from Dunkirk
/// Street, behind a row of Dunkirk Street's own houses, and a geocoder falling back to the
/// nearest road has put each Maple number on Dunkirk Street, 7 m off its line, before its house
/// (slid a few metres along the road), 13 m from every footprint.
@Suite struct StreetWithNoLineTests {
    static let maple = ["2", "4", "6", "8", "10"]

    /// `numbered`: Dunkirk Street's houses hold their own numbers.
    func scene(mapleY: Double = 7, numbered: Bool = true) -> Scene {
        var s = Scene()
        s.road("dunkirk", "LINESTRING(-100 0,100 0)", name: "Dunkirk Street")
        for (i, slide) in [2.0, -3, 1, -2, 3].enumerated() {
            let x = -40 + 20 * Double(i)
            s.building("d\(i)", "POLYGON((\(x - 5) 20,\(x + 5) 20,\(x + 5) 30,\(x - 5) 30,\(x - 5) 20))")
            if numbered { s.address("da\(i)", x, 17, number: "\(2 * i + 1)", street: "Dunkirk Street") }
            s.building("m\(Self.maple[i])", "POLYGON((\(x - 5) 45,\(x + 5) 45,\(x + 5) 55,\(x - 5) 55,\(x - 5) 45))")
            s.address("ma\(Self.maple[i])", x + slide, mapleY, number: Self.maple[i], street: "Maple Street")
        }
        return s
    }

    func linkedMaple(_ s: Scene, endReach: Double = LinkWeights().endReach) throws -> [String] {
        let result = try s.link(\.endReach, endReach)
        if result.links.contains(where: { $0.addressID == "da0" }) {
            #expect((0..<5).map { result.link("da\($0)").buildingID } == (0..<5).map { "d\($0)" })
        }
        return Self.maple.map { result.link("ma\($0)").buildingID ?? "-" }
    }

    @Test func pointsOfAStreetWithNoLineGoToTheHousesBehindTheRoad() throws {
        #expect(try linkedMaple(scene()) == Self.maple.map { "m\($0)" })
        // Read from the points alone, the numbers take Dunkirk Street's houses in front.
        #expect(try linkedMaple(scene(), endReach: 0).allSatisfy { $0.hasPrefix("d") })
    }

    /// A point within a front yard of a footprint stands at a house, and a point whose nearest
    /// footprint no other street's number takes may stand a few metres before its own: both are
    /// read from the point.
    @Test func aPointByAHouseOrByAFreeFootprintIsReadFromThePoint() throws {
        #expect(try linkedMaple(scene(mapleY: 11)) == linkedMaple(scene(mapleY: 11), endReach: 0))
        #expect(try linkedMaple(scene(numbered: false)) == linkedMaple(scene(numbered: false), endReach: 0))
    }
}
