import Testing
@testable import Geo

/// `LinkerOptions.explain`: each explained address's candidates, term by term, as the linker
/// weighed them.
@Suite struct LinkExplanationTests {
    /// Main Street along y = 0: houses h0…h3 north of it, a garage behind h1, a house across
    /// the street, and a point inside h3.
    func block() -> Scene {
        var s = Scene()
        s.road("r", "LINESTRING(-40 0,120 0)", name: "Main Street")
        for k in 0..<4 {
            let x = Double(16 * k)
            s.building("h\(k)", "POLYGON((\(x) 8,\(x + 12) 8,\(x + 12) 20,\(x) 20,\(x) 8))")
        }
        s.building("garage", "POLYGON((18 24,24 24,24 30,18 30,18 24))", class: "garage")
        s.building("across", "POLYGON((14 -8,26 -8,26 -20,14 -20,14 -8))")
        s.address("a0", 6, 5, number: "1")
        s.address("a1", 22, 5, number: "3")
        s.address("a2", 38, 5, number: "5")
        s.address("a3", 54, 14, number: "7")
        return s
    }

    func explained(_ s: Scene, _ ids: Set<String>) throws -> LinkResult {
        var o = LinkerOptions()
        o.explain = ids
        return try s.link(o)
    }

    /// Each candidate's terms add up to its score, the assignment's choice is the link, and the
    /// cheapest candidate in the end is the one chosen.
    @Test func theTermsAddUpAndTheChoiceIsTheLink() throws {
        let r = try explained(block(), ["a0", "a1", "a2"])
        #expect(r.explanations.map(\.addressID) == ["a0", "a1", "a2"])
        for e in r.explanations {
            let link = r.link(e.addressID)
            #expect(e.chosen == link.buildingID && e.candidates.first?.buildingID == link.buildingID)
            #expect(e.road == "main st" && e.roadIsOwnStreet && abs((e.roadDistance ?? 0) - 5) < 0.01)
            for c in e.candidates where !c.pastStreetEnd {
                #expect(abs(c.ray + c.numberSpot + c.outbuilding + c.acrossRoad + c.setOut - c.score) < 1e-9)
                #expect(c.ray >= c.distance - 1e-9)
            }
        }
        // Straight back from the street, 3 m to the house it stands before.
        let first = try #require(r.explanations.first { $0.addressID == "a1" }?.candidates.first)
        #expect(first.buildingID == "h1" && first.facing && first.turnDegrees == 0 && abs(first.ray - 3) < 1e-6)
    }

    /// A sidewalk mapped as a footway carrying its street's name is not the street: the rays
    /// start from the carriageway of that name, 5 m away, not from the sidewalk 1.5 m away. A
    /// street that is only steps is still the address's own.
    @Test func theRaysStartFromTheCarriagewayNotItsSidewalk() throws {
        var s = block()
        s.road("walk", "LINESTRING(-40 6.5,120 6.5)", name: "Main Street", class: "footway")
        let e = try #require(try explained(s, ["a1"]).explanations.first)
        #expect(e.road == "main st" && e.roadIsOwnStreet && abs((e.roadDistance ?? 0) - 5) < 0.01, "\(e.roadDistance ?? -1)")
        var lane = Scene()
        lane.road("steps", "LINESTRING(-40 0,120 0)", name: "Stair Lane", class: "steps")
        lane.road("main", "LINESTRING(-40 -3,120 -3)", name: "Main Street")
        lane.building("h", "POLYGON((0 8,12 8,12 20,0 20,0 8))")
        lane.address("a", 6, 5, street: "Stair Lane")
        let f = try #require(try explained(lane, ["a"]).explanations.first)
        #expect(f.road == "stair ln" && f.roadIsOwnStreet && abs((f.roadDistance ?? 0) - 5) < 0.01)
    }

    /// The garage pays the outbuilding cost, the house across the street the road's.
    @Test func theGarageAndTheHouseAcrossTheRoadShowTheirCosts() throws {
        let e = try #require(try explained(block(), ["a1"]).explanations.first)
        let garage = try #require(e.candidates.first { $0.buildingID == "garage" })
        #expect(garage.outbuilding == LinkWeights().outbuildingPenalty && garage.acrossRoad == 0)
        let across = try #require(e.candidates.first { $0.buildingID == "across" })
        #expect(across.acrossRoad == LinkWeights().acrossRoadPenalty && across.outbuilding == 0)
    }

    /// A second number before a house already taken pays the second household there, rather
    /// than take the garage behind (a tagged outbuilding costs more): each of the two numbers
    /// sees the other's household on the house.
    @Test func aSecondNumberSeesTheHouseholdItWouldShareWith() throws {
        var s = block()
        s.address("a1b", 23, 5, number: "3A")
        let r = try explained(s, ["a1", "a1b"])
        #expect(r.link("a1").buildingID == "h1" && r.link("a1b").buildingID == "h1")
        let house = r.explanations.compactMap { e in e.candidates.first { $0.buildingID == "h1" } }
        #expect(house.count == 2 && house.allSatisfy { $0.occupancy == LinkWeights().occupiedPenalty })
    }

    /// A point inside a footprint is decided by COVERS, with nothing weighed; its clearance is
    /// what its confidence reads.
    @Test func aCoveredPointIsDecidedFirst() throws {
        let r = try explained(block(), ["a3"])
        let e = try #require(r.explanations.first)
        #expect(e.covering == "h3" && e.candidates.isEmpty && e.chosen == nil)
        let clearance = try #require(e.clearance)
        #expect(clearance > 0 && clearance <= Linker.coverClearance)
        #expect(r.link("a3").confidence == Linker.coversConfidence(clearance: clearance, amongSeveral: false))
    }

    /// Nothing is explained unless asked, and asking changes no link.
    @Test func explainingChangesNoLink() throws {
        let plain = try block().link(), asked = try explained(block(), ["a0", "a1", "a2", "a3"])
        #expect(plain.explanations.isEmpty && plain.links == asked.links)
    }
}
