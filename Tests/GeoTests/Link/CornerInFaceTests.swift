import Testing
@testable import Geo

/// The face alignment charges a corner house numbered on its cross street what the assignment
/// charges for it (`cornerPenalty`), within the tolerance like the rest of its cost.
@Suite struct CornerInFaceTests {
    /// Main Street (y = 0) with Cross Street running north from it at x = 0. The corner house
    /// "a" (x 2–12, y 8–18) holds 2 Cross Street, whose point stands on its Cross Street side;
    /// houses "b" to "e", 10 m wide, follow along Main Street. Each Main Street number's point
    /// stands 3 m out from the fronts (5 m off the street's line) before the corner where its
    /// house meets the one before it, as near to both: 1 is "b"'s, 3 "c"'s, 5 "d"'s, 7 "e"'s.
    /// Were the corner house free to the face, the face would take it at the tie and every
    /// number would land one house short.
    func scene() -> Scene {
        var s = Scene()
        s.road("main", "LINESTRING(-40 0,100 0)", name: "Main Street")
        s.road("cross", "LINESTRING(0 0,0 60)", name: "Cross Street")
        for (k, id) in ["a", "b", "c", "d", "e"].enumerated() {
            let x = 2 + 10 * Double(k)
            s.building(id, "POLYGON((\(x) 8,\(x + 10) 8,\(x + 10) 18,\(x) 18,\(x) 8))")
        }
        s.address("x2", 1, 13, number: "2", street: "Cross Street")
        for (k, n) in ["1", "3", "5", "7"].enumerated() { s.address("m\(n)", 12 + 10 * Double(k), 5, number: n) }
        return s
    }

    @Test func aFaceDoesNotTakeTheCrossStreetsCornerHouseAtATie() throws {
        let r = try scene().link()
        #expect(r.link("x2").buildingID == "a")
        #expect(["m1", "m3", "m5", "m7"].map { r.link($0).buildingID } == ["b", "c", "d", "e"])
    }
}
