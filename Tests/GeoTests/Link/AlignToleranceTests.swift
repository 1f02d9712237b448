import Testing
@testable import Geo

/// The alignment's tolerance: a cost difference smaller than a point's common error along the
/// street says nothing of which house is a number's own, so the count of houses decides.
@Suite struct AlignToleranceTests {
    /// Houses 6 m wide in a row, h0 to h7, numbered 1 to 13 from h1 on; number 13's point lies
    /// inside h7 (covered), the others 7 m in front of the houses and slid 4 m back along the
    /// street, each before the house before its own, as one geocoder's slide put them. h0
    /// carries no number.
    func slidRow() -> Scene {
        var s = Scene()
        s.road("r", "LINESTRING(-60 0,100 0)", name: "Main Street")
        for k in 0...7 {
            let x = Double(6 * k)
            s.building("h\(k)", "POLYGON((\(x) 12,\(x + 6) 12,\(x + 6) 24,\(x) 24,\(x) 12))")
        }
        for k in 1...6 { s.address("a\(k)", Double(6 * k) - 1, 5, number: "\(2 * k - 1)") }
        s.address("a7", 45, 18, number: "13")
        return s
    }

    func linked(_ tolerance: Double) throws -> [String] {
        let r = try slidRow().link(\.alignTolerance, tolerance)
        return (1...7).map { r.link("a\($0)").buildingID ?? "-" }
    }

    @Test func aRunSlidByLessThanAHouseKeepsItsHouses() throws {
        #expect(try linked(LinkWeights().alignTolerance) == (1...7).map { "h\($0)" })
        // Read to the metre, every slid point takes the house before its own and h6 stands empty.
        #expect(try linked(0) == ["h0", "h1", "h2", "h3", "h4", "h5", "h7"])
    }
}
