import Testing
@testable import Geo

/// Footprints of every shape a building can have, for the tests of `Footprint`.
enum FootprintCases {
    static let ring = [Coord(0, 0), Coord(4, 0), Coord(4, 3), Coord(0, 3), Coord(0, 0)]
    static let hole = [Coord(1, 1), Coord(2, 1), Coord(2, 2), Coord(1, 1)]
    static let all: [[PolygonCoords]] = [
        [],
        [PolygonCoords(rings: [ring])],
        [PolygonCoords(rings: [ring, hole])],
        [PolygonCoords(rings: [ring]), PolygonCoords(rings: [ring.map { Coord($0.x + 10, $0.y) }, hole])],
        [PolygonCoords(rings: [])],
        [PolygonCoords(rings: [[]])],
        [PolygonCoords(rings: [ring]), PolygonCoords(rings: [])],
    ]
}

struct FootprintTests {
    @Test(arguments: FootprintCases.all)
    func keepsItsPartsAndRings(_ polygons: [PolygonCoords]) {
        let f = Footprint(polygons)
        #expect(f.polygons == polygons)
        #expect(f.partCount == polygons.count)
        #expect(f.ringCount == polygons.reduce(0) { $0 + $1.rings.count })
        #expect(f.partSizes == polygons.map { $0.rings.count })
        #expect(f.coords == polygons.flatMap { $0.rings.flatMap { $0 } })
        #expect(Building(id: "b", polygons: polygons).bbox == BBox(covering: polygons.flatMap { $0.rings.first ?? [] }))
    }

    /// Keeping some buildings' rings keeps them as they were, in order, each findable by
    /// its slot; the others have none. Every footprint shape, kept or not, in every position.
    @Test func flatRingsKeepTheBuildingsAsked() {
        let footprints = (0..<3).flatMap { _ in FootprintCases.all.map(Footprint.init) }
        let all = FlatRings(footprints.enumerated().map { Building(id: "b\($0.offset)", footprint: $0.element) })
        for pattern in 0..<8 {
            let keep = footprints.indices.map { ($0 * 5 + pattern) % 3 == 0 || pattern == 7 }
            let (kept, slot) = all.keeping(keep)
            #expect(kept.count == keep.filter { $0 }.count)
            for b in footprints.indices {
                if keep[b] {
                    #expect(slot[b] >= 0 && kept[Int(slot[b])] == all[b])
                    #expect(b == 0 || slot[b] > slot[..<b].max()!)
                } else {
                    #expect(slot[b] == -1)
                }
            }
        }
    }

    @Test func equalExactlyWhenThePartsAre() {
        let all = FootprintCases.all.map(Footprint.init)
        for i in all.indices { for j in all.indices { #expect((all[i] == all[j]) == (i == j)) } }
    }

    @Test func readFromGeoJSONAsWritten() throws {
        let text = """
            {"type":"Feature","id":"a","geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[4,0],[4,3],[0,3],[0,0]],[[1,1],[2,1],[2,2],[1,1]]],[[[10,0],[14,0],[14,3],[10,0]]]]},"properties":{}}
            {"type":"Feature","id":"b","geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,3],[0,3],[0,0]]]},"properties":{}}
            """
        let reader = try readAll(Building.self, tempFile(text, name: "b.geojsonseq"))
        #expect(reader.map(\.footprint.partSizes) == [[2, 1], [1]])
        #expect(reader[0].polygons[1].rings[0] == [Coord(10, 0), Coord(14, 0), Coord(14, 3), Coord(10, 0)])
        #expect(reader[1].polygons == [PolygonCoords(rings: [FootprintCases.ring])])
    }
}
