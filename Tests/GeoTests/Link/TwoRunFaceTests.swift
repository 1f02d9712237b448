import Testing
@testable import Geo

/// A face whose odd and even numbers run opposite ways along the street's line (a street numbered
/// up one side and back down the other, its line bent round so both sides stand on one side of
/// it) is aligned as two runs.
@Suite struct TwoRunFaceTests {
    typealias Entry = FaceAlignment.Entry
    typealias Option = FaceAlignment.Option

    /// Houses along the street: 2, 4, 6 growing up its line, then 9, 7, 5 coming back down it.
    let houses: [(number: Double, along: Double)] = [(2, 0), (4, 10), (6, 20), (9, 30), (7, 40), (5, 50)]

    /// Each number's point at `at`, every house an option costing its distance from the point.
    func face(_ points: [(number: Double, at: Double)]) -> [Entry] {
        FaceAlignment.inNumberOrder(points.enumerated().map { k, p in
            Entry(slot: k, number: p.number, at: p.at, household: "\(p.number)", rank: Int32(k),
                  options: houses.indices.map { Option(building: $0, along: houses[$0].along, extra: abs(houses[$0].along - p.at)) })
        })
    }

    /// The house of each number (the slot is the point's index, the building the house's).
    func right(_ points: [(number: Double, at: Double)]) -> [Int: Int] {
        Dictionary(uniqueKeysWithValues: points.enumerated().map { k, p in (k, houses.firstIndex { $0.number == p.number }!) })
    }

    func align(_ entries: [Entry]) -> [Int: Int] {
        FaceAlignment.align(entries, leaveOut: 80, backstep: 1000, share: { _ in nil })
    }

    /// 7 and 5 slid past each other, as a geocoder's points do: each run, aligned the way its
    /// numbers run, puts every number on its own house; the face as one run cannot.
    @Test func oddAndEvenRunningOppositeWaysAreAlignedApart() {
        let points: [(number: Double, at: Double)] = [(2, 1), (4, 9), (6, 21), (9, 30), (7, 46), (5, 44)]
        let runs = FaceAlignment.runs(face(points), apart: 10, agreement: 0.5)
        #expect(runs.map { $0.map(\.number) } == [[2, 4, 6], [5, 7, 9]])
        var matched: [Int: Int] = [:]
        for run in runs { matched.merge(align(run)) { a, _ in a } }
        #expect(matched == right(points))
        #expect(align(face(points)) != right(points))
    }

    /// Runs the same way (numbered side by side, or consecutively along one side), one parity
    /// in no order, or one parity only: the face stays one run.
    @Test func otherFacesStayWhole() {
        let sameWay = face([(1, 0), (2, 5), (3, 20), (4, 25), (5, 40), (6, 45)])
        #expect(FaceAlignment.runs(sameWay, apart: 10, agreement: 0.5).count == 1)
        let noOrder = face([(2, 0), (4, 20), (6, 40), (9, 30), (5, 31), (7, 32)])
        #expect(FaceAlignment.runs(noOrder, apart: 10, agreement: 0.5).count == 1)
        let odd = face([(9, 30), (7, 40), (5, 50)])
        #expect(FaceAlignment.runs(odd, apart: 10, agreement: 0.5).count == 1)
    }
}
