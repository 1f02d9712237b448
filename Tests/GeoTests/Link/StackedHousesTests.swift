import Testing
@testable import Geo

/// Two houses one behind the other in the block-face alignment: they share a place along the
/// street, so the order of their centres there says nothing, and a point standing deeper says
/// which number is whose.
@Suite struct StackedHousesTests {
    typealias Entry = FaceAlignment.Entry
    typealias Option = FaceAlignment.Option
    typealias Span = (lo: Double, hi: Double, near: Double)

    /// Main Street, numbers rising along it: house 0 (along −15 to −5), a row running back from
    /// the street of house 1 (its front 3 m from the street's line) and house 2 behind it (12 m
    /// back), both over 0 to 10, and house 3 (15 to 25). `front` and `back` are the centres of
    /// houses 1 and 2 along the street, a tenth of a metre apart either way.
    func spans(front: Double, back: Double) -> [Int: (along: Double, span: Span)] {
        [0: (-10, (-15, -5, 3)), 1: (front, (0, 10, 3)), 2: (back, (0.2, 10.2, 12)), 3: (20, (15, 25, 3))]
    }

    func behind(_ spans: [Int: (along: Double, span: Span)]) -> (Int, Int) -> Int {
        { a, b in FaceAlignment.stacking(spans[a]!, spans[b]!) }
    }

    /// Numbers 18 and 24 on houses 0 and 3; 20 and 22 with their points before the row, at
    /// `depths` from the street, each a little nearer to the other's house than its own
    /// (`firstOwn`: the first number's own house is house 1).
    func face(_ spans: [Int: (along: Double, span: Span)], depths: (Double, Double), firstOwn: Int) -> [Entry] {
        let other = 3 - firstOwn
        let option = { (b: Int, extra: Double) in Option(building: b, along: spans[b]!.along, extra: extra) }
        return [Entry(slot: 0, number: 18, at: -10, depth: 3, household: "18", rank: 0, options: [option(0, 0)]),
                Entry(slot: 1, number: 20, at: 4, depth: depths.0, household: "20", rank: 1,
                      options: [option(firstOwn, 0), option(other, 0.3)]),
                Entry(slot: 2, number: 22, at: 5, depth: depths.1, household: "22", rank: 2,
                      options: [option(other, 0), option(firstOwn, 1.2)]),
                Entry(slot: 3, number: 24, at: 20, depth: 3, household: "24", rank: 3, options: [option(3, 0)])]
    }

    /// The back house's centre stands a tenth of a metre before the front house's: in strict
    /// order 20 must take the back house. 22's point stands 12 m deeper than 20's, so the order
    /// of the centres gives way; points at one depth (a geocoder's) keep the strict order.
    @Test func aDeeperPointTakesTheHouseBehind() {
        let s = spans(front: 5.1, back: 5.0)
        let align = { (depths: (Double, Double), apart: Double) in
            FaceAlignment.align(self.face(s, depths: depths, firstOwn: 1), leaveOut: 80, backstep: 1000,
                                behind: self.behind(s), depthApart: apart, share: { _ in nil })
        }
        #expect(align((2, 14), 6) == [0: 0, 1: 1, 2: 2, 3: 3])
        #expect(align((2, 14), .infinity) == [0: 0, 1: 2, 2: 1, 3: 3])
        #expect(align((7, 7), 6) == [0: 0, 1: 2, 2: 1, 3: 3])
        #expect(align((2, 7), 6) == [0: 0, 1: 2, 2: 1, 3: 3])
        // The deeper point on the house in front is no reason to break the order.
        #expect(align((14, 2), 6) == [0: 0, 1: 2, 2: 1, 3: 3])
    }
}
