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

    @Test func atAForkTheBranchRunningStraightOnIsJoined() {
        // The street forks at (10, 0): one branch bends 10°, the other 60°; the first runs on.
        let lines = [[c(0, 0), c(10, 0)], [c(10, 0), c(20, 1.76)], [c(10, 0), c(15, -8.66)]]
        let chains = StreetChains(lines: lines, keys: ["a", "a", "a"])
        #expect(chains.chainOf[0] == chains.chainOf[1])
        #expect(chains.chainOf[2] != chains.chainOf[0])
        #expect(chains.lines.count == 2)
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
    @Test func aStreetRunsOnThroughACrossingHoweverItsSegmentsWereCut() {
        // Main Street drawn as one line that Cross Street meets midway (as OSM ways often are),
        // and the same streets cut at the crossing (as Overture's segments are): one line each.
        let whole = [[c(0, 0), c(10, 0), c(20, 0)], [c(10, -20), c(10, 0), c(10, 20)]]
        let cut = [[c(0, 0), c(10, 0)], [c(10, 0), c(20, 0)], [c(10, -20), c(10, 0)], [c(10, 0), c(10, 20)]]
        let a = StreetChains(lines: whole, keys: ["main st", "cross st"])
        let b = StreetChains(lines: cut, keys: ["main st", "main st", "cross st", "cross st"])
        #expect(b.chainOf[0] == b.chainOf[1] && b.chainOf[2] == b.chainOf[3] && b.chainOf[0] != b.chainOf[2])
        #expect(Set(a.lines) == Set(b.lines))
    }

    @Test func aSpurOfTheSameNameLeavesTheStreetWhole() {
        // A ring road drawn in three pieces, with a short spur of its own name off one join:
        // the ring stays one line, the spur a line of its own.
        let ring = [[c(0, 0), c(40, 0), c(40, 15)], [c(40, 15), c(40, 30), c(0, 30)], [c(0, 30), c(0, 0)]]
        let spur = [[c(40, 15), c(52, 20)]]
        let chains = StreetChains(lines: ring + spur, keys: ["ring", "ring", "ring", "ring"])
        #expect(chains.chainOf[0] == chains.chainOf[1] && chains.chainOf[1] == chains.chainOf[2])
        #expect(chains.chainOf[3] != chains.chainOf[0])
        #expect(chains.lines.map(\.count).sorted() == [2, 6])
    }

    @Test func aTieAtAForkGoesTheSameWayInAnyOrder() {
        // A symmetric fork: either branch runs on as straight; the choice does not depend on
        // the order the segments come in.
        let lines = [[c(0, 0), c(10, 0)], [c(10, 0), c(20, 5)], [c(10, 0), c(20, -5)]]
        let keys: [String?] = ["a", "a", "a"]
        let one = StreetChains(lines: lines, keys: keys)
        let order = [2, 0, 1]
        let other = StreetChains(lines: order.map { lines[$0] }, keys: order.map { keys[$0] })
        #expect(Set(one.lines) == Set(other.lines))
        #expect(one.lines.count == 2)
    }
}
