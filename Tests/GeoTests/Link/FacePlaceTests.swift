import Testing
@testable import Geo

/// Addresses whose street has no line near them (a place name instead of a street, a street
/// missing from the extract, no street at all) are aligned along the road they stand by.
@Suite struct FacePlaceTests {
    /// Eighteen houses 9 m apart along Main Street, the middle twelve numbered 1, 3, 5… in
    /// order, each point slid up to `slide` metres along the street either way, as a geocoder
    /// slides it (drawn from `seed`): read one by one, a point may land on its neighbour; the
    /// order holds the run. With `garages`, a garage of 42 m² (as big as a small home) stands
    /// behind every third house, across the line between its lot and the next.
    func slidRun(street: String? = "Main Street", seed: UInt64 = 3, slide: Double = 6, garages: Bool = false) -> Scene {
        var s = Scene()
        var g = SeededRandom(seed: seed)
        s.road("r", "LINESTRING(-60 0,160 0)", name: "Main Street")
        for k in -3..<15 {
            let x = Double(9 * k)
            s.building("h\(k)", "POLYGON((\(x) 14,\(x + 8) 14,\(x + 8) 24,\(x) 24,\(x) 14))")
            if garages, k % 3 == 0 { s.building("g\(k)", "POLYGON((\(x + 5) 28,\(x + 11) 28,\(x + 11) 35,\(x + 5) 35,\(x + 5) 28))") }
            guard (0..<12).contains(k) else { continue }
            s.address("a\(k)", x + 4 + Double(g.next() % 1000) / 1000 * 2 * slide - slide, 5, number: "\(2 * k + 1)", street: street)
        }
        return s
    }

    /// A garage behind the row is no house the run passes over: the houses link as they do
    /// without it. (Points slid up to 8 m; counted as homes, the garages cost this drawing's run
    /// two houses: passing one over then costs as much as passing over a house, and the run
    /// shifts by one.)
    @Test func aGarageBehindTheRowIsNoHousePassedOver() throws {
        let with = try slidRun(seed: 12, slide: 8, garages: true).link(), without = try slidRun(seed: 12, slide: 8).link()
        let houses = { (r: LinkResult) in (0..<12).map { r.link("a\($0)").buildingID } }
        #expect(misses(without) == 0)
        #expect(houses(with) == houses(without))
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
