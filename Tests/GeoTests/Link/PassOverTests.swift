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
                                      shareable: { _ in false })
        #expect(got == [0: 0, 1: 1, 2: 2, 3: 3])
        let free = FaceAlignment.align(slidRun(), leaveOut: 80, backstep: 1000, homes: [8, 16], passOver: 0,
                                       shareable: { _ in false })
        #expect(free == [0: 0, 1: 9, 2: 1, 3: 3])
    }

    /// House 16 is no home of the street (a corner house another street's number takes): passing
    /// it over is free, and the nearer footprints win.
    @Test func aFootprintThatIsNoHomeOfTheStreetIsPassedOverFree() {
        let got = FaceAlignment.align(slidRun(), leaveOut: 80, backstep: 1000, homes: [8], passOver: 6,
                                      shareable: { _ in false })
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
