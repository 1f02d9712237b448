import Testing
@testable import Geo

/// The alignment's reading of the front: a point before the corner where two houses meet, as
/// near to both, faces the one whose front reaches the street there.
@Suite struct RecessTests {
    /// Three houses 10 m wide on Main Street (the road at y = 0), fronts at y = 10: "a" has a
    /// porch 0.5 m nearer the street in the middle of its front, "b" and "c" have flat fronts.
    /// Number 1's point stands 5 m before the a/b corner, number 3's before the b/c corner, as a
    /// frontage rule puts them, out from the spot of each house nearest the street: 1 is b's,
    /// 3 is c's. Each point is as near to the house on its left, and "a" comes first by id.
    func corners() -> Scene {
        var s = Scene()
        s.road("r", "LINESTRING(-40 0,70 0)", name: "Main Street")
        s.building("a", "POLYGON((0 10,4 10,4 9.5,6 9.5,6 10,10 10,10 20,0 20,0 10))")
        s.building("b", "POLYGON((10 10,20 10,20 20,10 20,10 10))")
        s.building("c", "POLYGON((20 10,30 10,30 20,20 20,20 10))")
        s.address("p1", 10, 5, number: "1")
        s.address("p3", 20, 5, number: "3")
        return s
    }

    func linked(_ cost: Double) throws -> [String] {
        let r = try corners().link(\.recessCost, cost)
        return ["p1", "p3"].map { r.link($0).buildingID ?? "-" }
    }

    @Test func aPointBeforeTwoHousesFacesTheFrontThatReachesTheStreet() throws {
        #expect(try linked(LinkWeights().recessCost) == ["b", "c"])
        // Without it the two readings of the run cost the same, and the first footprint wins.
        #expect(try linked(0) == ["a", "b"])
    }
}
