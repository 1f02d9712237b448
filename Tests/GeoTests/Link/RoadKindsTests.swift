import Testing
@testable import Geo

/// Which roads stand between a point and a house: a street does, an unnamed service way (a
/// driveway, the loop round a building) does not.
@Suite struct RoadKindsTests {
    /// Main Street runs along y = 0; the point stands 5 m off it. "own" stands straight behind
    /// the point, 10 m away, inside a loop road 5 m before its front; "next" stands beside the
    /// loop, reached only by a ray turned about 50° (some 29 m of cost, below "own"'s 10 m plus
    /// the 25 m across a road).
    func linked(loopName: String?, loopClass: String) throws -> String? {
        var s = Scene()
        s.road("main", "LINESTRING(-60 0,60 0)", name: "Main Street")
        s.road("loop", "LINESTRING(-10 10,10 10,10 32,-10 32,-10 10)", name: loopName, class: loopClass)
        s.building("own", "POLYGON((-6 15,6 15,6 27,-6 27,-6 15))")
        s.building("next", "POLYGON((12 4,22 4,22 16,12 16,12 4))")
        s.address("a", 0, 5)
        return try s.link().link("a").buildingID
    }

    @Test func anUnnamedServiceWayDoesNotPutAHouseAcrossTheRoad() throws {
        #expect(try linked(loopName: nil, loopClass: "service") == "own")
    }

    @Test func aStreetDoes() throws {
        #expect(try linked(loopName: "Loop Road", loopClass: "service") == "next")
        #expect(try linked(loopName: nil, loopClass: "residential") == "next")
    }

    @Test func theKinds() {
        func seg(_ cls: String, _ name: String? = nil) -> Segment {
            Segment(id: "s", line: [Coord(0, 0), Coord(1, 0)], subtype: "road", segmentClass: cls, name: name)
        }
        #expect(LinkWorld.separatesHouses(seg("residential"), named: false))
        #expect(LinkWorld.separatesHouses(seg("service", "Mews"), named: true))
        #expect(!LinkWorld.separatesHouses(seg("service"), named: false))
        #expect(!LinkWorld.separatesHouses(seg("footway", "Walk"), named: true))
    }
}
