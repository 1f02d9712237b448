import Testing
@testable import Geo

/// The repair after the greedy assignment, on hand-made candidate lists, and the linker's
/// reading of points that lie behind their house.
@Suite struct AssignmentRepairTests {
    /// The repair's choice per address, from `start`, for addresses whose candidate lists are
    /// (footprint, cost) pairs, on single-family footprints with no COVERS claims, 20 m a second household.
    func repaired(_ lists: [[(Int, Double)]], keys: [String], start: [Int]) -> [Int] {
        let pending = lists.enumerated().map { a, costs in
            (address: a, scored: costs.map { Candidate(building: $0.0, distance: $0.1, cost: $0.1, directional: true) })
        }
        var r = AssignmentRepair(pending: pending, keys: keys,
                                 claims: [:], occupancy: Occupancy(second: 20, corner: 20), choice: start)
        return r.run(order: Array(lists.indices))
    }

    @Test func twoAddressesTradeFootprintsWhenThatCostsLess() {
        // Start crossed: address 0 on footprint 1, address 1 on footprint 0 (cost 10 in all).
        #expect(repaired([[(0, 1), (1, 5)], [(0, 5), (1, 1)]], keys: ["1", "3"], start: [1, 0]) == [0, 1])
    }

    @Test func aHolderMovesOnToAFreeFootprintToMakeRoom() {
        // Address 0 shares footprint 0 with address 1 (paying the second-household cost);
        // address 1 could stand on free footprint 2 for 3 m more.
        #expect(repaired([[(0, 2), (1, 40)], [(0, 1), (2, 4)]], keys: ["1", "3"], start: [0, 0]) == [0, 1])
    }

    @Test func joiningAFootprintCostsOneHouseholdsPenalty() {
        // Two units of number 5 (one household) share footprint 1. Address 0 (number 7) joins
        // them when that saves more than the 20 m a second household costs, not otherwise.
        func run(_ own: Double) -> [Int] {
            repaired([[(0, own), (1, 1)], [(1, 1)], [(1, 1)]], keys: ["7", "5", "5"], start: [0, 0, 0])
        }
        #expect(run(30) == [1, 0, 0])   // 30 → 1 + 20
        #expect(run(15) == [0, 0, 0])   // 15 < 1 + 20
    }

    @Test func aSecondStreetCostsLessThanASecondNumberOfOneStreet() {
        let o = Occupancy(second: 20, corner: 10)
        #expect(o.added("5|main", to: []) == 0)
        #expect(o.added("5|main", to: ["5|main"]) == 0)       // units of one number: one household
        #expect(o.added("5|main", to: ["7|main"]) == 20)      // a second household on the street
        #expect(o.added("5|main", to: ["2|cross"]) == 10)     // a corner numbered on both streets
        #expect(o.added("5|main", to: ["2|cross", "7|main"]) == 20)
        #expect(o.cost(["5|main", "7|main", "2|cross"]) == 30)
        #expect(o.cost(["5|main"]) == 0)
    }

    @Test func aCornerFootprintTakesTheOtherStreetsNumberUnlessAFreeHouseIsNear() throws {
        // A corner building numbered 1 Cross Street (its point inside) and a number of Main
        // Street 1 m in front of it; a building behind it, 16 m away, holds nothing.
        func scene(nextDoor: Bool, corner: Double = 10) throws -> Link {
            var s = Scene()
            s.road("main", "LINESTRING(-60 0,60 0)", name: "Main Street")
            s.road("cross", "LINESTRING(0 -60,0 60)", name: "Cross Street")
            s.building("corner", "POLYGON((5 5,25 5,25 15,5 15,5 5))")
            s.building("behind", "POLYGON((5 20,25 20,25 30,5 30,5 20))")
            if nextDoor { s.building("next", "POLYGON((26 5,38 5,38 15,26 15,26 5))") }
            s.address("c1", 7, 10, number: "1", street: "Cross Street")
            s.address("m2", nextDoor ? 25 : 15, nextDoor ? 3 : 4, number: "2", street: "Main Street")
            return try s.link(\.cornerPenalty, corner).link("m2")
        }
        #expect(try scene(nextDoor: false).buildingID == "corner")
        // Were a corner as costly as a second household (20 m), the empty building behind won.
        #expect(try scene(nextDoor: false, corner: 20).buildingID == "behind")
        // A free house beside, a little farther than the corner and 27° off, takes it.
        #expect(try scene(nextDoor: true).buildingID == "next")
    }

    @Test func nothingMovesWhenTheGreedyChoiceIsBest() {
        #expect(repaired([[(0, 1), (1, 5)], [(1, 1), (0, 5)]], keys: ["1", "3"], start: [0, 0]) == [0, 0])
    }

    @Test func aPointBehindItsHouseLinksToThatHouseNotTheOneBehind() throws {
        var s = Scene()
        s.road("r", "LINESTRING(-50 0,50 0)", name: "Main Street")
        s.road("back", "LINESTRING(-50 60,50 60)", name: "Back Street")
        s.building("own", "POLYGON((-5 10,5 10,5 22,-5 22,-5 10))")
        // The house of the street behind, back to back, 6 m from the point.
        s.building("rear", "POLYGON((-5 30,5 30,5 45,-5 45,-5 30))")
        s.address("a1", 0, 24)   // a parcel centroid in the back yard, 2 m behind its house
        let l = try s.link().link("a1")
        #expect(l.buildingID == "own")
        #expect(l.streetMatch)
    }

    @Test func confidenceFallsWhenTheFootprintDoesNotFrontTheNamedStreet() throws {
        // The same drawing twice; only the road's name differs, so in the second the house does
        // not front the street its address names and nothing else about the link changes.
        func link(roadName: String?) throws -> Link {
            var s = Scene()
            s.road("r", "LINESTRING(-50 0,50 0)", name: roadName)
            s.building("own", "POLYGON((-5 10,5 10,5 22,-5 22,-5 10))")
            s.address("a1", 0, 5)
            return try s.link().link("a1")
        }
        let named = try link(roadName: "Main Street"), other = try link(roadName: "Elm Street")
        #expect(named.streetMatch && !other.streetMatch)
        #expect(other.buildingID == named.buildingID && other.distance == named.distance)
        #expect(other.confidence == Linker.streetMismatch(named.confidence))
    }

    @Test func everyNamedWeightIsSetAnglesInDegrees() {
        let defaults = LinkWeights()
        for name in LinkWeights.names {
            var w = defaults
            #expect(w.set(name, 7) && w != defaults, "\(name)")
        }
        var w = defaults
        #expect(w.set("maxTurn", 90) && abs(w.maxTurn - Double.pi / 2) < 1e-12)
        #expect(!w.set("turnStep", 0) && !w.set("leaveOut", -1) && !w.set("noSuchWeight", 1))
        #expect(w.turnStep == defaults.turnStep && w.leaveOut == defaults.leaveOut)
    }

    /// The defaults `flyr link --help` lists (and the accuracy sweep reads) name every weight and
    /// set each back to its default.
    @Test func theListedDefaultsAreTheDefaults() throws {
        #expect(LinkWeights.defaults.map { String($0.split(separator: "=")[0]) } == LinkWeights.names)
        var w = LinkWeights()
        for name in LinkWeights.names { _ = w.set(name, 7) }
        #expect(w != LinkWeights())
        for item in LinkWeights.defaults {
            let parts = item.split(separator: "=")
            let value = try #require(Double(parts[1]))
            let set = w.set(String(parts[0]), value)
            #expect(set, "\(item)")
        }
        #expect(abs(w.maxTurn - LinkWeights().maxTurn) < 1e-9 && abs(w.turnStep - LinkWeights().turnStep) < 1e-9)
        w.maxTurn = LinkWeights().maxTurn; w.turnStep = LinkWeights().turnStep
        #expect(w == LinkWeights())
    }
}
