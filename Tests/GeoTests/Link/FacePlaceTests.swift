import Testing
@testable import Geo

/// Addresses whose street has no line near them (a place name instead of a street, a street
/// missing from the extract, no street at all) are aligned along the road they stand by.
@Suite struct FacePlaceTests {
    /// Eighteen houses 9 m apart along Main Street, the middle twelve numbered 1, 3, 5… in
    /// order, each point slid up to 6 m along the street either way, as a geocoder slides it:
    /// read one by one, a point may land on its neighbour; the order holds the run.
    func slidRun(street: String?) -> Scene {
        var s = Scene()
        var g = SeededRandom(seed: 3)
        s.road("r", "LINESTRING(-60 0,160 0)", name: "Main Street")
        for k in -3..<15 {
            let x = Double(9 * k)
            s.building("h\(k)", "POLYGON((\(x) 14,\(x + 8) 14,\(x + 8) 24,\(x) 24,\(x) 14))")
            guard (0..<12).contains(k) else { continue }
            s.address("a\(k)", x + 4 + Double(g.next() % 1000) / 1000 * 12 - 6, 5, number: "\(2 * k + 1)", street: street)
        }
        return s
    }

    func misses(_ r: LinkResult) -> Int { (0..<12).filter { r.link("a\($0)").buildingID != "h\($0)" }.count }

    @Test func aRunOfItsOwnStreetHolds() throws {
        #expect(misses(try slidRun(street: "Main Street").link()) == 0)
    }

    /// Without the face read along the road the points stand by, one of these misses.
    @Test func aRunNamingAPlaceHoldsAlongTheRoadItStandsBy() throws {
        #expect(misses(try slidRun(street: "Hollis").link()) == 0)
    }

    @Test func aRunWithoutAStreetHoldsAlongTheRoadItStandsBy() throws {
        #expect(misses(try slidRun(street: nil).link()) == 0)
    }
}
