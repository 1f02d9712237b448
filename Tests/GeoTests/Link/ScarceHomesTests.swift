import Testing
@testable import Geo

/// Small footprints in a row where the homes are too few for the households
/// (`LinkWorld.homesScarce`): homes, not garages, by their size.
@Suite struct ScarceHomesTests {
    /// Main Street along y = 0 and a row of `count` footprints 4 m wide and 10 m deep (40 m², under
    /// `smallFootprint`), `gap` metres apart, numbered 1, 3, 5… with a door point a metre before
    /// each (ids h1, a1, h3, a3…); only those of `numbered` (0 the first) have an address.
    func shophouses(count: Int = 8, gap: Double = 0, numbered: Set<Int>? = nil) -> Scene {
        var s = Scene()
        s.road("r", "LINESTRING(-40 0,80 0)", name: "Main Street")
        for k in 0..<count {
            let x = Double(k) * (4 + gap), n = "\(2 * k + 1)"
            s.building("h" + n, "POLYGON((\(x) 3,\(x + 4) 3,\(x + 4) 13,\(x) 13,\(x) 3))")
            if numbered?.contains(k) ?? true { s.address("a" + n, x + 2, 2, number: n) }
        }
        return s
    }

    /// What the footprint the address's point stands before costs it as an outbuilding.
    func outbuildingCost(_ s: Scene, _ address: String, _ building: String) throws -> Double? {
        var o = LinkerOptions()
        o.explain = [address]
        let e = try #require(try s.link(o).explanations.first)
        return e.candidates.first { $0.buildingID == building }?.outbuilding
    }

    /// Eight numbers on eight small footprints wall to wall, no footprint of a home's size
    /// around: each is a home. Set a metre apart, or with one number for the eight, each is a
    /// garage by its size again, and so is a row's end, which shares one wall only.
    @Test func aSmallFootprintInARowWhereHomesAreScarceIsAHome() throws {
        let small = LinkWeights().smallFootprintPenalty
        #expect(try outbuildingCost(shophouses(), "a5", "h5") == 0)
        #expect(try outbuildingCost(shophouses(), "a1", "h1") == small)
        #expect(try outbuildingCost(shophouses(gap: 1), "a5", "h5") == small)
        #expect(try outbuildingCost(shophouses(numbered: [1]), "a3", "h3") == small)
    }

    /// The same row with six houses of 120 m² behind it: eight households for six homes is not
    /// half again as many, so the small footprints are garages; with five, homes are scarce.
    @Test func theHomesAroundAreCountedAgainstTheHouseholds() throws {
        func cost(houses: Int) throws -> Double? {
            var s = shophouses()
            for k in 0..<houses {
                let x = Double(14 * (k % 3)), y = Double(20 + 12 * (k / 3))
                s.building("big\(k)", "POLYGON((\(x) \(y),\(x + 12) \(y),\(x + 12) \(y + 10),\(x) \(y + 10),\(x) \(y)))")
            }
            return try outbuildingCost(s, "a5", "h5")
        }
        #expect(try cost(houses: 6) == LinkWeights().smallFootprintPenalty)
        #expect(try cost(houses: 5) == 0)
    }

    /// Two footprints whose outlines meet only within a party wall's gap share a wall; a metre
    /// apart they do not.
    @Test func outlinesWithinAPartyWallsGapShareAWall() {
        func ring(_ x0: Double, _ y0: Double) -> [Coord] {
            [Coord(x0, y0), Coord(x0 + 4, y0), Coord(x0 + 4, y0 + 10), Coord(x0, y0 + 10), Coord(x0, y0)]
        }
        func near(_ a: [Coord], _ b: [Coord]) -> Bool {
            a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in
                [0, 5].withUnsafeBufferPointer { starts in
                    LinkWorld.within(RingsView(coords: pa, starts: starts), RingsView(coords: pb, starts: starts), LinkWorld.partyWall)
                }
            } }
        }
        #expect(near(ring(0, 0), ring(4.2, 2)))
        #expect(!near(ring(0, 0), ring(5, 0)))
    }
}
