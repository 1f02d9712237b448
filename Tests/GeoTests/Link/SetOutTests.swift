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
}
