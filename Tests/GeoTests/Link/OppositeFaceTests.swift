import Testing
@testable import Geo

/// A face whose points tell no order takes its way of numbering from the opposite face.
@Suite struct OppositeFaceTests {
    typealias Entry = FaceAlignment.Entry
    typealias Option = FaceAlignment.Option

    /// Numbers at places along the street, each with one option there.
    func face(_ rows: [(number: Double, at: Double)], slot: Int = 0) -> [Entry] {
        rows.enumerated().map { k, r in
            Entry(slot: slot + k, number: r.number, at: r.at, household: "\(r.number)", rank: Int32(slot + k),
                  options: [Option(building: slot + k, along: r.at, extra: 0)])
        }
    }

    @Test func theSignedAgreementSaysWhichWayTheNumbersRun() {
        #expect(HouseNumbers.signedAgreement([(0, 1), (20, 3), (40, 5)], apart: 10) == 1)
        #expect(HouseNumbers.signedAgreement([(0, 5), (20, 3), (40, 1)], apart: 10) == -1)
        #expect(HouseNumbers.signedAgreement([(0, 5), (5, 3)], apart: 10) == nil)
        #expect(HouseNumbers.agreement([(0, 5), (20, 3), (40, 1)], apart: 10) == 1)
    }

    /// Even numbers 4 and 6 at one spot (a pile at a party-wall corner); odd numbers across the
    /// street growing up its line: the even side grows up it too. Numbered up one side and back
    /// down the other (both sides odd and even), it grows the other way.
    @Test func aFaceWithoutOrderIsNumberedAsTheOppositeFaceRuns() {
        let pile = face([(4, 30), (6, 30)])
        let odd = face([(1, 0), (3, 20), (5, 40)], slot: 10)
        #expect(FaceAlignment.direction(of: pile, opposite: odd, apart: 10, agreement: 0.5) == 1)
        #expect(FaceAlignment.direction(of: pile, opposite: face([(5, 0), (3, 20), (1, 40)], slot: 10), apart: 10, agreement: 0.5) == -1)
        let mixed = face([(4, 30), (5, 30)])
        let round = face([(1, 0), (2, 20), (3, 40)], slot: 10)
        #expect(FaceAlignment.direction(of: mixed, opposite: round, apart: 10, agreement: 0.5) == -1)
        // Parities that say nothing, an opposite face in no order, or a face reading its own order: no way.
        #expect(FaceAlignment.direction(of: mixed, opposite: odd, apart: 10, agreement: 0.5) == nil)
        #expect(FaceAlignment.direction(of: pile, opposite: face([(1, 0), (7, 20), (3, 40), (5, 60)], slot: 10), apart: 10,
                                        agreement: 0.5) == nil)
        #expect(FaceAlignment.direction(of: face([(4, 0), (6, 20)]), opposite: odd, apart: 10, agreement: 0.5) == nil)
    }

    /// Two numbers at one spot before two houses: the alignment numbers the way it is told.
    @Test func theAlignmentKeepsTheWayItIsGiven() {
        let houses = [Option(building: 0, along: 24, extra: 0), Option(building: 1, along: 36, extra: 0)]
        let pile = [Entry(slot: 0, number: 4, at: 33, household: "4", rank: 0, options: houses),
                    Entry(slot: 1, number: 6, at: 33, household: "6", rank: 1, options: houses)]
        #expect(FaceAlignment.align(pile, leaveOut: 80, backstep: 1000, direction: 1, share: { _ in nil }) == [0: 0, 1: 1])
        #expect(FaceAlignment.align(pile, leaveOut: 80, backstep: 1000, direction: -1, share: { _ in nil }) == [0: 1, 1: 0])
    }
}
