import Testing
@testable import Geo

/// Main Street runs along y = 0. Five large houses hold no number; beside each, touching its
/// wall, a small shop stands 0.5 m further back and holds one. Each shop's point stands 1 to
/// 3.8 m out from its front (no two at one offset from the street, as a geocoder's would),
/// 0.2 m from the corner it shares with the house, and so nearer the house: on the shop's
/// shortest way to the street, not on the house's.
@Suite struct SetOutTests {
    static let shops = ["2", "4", "6", "8", "10"]

    /// `behind`: the shops whose points stand 1 m behind them instead (parcel centroids): on no
    /// footprint's shortest way to the street.
    func scene(behind: Set<String> = []) -> Scene {
        var s = Scene()
        s.road("main", "LINESTRING(-100 0,200 0)", name: "Main Street")
        for (i, n) in Self.shops.enumerated() {
            let x = -40 + 18 * Double(i)
            s.building("h\(n)", "POLYGON((\(x) 5,\(x + 12) 5,\(x + 12) 17,\(x) 17,\(x) 5))")
            s.building("s\(n)", "POLYGON((\(x + 12) 5.5,\(x + 17) 5.5,\(x + 17) 12,\(x + 12) 12,\(x + 12) 5.5))")
            s.address("a\(n)", behind.contains(n) ? x + 14.5 : x + 12.2, behind.contains(n) ? 13 : 4.5 - 0.7 * Double(i), number: n)
        }
        return s
    }

    @Test func pointsSetOutFromTheirHousesGoToThem() throws {
        let r = try scene().link()
        #expect(Self.shops.map { r.link("a\($0)").buildingID } == Self.shops.map { "s\($0)" })
        // Without the reading, the nearer house, larger than the shop, takes each point.
        let off = try scene().link(\.setOutPenalty, 0)
        #expect(Self.shops.map { off.link("a\($0)").buildingID } == Self.shops.map { "h\($0)" })
    }

    /// Where the street's points around do not stand set out (three of five here), a point that
    /// does says nothing more than its distance.
    @Test func aStreetWhosePointsWereNotSetOutIsReadByDistance() throws {
        let r = try scene(behind: ["2", "6", "10"]).link()
        #expect(["4", "8"].map { r.link("a\($0)").buildingID } == ["h4", "h8"])
    }

    @Test func theExplanationShowsTheCost() throws {
        var o = LinkerOptions()
        o.explain = ["a6"]
        let e = try #require(try scene().link(o).explanations.first)
        let house = try #require(e.candidates.first { $0.buildingID == "h6" })
        let shop = try #require(e.candidates.first { $0.buildingID == "s6" })
        #expect(house.setOut == LinkWeights().setOutPenalty && shop.setOut == 0 && e.chosen == "s6")
    }

    /// The shops, and at the corner of Side Street a house c whose point stands set out from it
    /// toward Side Street, on its shortest way there: read from Main Street, c lies further aside
    /// than any ray may turn. Beyond the point stands a house n whose front is turned off the
    /// street, so the point stands on no shortest way of n's. With `branch`, a branch of Main
    /// Street runs through the point in place of n: the point lies on its street's line.
    func cornerScene(branch: Bool = false) -> Scene {
        var s = scene()
        s.road("side", "LINESTRING(61 -50,61 100)", name: "Side Street")
        s.building("c", "POLYGON((38 23,52 23,52 27,38 27,38 23))")
        if branch {
            s.road("branch", "LINESTRING(56.8 0,56.8 60)", name: "Main Street")
        } else {
            s.building("n", "POLYGON((54 30,60 31,60 40,54 40,54 30))")
        }
        s.address("a12", 57, 25, number: "12")
        return s
    }

    func explained(_ s: Scene) throws -> LinkExplanation {
        var o = LinkerOptions()
        o.explain = ["a12"]
        return try #require(try s.link(o).explanations.first)
    }

    /// Set out before c, the point stands on a straight way from Side Street: c costs its
    /// distance, not the right angle's turn its rays from Main Street would charge.
    @Test func aPointSetOutTowardAnotherRoadGoesAlongIt() throws {
        #expect(try cornerScene().link().link("a12").buildingID == "c")
        #expect(try cornerScene().link(\.setOutPenalty, 0).link("a12").buildingID == "n")
        let e = try explained(cornerScene())
        let c = try #require(e.candidates.first { $0.buildingID == "c" })
        let n = try #require(e.candidates.first { $0.buildingID == "n" })
        #expect(c.turnDegrees == nil && c.setOut < 0 && abs(c.ray + c.setOut - c.distance) < 1e-9)
        #expect(n.setOut == LinkWeights().setOutPenalty)
    }

    /// A point on its street's line (read a step off it to one side) is read set out as given:
    /// toward Side Street, before c.
    @Test func aPointOnItsStreetsLineIsReadAsGiven() throws {
        let e = try explained(cornerScene(branch: true))
        #expect(e.chosen == "c")
        #expect(e.candidates.contains { $0.setOut == LinkWeights().setOutPenalty })
    }

    /// Four points 2 m off Back Lane's line, each 1 m before its house, share their street's
    /// offset as a geocoder's points before a row drawn true to the street would. With the shops
    /// around, set out at offsets of their own, the rule is read as one that set points by their
    /// houses, and these too are read set out; without them, not.
    func lane(withShops: Bool) -> Scene {
        var s = withShops ? scene() : Scene()
        if !withShops { s.road("main", "LINESTRING(-100 0,200 0)", name: "Main Street") }
        s.road("lane", "LINESTRING(-60 40,60 40)", name: "Back Lane")
        for k in 0..<4 {
            let x = -30 + 12 * Double(k)
            s.building("l\(k)", "POLYGON((\(x) 43,\(x + 11) 43,\(x + 11) 55,\(x) 55,\(x) 43))")
            s.address("b\(k)", x + 3 + Double(k), 42, number: "\(2 * k + 1)", street: "Back Lane")
        }
        return s
    }

    @Test func pointsAtTheirStreetsOffsetAreReadSetOutAmongOthersThatAreNot() throws {
        for withShops in [true, false] {
            var o = LinkerOptions()
            o.explain = ["b1"]
            let e = try #require(try lane(withShops: withShops).link(o).explanations.first)
            let next = try #require(e.candidates.first { $0.buildingID == "l2" })
            #expect(e.chosen == "l1" && next.setOut == (withShops ? LinkWeights().setOutPenalty : 0))
        }
    }

    /// A house and its shop 100 m past the last of the others, the shop's point set out from
    /// it: no other point within `numberRadius` can be read, so the nearest ones that can (the
    /// shops', out to `sideRadius`) tell how the file's points were placed.
    @Test func aLonePointIsReadAmongTheNearestPointsThatCanBe() throws {
        var s = scene()
        s.building("hx", "POLYGON((150 5,162 5,162 17,150 17,150 5))")
        s.building("sx", "POLYGON((162 5.5,167 5.5,167 12,162 12,162 5.5))")
        s.address("ax", 162.2, 2.9, number: "20")
        #expect(try s.link().link("ax").buildingID == "sx")
        #expect(try s.link(\.sideRadius, LinkWeights().numberRadius).link("ax").buildingID == "hx")
    }

    /// Points on open ground across the street, farther than `setOutReach` from every footprint,
    /// could stand set out before none: they are not read, and the shops' points still are.
    @Test func pointsOnOpenGroundAreNotRead() throws {
        var s = scene()
        for k in 0..<4 { s.address("o\(k)", -30 + 20 * Double(k), -20, number: "\(2 * k + 1)") }
        let r = try s.link()
        #expect(Self.shops.map { r.link("a\($0)").buildingID } == Self.shops.map { "s\($0)" })
    }

    /// Main Street drawn only as far as x = 0. Past its end stand two small houses, f north and
    /// g south of the line's continuation, and behind them b north and c south; e straddles the
    /// continuation further on and holds no number. Each point is set out from its house's
    /// corner nearest the end straight toward it: b's and c's pass beside f and g, nearer to
    /// them than to their own houses, so four numbers stand by two footprints at the end, a
    /// pile a geocoder would leave there.
    func deadEnd() -> Scene {
        var s = Scene()
        s.road("main", "LINESTRING(-100 0,0 0)", name: "Main Street")
        s.building("f", "POLYGON((3 3,7 3,7 10,3 10,3 3))")
        s.building("g", "POLYGON((3 -3,7 -3,7 -10,3 -10,3 -3))")
        s.building("b", "POLYGON((12 2,20 2,20 10,12 10,12 2))")
        s.building("c", "POLYGON((12 -2,20 -2,20 -10,12 -10,12 -2))")
        s.building("e", "POLYGON((22 -4,30 -4,30 4,22 4,22 -4))")
        // The point `t` metres from `corner` toward the street's end.
        func setOut(_ id: String, _ corner: (x: Double, y: Double), _ t: Double, _ n: String) {
            let k = 1 - t / (corner.x * corner.x + corner.y * corner.y).squareRoot()
            s.address(id, corner.x * k, corner.y * k, number: n)
        }
        setOut("af", (3, 3), 2, "2")
        setOut("ab", (12, 2), 10, "4")
        setOut("ac", (12, -2), 9, "6")
        setOut("ag", (3, -3), 1.5, "8")
        return s
    }

    /// Set out before its own house, b's point reads no pile at the street's end (no geocoder put
    /// it there): its candidates are scored from the point. With the reading off, the four
    /// points are read as a pile, and b's candidates scored along the street's continuation.
    @Test func aPointSetOutAtAStreetEndReadsNoPile() throws {
        var o = LinkerOptions()
        o.explain = ["ab"]
        let e = try #require(try deadEnd().link(o).explanations.first)
        #expect(e.chosen == "b" && e.candidates.allSatisfy { !$0.pastStreetEnd })
        o.weights.setOutPenalty = 0
        let off = try #require(try deadEnd().link(o).explanations.first)
        #expect(off.candidates.contains { $0.pastStreetEnd })
    }
}
