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
