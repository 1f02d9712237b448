import Testing
@testable import Geo

/// Points on the street's centreline, as a street-range geocoder that sets no offset returns
/// them: the side comes from the parity of the numbers.
@Suite struct LinePointsTests {
    /// Main Street along y = 0; odd numbers in houses 14 m north of its line, even numbers in
    /// houses 10 m south (the nearer side), ten of each, every point on the line before its
    /// house. `known` numbers (one of each parity) stand off the line before their house;
    /// `split` draws the street as two segments running opposite ways.
    func street(known: Bool, split: Bool = false) -> Scene {
        var s = Scene()
        if split {
            // Drawn from both ends toward the middle: the two segments run opposite ways.
            s.road("r1", "LINESTRING(-60 0,100 0)", name: "Main Street")
            s.road("r2", "LINESTRING(260 0,100 0)", name: "Main Street")
        } else {
            s.road("r", "LINESTRING(-60 0,260 0)", name: "Main Street")
        }
        for k in 0..<10 {
            let x = Double(20 * k)
            s.building("n\(k)", "POLYGON((\(x) 14,\(x + 12) 14,\(x + 12) 24,\(x) 24,\(x) 14))")
            s.building("s\(k)", "POLYGON((\(x + 5) -10,\(x + 17) -10,\(x + 17) -20,\(x + 5) -20,\(x + 5) -10))")
            let offLine = known && k == (split ? 1 : 4)
            s.address("o\(k)", x + 6, offLine ? 7 : 0, number: "\(2 * k + 1)")
            s.address("e\(k)", x + 11, offLine ? -5 : 0, number: "\(2 * k + 2)")
        }
        return s
    }

    func misses(_ r: LinkResult) -> Int {
        (0..<10).filter { r.link("o\($0)").buildingID != "n\($0)" }.count
            + (0..<10).filter { r.link("e\($0)").buildingID != "s\($0)" }.count
    }

    /// Read by the nearest footprint alone the odd numbers would cross to the nearer side; the
    /// two numbers whose side their points show set the side of every number of their parity.
    @Test func pointsOnTheLineTakeTheSideTheirParityStandsOn() throws {
        var s = street(known: true)
        #expect(misses(try s.link()) == 0)
        s.addresses.reverse()
        s.buildings.reverse()
        #expect(misses(try s.link()) == 0)
    }

    /// The known numbers stand by one segment, most of the others by a segment drawn the other
    /// way: its left is their right.
    @Test func aSegmentDrawnTheOtherWayTurnsTheEvidenceRound() throws {
        #expect(misses(try street(known: true, split: true).link()) == 0)
    }

    /// With every point on the line the costs alone lean to the nearer side for both parities:
    /// odd and even numbers still end on opposite sides of the street, each on the side of one
    /// of its houses.
    @Test func withEveryPointOnTheLineTheParitiesTakeOppositeSides() throws {
        let r = try street(known: false).link()
        let odd = (0..<10).map { r.link("o\($0)").buildingID?.first }, even = (0..<10).map { r.link("e\($0)").buildingID?.first }
        #expect(Set(odd).count == 1 && Set(even).count == 1 && odd[0] != even[0])
    }

    /// The distance reported is from the point as given, not from where it is read.
    @Test func theDistanceIsFromThePointAsGiven() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-60 0,60 0)", name: "Main Street")
        s.building("h", "POLYGON((-5 5,5 5,5 15,-5 15,-5 5))")
        s.address("a", 0, 0, number: "1")
        let l = try s.link().link("a")
        #expect(l.buildingID == "h" && l.method == .buffer && abs(l.distance - 5) < 0.01)
    }

    /// The side read from a point's own costs is weaker evidence than one a neighbour's point off
    /// the line shows: the numbers within 60 m of the two known ones are surer of their links.
    @Test func confidenceFollowsTheEvidenceForTheSide() throws {
        let guessed = try street(known: false).link(), shown = try street(known: true).link()
        for k in [2, 3, 5, 6, 7] {
            #expect(shown.link("o\(k)").confidence > guessed.link("o\(k)").confidence)
        }
        #expect(Linker.sideOfLine(0.8, evidence: 0, radius: 80) == 0.4)
        #expect(Linker.sideOfLine(0.8, evidence: 40, radius: 80) == 0.6)
        #expect(Linker.sideOfLine(0.8, evidence: 200, radius: 80) == 0.8)
    }
}
