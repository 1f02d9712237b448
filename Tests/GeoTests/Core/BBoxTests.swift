import Testing
@testable import Geo

@Suite struct BBoxTests {
    @Test func parsesWSEN() throws {
        let b = try BBox(parsing: "-73.75, 40.71,-73.74,40.72")
        #expect(b == BBox(minX: -73.75, minY: 40.71, maxX: -73.74, maxY: 40.72))
    }
    @Test(arguments: ["-73.74,40.72,-73.75,40.71", "1,2,3", "a,b,c,d", "0,95,1,96", "-73.74,40.71,-73.75,40.72"])
    func refusesBadBoxes(_ text: String) {
        #expect(throws: BBoxError.self) { try BBox(parsing: text) }
        do { _ = try BBox(parsing: text) } catch { #expect(error.description.contains("W,S,E,N")) }
    }
    @Test func touchingBoxesIntersect() {
        let a = BBox(minX: 0, minY: 0, maxX: 1, maxY: 1)
        #expect(a.intersects(BBox(minX: 1, minY: 1, maxX: 2, maxY: 2)))
        #expect(!a.intersects(BBox(minX: 1.1, minY: 0, maxX: 2, maxY: 1)))
        #expect(!BBox.empty.intersects(a))
    }
}

@Suite struct ByteTextTests {
    @Test(arguments: [(0.0, 2, "0.00"), (1.005, 2, "1.00"), (2.5, 0, "3"), (-0.0004, 3, "0.000"), (-12.3456, 2, "-12.35"),
                      (0.999, 3, "0.999"), (1, 3, "1.000"), (123456.789, 1, "123456.8"), (0.05, 1, "0.1")])
    func fixedDecimals(_ v: Double, _ d: Int, _ text: String) {
        var b = ByteText()
        b.appendFixed(v, d)
        #expect(b.string == text)
    }

    @Test func agreesWithPrintfOnManyValues() {
        var rng = SeededRandom(seed: 3)
        for _ in 0..<2000 {
            let v = Double(Int.random(in: -10_000_000...10_000_000, using: &rng)) / 1000 + 0.0001
            var b = ByteText()
            b.appendFixed(v, 2)
            #expect(b.string == LinkTable.format(v, 2), "\\(v)")
        }
    }
}

@Suite struct StreetNameTests {
    @Test(arguments: [("North 204th Street", "n 204 st"), ("N. 204TH ST", "n 204 st"), ("O'Connor Avenue", "oconnor ave"),
                      ("East End Avenue", "e end ave"), ("Avenue of the Americas", "ave of the americas"), ("  ", nil),
                      ("Rue Saint-Étienne", "rue saint etienne"), ("Hillside Ave  Eb", "hillside ave eb"),
                      ("Hauptstraße", "haupt st"), ("Haupt Str.", "haupt st"), ("1st Avenue", "1 ave"), ("Forest Avenue", "forest ave")])
    func normalizes(_ name: String, _ key: String?) {
        #expect(StreetName.normalize(name) == key)
    }
}
