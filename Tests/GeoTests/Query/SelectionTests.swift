import Foundation
import Testing
@testable import Geo

/// A point inside the sample area (Jamaica Avenue at 217th Street, roughly).
private let centre = Coord(-73.7405, 40.7175)

private func territory(_ json: String) throws -> Territory {
    try Territory(geoJSON: Data(json.utf8), file: "territory.geojson")
}

/// A square of `half` degrees around `c`, as a GeoJSON Polygon.
private func square(_ c: Coord, _ half: Double) -> String {
    let (w, e, s, n) = (c.x - half, c.x + half, c.y - half, c.y + half)
    return #"{"type":"Polygon","coordinates":[[[\#(w),\#(s)],[\#(e),\#(s)],[\#(e),\#(n)],[\#(w),\#(n)],[\#(w),\#(s)]]]}"#
}

@Suite struct SelectionTests {
    @Test func nearestAreTheClosestByDistanceThenId() throws {
        let s = Sample.shared
        let chosen = try Selection.nearest(to: centre, count: 10, in: s.addresses)
        #expect(chosen.count == 10)
        let d = chosen.map { Geodesic.inverse(centre, $0.point).distance }
        #expect(d == d.sorted())
        let farthest = try #require(d.last)
        let closer = s.addresses.filter { Geodesic.inverse(centre, $0.point).distance < farthest }
        #expect(Set(closer.map(\.id)).isSubset(of: Set(chosen.map(\.id))))
    }

    @Test func nearestTiesGoToTheSmallerId() throws {
        let p = Coord(-73.74, 40.72)
        let a = [Address(id: "b", point: p), Address(id: "c", point: Coord(-73.7401, 40.72)), Address(id: "a", point: p)]
        #expect(try Selection.nearest(to: p, count: 2, in: a).map(\.id) == ["a", "b"])
        #expect(try Selection.nearest(to: p, count: 9, in: a).map(\.id) == ["a", "b", "c"])
        #expect(throws: SelectionError.self) { try Selection.nearest(to: p, count: 0, in: a) }
        #expect(throws: SelectionError.self) { try Selection.nearest(to: p, count: 3, in: []) }
    }

    @Test func streetInHouseNumberOrder() throws {
        let s = Sample.shared
        let chosen = try Selection.street("218th st", addresses: s.addresses)
        #expect(chosen.count == s.addresses.filter { $0.street == "218th Street" }.count)
        #expect(chosen.allSatisfy { $0.street == "218th Street" })
        let numbers = chosen.compactMap { HouseNumbers.value($0.number, blocks: true) }
        #expect(numbers.count == chosen.count && numbers == numbers.sorted())
    }

    @Test func houseNumberOrderPutsNumberlessLast() {
        let p = Coord(0, 0)
        let a = [Address(id: "1", point: p, number: "12", street: "X"), Address(id: "2", point: p, number: "rear", street: "X"),
                 Address(id: "3", point: p, number: "9", street: "X"), Address(id: "4", point: p, number: "12", street: "X", unit: "A"),
                 Address(id: "5", point: p, number: "10-2", street: "X")]
        // "10-2" is a range (hyphens rare) or block 10, house 2 (Queens' way).
        #expect(a.sorted { Selection.houseNumberOrder($0, $1, blocks: false) }.map(\.id) == ["3", "5", "1", "4", "2"])
        #expect(a.sorted { Selection.houseNumberOrder($0, $1, blocks: true) }.map(\.id) == ["3", "1", "4", "5", "2"])
    }

    @Test func aStreetIsSelectedByAnyNameItsRoadCarries() throws {
        let p = Coord(24.94, 60.17)
        let road = Segment(id: "r", line: [p, Coord(24.95, 60.17)], subtype: "road", segmentClass: "residential", name: "Mannerheimintie",
                           namesJSON: #"{"primary":"Mannerheimintie","common":{"sv":"Mannerheimvägen"}}"#)
        let a = [Address(id: "1", point: p, number: "3", street: "Mannerheimvägen"), Address(id: "2", point: p, number: "1", street: "Mannerheimintie"),
                 Address(id: "3", point: p, number: "2", street: "Aleksanterinkatu")]
        #expect(try Selection.street("mannerheimvägen", addresses: a, segments: [road]).map(\.id) == ["2", "1"])
        #expect(try Selection.street("Mannerheimintie", addresses: a, segments: [road]).map(\.id) == ["2", "1"])
        #expect(try Selection.street("Mannerheimvägen", addresses: a).map(\.id) == ["1"])
    }

    /// One language of a bilingual road name selects the road's addresses, however they write it.
    @Test func aStreetIsSelectedByOnePartOfABilingualName() throws {
        let p = Coord(113.54, 22.19)
        let road = Segment(id: "r", line: [p, Coord(113.55, 22.19)], subtype: "road", segmentClass: "residential",
                           name: "十月初五日街(泗𠵼街) Rua de Cinco de Outubro", namesJSON: nil)
        let a = [Address(id: "1", point: p, number: "3", street: "十月初五日街 (泗𠵼街) Rua de Cinco de Outubro"),
                 Address(id: "2", point: p, number: "1", street: "十月初五日街 Rua de Cinco de Outubro"),
                 Address(id: "3", point: p, number: "2", street: "Rua de Tomás Vieira")]
        #expect(try Selection.street("Rua de Cinco de Outubro", addresses: a, segments: [road]).map(\.id) == ["2", "1"])
        #expect(try Selection.street("十月初五日街", addresses: a, segments: [road]).map(\.id) == ["2", "1"])
        // Its Chinese part names the road, the Portuguese misspelt.
        #expect(try Selection.street("十月初五日街 Rua do Cinco Outubro", addresses: a, segments: [road]).map(\.id) == ["2", "1"])
    }

    @Test func streetNearAPointKeepsItsNearestBlock() throws {
        let s = Sample.shared
        let whole = try Selection.street("Springfield Boulevard", addresses: s.addresses)
        let p = try #require(whole.first).point
        let block = try Selection.street("Springfield Blvd", near: p, addresses: s.addresses, segments: s.segments)
        #expect(!block.isEmpty && block.count < whole.count)
        #expect(block.contains { $0.id == whole.first!.id })
        #expect(Set(block.map(\.id)).isSubset(of: Set(whole.map(\.id))))
        #expect {
            try Selection.street("Springfield Blvd", near: p, addresses: s.addresses, segments: [])
        } throws: { ($0 as? SelectionError)?.kind == .needsSegments }
    }

    @Test func unknownStreetIsAnErrorWithSuggestions() throws {
        let s = Sample.shared
        #expect {
            try Selection.street("218th Avenue", addresses: s.addresses)
        } throws: { e in
            guard let e = e as? SelectionError else { return false }
            return e.kind == .unknownStreet && e.isUsage && e.message.contains("218th Street")
        }
        #expect(throws: SelectionError.self) { try Selection.street("--", addresses: s.addresses) }
    }

    @Test func withinATerritory() throws {
        let s = Sample.shared
        let index = try FeatureIndex(buildings: s.buildings, addresses: s.addresses)
        let t = try territory(square(centre, 0.001))
        let (a, b) = try Selection.within(t, index: index)
        let box = BBox(minX: centre.x - 0.001, minY: centre.y - 0.001, maxX: centre.x + 0.001, maxY: centre.y + 0.001)
        #expect(a.map(\.id) == s.addresses.filter { box.contains($0.point) }.map(\.id).sorted())
        #expect(!a.isEmpty)
        #expect(b.map(\.id) == (try index.buildings(in: box)).map(\.id))
    }

    @Test func territoryFileForms() throws {
        let poly = square(centre, 0.001)
        let bare = try territory(poly)
        #expect(try territory(#"{"type":"Feature","properties":{},"geometry":\#(poly)}"#) == bare)
        #expect(try territory(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","properties":{},"geometry":\#(poly)}]}"#) == bare)
        let open = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1]]]}"#
        #expect(try territory(open).polygons[0].rings[0].count == 4)
        #expect(throws: InputError.self) { try territory(#"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#) }
        #expect(throws: InputError.self) { try territory(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,0]]]}"#) }
        #expect(throws: InputError.self) { try territory("not json") }
        #expect(throws: InputError.self) { try territory(#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,100],[0,0]]]}"#) }
    }

    @Test(arguments: [
        #"{"type":"Polygon","coordinates":[]}"#,
        #"{"type":"MultiPolygon","coordinates":[]}"#,
        #"{"type":"Polygon","coordinates":[[[-73.74,40.71],[-73.73,40.71],[-73.72,40.71],[-73.74,40.71]]]}"#,
    ])
    func emptyPolygonIsAnError(json: String) throws {
        let index = try FeatureIndex(addresses: Sample.shared.addresses)
        #expect {
            try Selection.within(try territory(json), index: index)
        } throws: { ($0 as? SelectionError)?.kind == .emptyTerritory }
    }

    @Test func aTerritoryAwayFromTheAddressesIsAnError() throws {
        let index = try FeatureIndex(addresses: Sample.shared.addresses)
        #expect {
            try Selection.within(try territory(square(Coord(2, 48), 0.01)), index: index)
        } throws: { e in
            guard let e = e as? SelectionError else { return false }
            return e.kind == .nothingSelected && !e.isUsage && e.message.contains("they lie within")
        }
    }
}
