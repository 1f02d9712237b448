import Testing
@testable import Geo

/// Named streets joined end to end into one line per street for the block faces.
@Suite struct StreetChainsTests {
    func c(_ x: Double, _ y: Double) -> Coord { Coord(x, y) }

    @Test func aStreetCutIntoPiecesIsOneLineWhicheverWayEachPieceRuns() {
        // Main Street in three pieces, the middle one drawn backwards; a footway crosses it.
        let lines = [[c(0, 0), c(10, 0)], [c(25, 0), c(10, 0)], [c(25, 0), c(40, 0)], [c(15, -5), c(15, 5)]]
        let chains = StreetChains(lines: lines, keys: ["main st", "main st", "main st", nil])
        #expect(chains.chainOf[0] == 0 && chains.chainOf[1] == 0 && chains.chainOf[2] == 0)
        #expect(chains.chainOf[3] == nil)
        #expect(chains.lines[0] == [c(0, 0), c(10, 0), c(25, 0), c(40, 0)])
        // A point's place along the chain runs on across the joins.
        #expect(Planar.locate(c(30, 3), on: chains.lines[0])!.along == 30)
    }

    @Test func threePiecesOfOneNameMeetingAtANodeStayApart() {
        // A fork (or a dual carriageway's ends): no one way on, so no join.
        let lines = [[c(0, 0), c(10, 0)], [c(10, 0), c(20, 5)], [c(10, 0), c(20, -5)]]
        let chains = StreetChains(lines: lines, keys: ["a", "a", "a"])
        #expect(Set(chains.chainOf.compactMap { $0 }).count == 3)
    }

    @Test func anotherNameIsAnotherChainAndARingEnds() {
        let ring = [[c(0, 0), c(10, 0)], [c(10, 0), c(10, 10)], [c(10, 10), c(0, 0)]]
        let chains = StreetChains(lines: ring + [[c(10, 0), c(30, 0)]], keys: ["ring", "ring", "ring", "b"])
        #expect(chains.chainOf == [0, 0, 0, 1])
        #expect(chains.lines[0].count == 4)
    }
}

extension StreetChainsTests {
    @Test func theOrderOfTheSegmentsChangesNothing() {
        let lines = [[c(0, 0), c(10, 0)], [c(25, 0), c(10, 0)], [c(25, 0), c(40, 2)], [c(40, 2), c(40, 30)]]
        let keys: [String?] = ["main st", "main st", "main st", "main st"]
        let one = StreetChains(lines: lines, keys: keys)
        let order = [1, 3, 0, 2]  // the piece drawn backwards first
        let other = StreetChains(lines: order.map { lines[$0] }, keys: order.map { keys[$0] })
        #expect(one.lines == other.lines)
    }
}

extension StreetChainsTests {
    @Test func aCrossStreetEndsTheFace() {
        // Main Street in two pieces meeting where Cross Street ends on it; a footway elsewhere.
        let lines = [[c(0, 0), c(10, 0)], [c(10, 0), c(20, 0)], [c(10, 0), c(10, 20)], [c(20, 0), c(30, 0)], [c(20, 0), c(20, -9)]]
        let chains = StreetChains(lines: lines, keys: ["main st", "main st", "cross st", "main st", nil])
        #expect(chains.chainOf[0] != chains.chainOf[1])
        #expect(chains.chainOf[1] == chains.chainOf[3])
    }
}
