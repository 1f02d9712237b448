import Testing
@testable import Geo

/// House counting in the block-face alignment: a home passed over between two numbers costs
/// `passOver`, so a run slid toward its neighbours still takes one house a number.
@Suite struct PassOverTests {
    typealias Entry = FaceAlignment.Entry
    typealias Option = FaceAlignment.Option

    /// Houses at along 0, 8, 16 and 24; numbers 1 and 7 pinned on the first and last (covered
    /// points), 3 and 5 slid back: 3 lies nearer a shed at along 6 than its own house at 8, and 5
    /// nearer house 8 than its own at 16. Shifted, the two pass over house 16.
    func slidRun() -> [Entry] {
        [Entry(slot: 0, number: 1, at: 0, household: "1", rank: 0, options: [Option(building: 0, along: 0, extra: 0)]),
         Entry(slot: 1, number: 3, at: 5, household: "3", rank: 1,
               options: [Option(building: 9, along: 6, extra: 0), Option(building: 1, along: 8, extra: 2)]),
         Entry(slot: 2, number: 5, at: 9, household: "5", rank: 2,
               options: [Option(building: 1, along: 8, extra: 0), Option(building: 2, along: 16, extra: 3)]),
         Entry(slot: 3, number: 7, at: 24, household: "7", rank: 3, options: [Option(building: 3, along: 24, extra: 0)])]
    }

    @Test func aHomePassedOverCostsSoTheRunTakesEveryHouse() {
        let got = FaceAlignment.align(slidRun(), leaveOut: 80, backstep: 1000, homes: [8, 16], passOver: 6,
                                      share: { _ in nil })
        #expect(got == [0: 0, 1: 1, 2: 2, 3: 3])
        let free = FaceAlignment.align(slidRun(), leaveOut: 80, backstep: 1000, homes: [8, 16], passOver: 0,
                                       share: { _ in nil })
        #expect(free == [0: 0, 1: 9, 2: 1, 3: 3])
    }

    /// House 16 is no home of the street (a corner house another street's number takes): passing
    /// it over is free, and the nearer footprints win.
    @Test func aFootprintThatIsNoHomeOfTheStreetIsPassedOverFree() {
        let got = FaceAlignment.align(slidRun(), leaveOut: 80, backstep: 1000, homes: [8], passOver: 6,
                                      share: { _ in nil })
        #expect(got == [0: 0, 1: 9, 2: 1, 3: 3])
    }

    /// Footprints 0 to 4 along the street: 1 holds a covered point, 2 is an outbuilding, 3 is the
    /// best footprint of a cross street's address, 4 of one of the face's own street.
    @Test func homesLeaveOutHeldFootprintsOutbuildingsAndCornerHouses() {
        let options = [0.0, 8, 16, 24, 32].enumerated().map { Option(building: $0.offset, along: $0.element, extra: 0) }
        let face = [Entry(slot: 0, number: 1, at: 0, household: "1|main st", rank: 0, options: options)]
        let got = FaceAlignment.homes(face, street: "main st", held: [1], bestOf: [3: ["side st"], 4: ["main st"]],
                                      outbuilding: { $0 == 2 })
        #expect(got == [0, 32])
    }

    /// Houses in a row on Main Street, 8 m wide, their fronts 3 m from the street's line: 1 at
    /// along 0-8, 3 at 8-16, 5 at 16-24, 7 at 24-32; a back-yard building (10) behind the corner
    /// of 3 and 5, along 13-15 and 12 m back; a house (11) beside the row, set back as far, along
    /// 34-40.
    let row: [Int: (lo: Double, hi: Double, near: Double)] = [
        1: (0, 8, 3), 3: (8, 16, 3), 5: (16, 24, 3), 7: (24, 32, 3), 10: (13, 15, 12), 11: (34, 40, 12)]

    func behindInRow() -> Set<Int> {
        FaceAlignment.standingBehind(row.keys.sorted().map { ($0, (row[$0]!.lo + row[$0]!.hi) / 2) }, span: { row[$0]! })
    }

    @Test func aFootprintBehindAnotherStandsBehindItNotTheRowBeside() {
        #expect(behindInRow() == [10])
        // Two footprints at one distance from the street over one span: neither is behind.
        let twin: [Int: (lo: Double, hi: Double, near: Double)] = [0: (0, 10, 3), 1: (0, 10, 3)]
        #expect(FaceAlignment.standingBehind([(0, 5), (1, 5)], span: { twin[$0]! }).isEmpty)
        #expect(FaceAlignment.standingBehind([], span: { row[$0]! }).isEmpty)
    }

    /// Numbers 1, 3, 5 and 7 of the row, 1 and 7 pinned; 3 slid toward the back-yard building,
    /// which it reaches 3 m cheaper than its own house. Counted as a home, the back-yard building
    /// is passed over on the way from 3's house to 5's, as 3's house is on the way from 1's to the
    /// back-yard building: the two runs pay alike and 3 goes behind. Standing behind, it is no
    /// home, and 3 keeps its house.
    @Test func aFootprintStandingBehindIsNoHomeToPassOver() {
        let face = [Entry(slot: 0, number: 1, at: 4, household: "1|main st", rank: 0, options: [Option(building: 1, along: 4, extra: 0)]),
                    Entry(slot: 1, number: 3, at: 13, household: "3|main st", rank: 1,
                          options: [Option(building: 10, along: 14, extra: 0), Option(building: 3, along: 12, extra: 3)]),
                    Entry(slot: 2, number: 5, at: 20, household: "5|main st", rank: 2, options: [Option(building: 5, along: 20, extra: 0)]),
                    Entry(slot: 3, number: 7, at: 28, household: "7|main st", rank: 3, options: [Option(building: 7, along: 28, extra: 0)])]
        let counted = FaceAlignment.homes(face, street: "main st", held: [], bestOf: [:], outbuilding: { _ in false })
        let front = FaceAlignment.homes(face, street: "main st", held: [], bestOf: [:], outbuilding: { _ in false },
                                        behind: behindInRow())
        #expect(counted == [4, 12, 14, 20, 28])
        #expect(front == [4, 12, 20, 28])
        let align = { (homes: [Double]) in
            FaceAlignment.align(face, leaveOut: 80, backstep: 1000, homes: homes, passOver: 6, share: { _ in nil })
        }
        #expect(align(counted)[1] == 10)
        #expect(align(front) == [0: 1, 1: 3, 2: 5, 3: 7])
    }

    @Test func betweenCountsOnlyHomesStrictlyInside() {
        let homes = [0.0, 8, 16, 24]
        let between = { (a: Double, b: Double) in
            FaceAlignment.between(FaceAlignment.mark(homes, a), FaceAlignment.mark(homes, b))
        }
        #expect(between(0, 24) == 2)
        #expect(between(24, 0) == 2)
        #expect(between(8, 16) == 0)
        #expect(between(16, 16) == 0)
        #expect(between(7.5, 8.5) == 1)
        #expect(between(7.995, 8.005) == 0)
        #expect(between(-5, 30) == 4)
        #expect(FaceAlignment.between(FaceAlignment.mark([], 0), FaceAlignment.mark([], 100)) == 0)
    }
}
