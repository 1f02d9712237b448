import Testing
@testable import Geo

/// A street drawn only as far as x = 0, its houses going on beyond: numbers 2 and 4 stand
/// before the end with their points in front of them, numbers 6 to 14 stand beyond it and
/// their points pile up at the end, as a geocoder following the drawn line puts them.
@Suite struct StreetEndTests {
    static let beyond = ["6", "8", "10", "12", "14"]

    func scene(continued: Bool = false) -> Scene {
        var s = Scene()
        s.road("main", "LINESTRING(-100 0,0 0)", name: "Main Street")
        if continued { s.road("main2", "LINESTRING(0 0,150 0)", name: "Main Street") }
        for (n, x) in [("2", -45.0), ("4", -30.0)] {
            s.building("h\(n)", "POLYGON((\(x) 8,\(x + 10) 8,\(x + 10) 20,\(x) 20,\(x) 8))")
            s.address("a\(n)", x + 5, 6, number: n)
        }
        for (i, n) in Self.beyond.enumerated() {
            let x = 5 + 15 * Double(i)
            s.building("h\(n)", "POLYGON((\(x) 8,\(x + 10) 8,\(x + 10) 20,\(x) 20,\(x) 8))")
            s.address("a\(n)", [-4, -2, 0, -1, -3][i], 7, number: n)
        }
        return s
    }

    func linkedBeyond(_ s: Scene, endReach: Double = LinkWeights().endReach) throws -> [String] {
        var o = LinkerOptions()
        o.weights.endReach = endReach
        let result = try s.link(o)
        return Self.beyond.map { result.link("a\($0)").buildingID ?? "-" }
    }

    @Test func numbersPiledAtAStreetEndGoToTheHousesBeyondItInOrder() throws {
        #expect(try linkedBeyond(scene()) == Self.beyond.map { "h\($0)" })
        // Read from the points alone, they crowd onto the first houses past the end.
        let crowded = try linkedBeyond(scene(), endReach: 0)
        #expect(zip(crowded, Self.beyond).filter { $0 == "h\($1)" }.count <= 2)
    }

    @Test func aStreetThatGoesOnHasNoEndThere() throws {
        #expect(try linkedBeyond(scene(continued: true)) == linkedBeyond(scene(continued: true), endReach: 0))
    }
}

/// A street ending in a turning circle, its houses all around the end, with points as a
/// geocoder puts them: at the spot of the line nearest each house (the end, for the houses
/// around it), slid a few metres, 7 m toward the house.
@Suite struct TurningCircleTests {
    static let houses: [(number: String, x: Double, y: Double)] = [
        ("2", -40, 16), ("4", -22, 16), ("6", -2, 20), ("8", 18, 12), ("10", 18, -12), ("12", -2, -20),
        ("14", -22, -16), ("16", -40, -16),
    ]

    func linked(endReach: Double) throws -> [String] {
        var s = Scene()
        s.road("court", "LINESTRING(-100 0,0 0)", name: "Main Street")
        for (i, h) in Self.houses.enumerated() {
            s.building("h\(h.number)", "POLYGON((\(h.x - 5) \(h.y - 5),\(h.x + 5) \(h.y - 5),\(h.x + 5) \(h.y + 5),\(h.x - 5) \(h.y + 5),\(h.x - 5) \(h.y - 5)))")
            let slide = [-3.0, 2, -1, 3, -2, 1, -3, 2][i]
            let spot = Coord(min(0, h.x + slide), 0)
            let v = Coord(h.x - spot.x, h.y - spot.y), len = (v.x * v.x + v.y * v.y).squareRoot()
            s.address("a\(h.number)", spot.x + 7 * v.x / len, spot.y + 7 * v.y / len, number: h.number)
        }
        var o = LinkerOptions()
        o.weights.endReach = endReach
        let result = try s.link(o)
        return Self.houses.map { result.link("a\($0.number)").buildingID ?? "-" }
    }

    @Test func theHousesAroundTheEndKeepTheirNumbers() throws {
        #expect(try linked(endReach: LinkWeights().endReach) == Self.houses.map { "h\($0.number)" })
        #expect(try linked(endReach: LinkWeights().endReach) == linked(endReach: 0))
    }
}
