/// The weights and distances the BUFFER/NEAREST scoring uses, in metres of cost (a penalty
/// weighs as much as that many metres of distance). The README's linker section says why each
/// has its value; `flyr link --weight NAME=VALUE` changes one, for sweeps.
public struct LinkWeights: Sendable, Equatable {
    /// Cost per radian a ray must turn away from "straight back from the street" to hit a footprint.
    public var turnCost = 15.0
    /// A footprint met by a ray from the point toward its street (the point lies behind it).
    public var towardStreetCost = 0.0
    /// The widest turn considered, and its step (radians).
    public var maxTurn = 60.0 * Double.pi / 180
    public var turnStep = 5.0 * Double.pi / 180
    /// Cost per metre between a footprint's centre and where its house number should stand
    /// among its neighbours' points, and the most metres of it counted (7.5 m of cost at most).
    public var numberOrderCost = 0.75
    public var numberOrderCap = 10.0
    /// Neighbours whose numbers are compared lie within this many metres.
    public var numberRadius = 60.0
    /// A footprint whose class or subtype says it is an outbuilding (garage, shed, barn…): the
    /// mapper's word that nobody lives there.
    public var outbuildingPenalty = 25.0
    /// A footprint smaller than `smallFootprint` whose tags do not say what it is: more often a
    /// garage than a home, but by its size alone.
    public var smallFootprintPenalty = 6.0
    /// A footprint smaller than this many square metres is an outbuilding whatever its class.
    public var smallFootprint = 50.0
    /// A footprint whose height (metres, where the data measures it) is under this, its tags
    /// silent, is an outbuilding by its height as one under `smallFootprint` is by its size: a
    /// storey and a roof. 0 turns it off.
    public var lowHeight = 4.0
    /// A footprint whose tags do not say what it is, under `annexFootprint` and under this share
    /// of the area of the footprint an address's point stands by (its best-scored), is that
    /// home's garage or shed more often than a home: it costs that address
    /// `smallFootprintPenalty`, as a footprint under `smallFootprint` does. 0 turns it off.
    public var annexShare = 0.5
    public var annexFootprint = 100.0
    /// A building that already holds another house number of the street; and, for an address
    /// of a range's household, every footprint but the one holding a covered number of that
    /// household (`LinkWorld.preferOwnHousehold`).
    public var occupiedPenalty = 20.0
    /// A building that already holds a number of another street only (a corner).
    public var cornerPenalty = 10.0
    /// A footprint whose nearest point lies across a road from the address point.
    public var acrossRoadPenalty = 25.0
    /// A footprint other than the one the address's block face aligns it to.
    public var orderPenalty = 5.0
    /// The least Kendall's tau between the numbers and the points' order along the street for
    /// the order to be read at all (a face's alignment, a number's spot among its neighbours):
    /// where numbers were given as houses were built, the order says nothing.
    public var orderAgreement = 0.5
    /// Points nearer than this along the street are not compared for it (a geocoder's slide
    /// swaps neighbours that near).
    public var orderApart = 10.0
    /// Leaving an address out of its face's alignment.
    public var leaveOut = 80.0
    /// Each footprint the alignment passes over between two numbers of a face, unless a covered
    /// point holds it, it is an outbuilding, it stands behind another (a garage behind its house),
    /// or it is the best footprint of an address of another street (a corner house numbered on
    /// the cross street): on a run of numbered houses every house takes a number.
    public var passOver = 6.0
    /// A footprint of this many square metres or more may hold several households, as one whose
    /// class names them does (`LinkWorld.mayHoldSeveral`): a block of flats or a terrace drawn as
    /// one footprint. A face's alignment may give it a second number at `occupiedPenalty` (what the
    /// assignment charges for it), and numbers standing before it at a street end are no pile
    /// (`LinkWorld.isPiled`); a smaller footprint whose class names none holds one household.
    public var sharedFootprint = 300.0
    /// The alignment reads an address's cost for a footprint above its own best less this much:
    /// a difference smaller than a point's common error along the street (a geocoder's slide, a
    /// door at one end of a wide front) says nothing of which house is its own, so there the
    /// order and the count of houses decide.
    public var alignTolerance = 6.0
    /// The alignment adds this per metre that the spot of a footprint nearest the point, when the
    /// point stands before it, lies back from the footprint's front (its corner nearest the
    /// street), up to `alignTolerance`: a frontage or door point stands before the front of its
    /// own house, so a point before the corner where two houses meet, as near to both, faces the
    /// one whose front reaches the street there. Small beside `passOver`: one point's recess
    /// breaks what the tolerance leaves even, but never outweighs a house in the count.
    public var recessCost = 0.3
    /// A footprint the point does not stand set out before, where the points around it were set
    /// out from their houses and it stands so before another (`LinkWorld.chargeSetOut`): as much
    /// as a second household, since a point on one house's shortest way to the street was put
    /// there from that house, whatever its ray, size or number spot say of another.
    public var setOutPenalty = 20.0
    /// How far from its house a set-out point may stand (metres): a front yard and the pavement
    /// before it.
    public var setOutReach = 13.0
    /// Candidates costing more than this above the address's best are not aligned.
    public var alignWindow = 30.0
    /// A point this near the open end of its street's line may stand for a house beyond it
    /// (`StreetEnd`); 0 turns the reading off.
    public var endReach = 10.0
    /// Cost per metre a footprint stands beyond that end, along the street's continuation.
    public var beyondEndCost = 0.1
    /// A front yard's depth: a point in a pile at a street end that stands within it of a
    /// footprint stands at a house, and keeps the road between itself and a house past the end;
    /// one farther from every footprint is lost in the pile, and a footprint past the end is
    /// reached along the continuation where the pile stands on both sides of a road (`StreetEnd`).
    public var frontYard = 10.0
    /// How far off its road's line a point on the line is read, on the side its numbers stand
    /// on (`LinkWorld.placeLinePoints`); 0 leaves it on the line, with no side. Not a cost: it
    /// only needs to pass `LinkWorld.onLine` and stay small beside every distance scored.
    public var lineStep = 1.0
    /// The addresses of its street within this many metres tell the side of a point on the line
    /// (`LinkWorld.placeLinePoints`): a street keeps odd numbers on one side over blocks.
    public var sideRadius = 300.0
    /// Cost per metre a footprint stands back along the street from the one matched to the
    /// previous number (order reversed).
    public var backstepCost = 1000.0
    /// How far above the best a candidate's cost may lie and still matter: the most that
    /// stages after scoring (face alignment, occupancy) add to a cost, or the alignment's
    /// window when that is wider.
    var reach: Double { max(orderPenalty + max(occupiedPenalty, cornerPenalty), alignWindow) }
    /// What the numbers a footprint holds cost (`occupiedPenalty`, `cornerPenalty`).
    var occupancy: Occupancy { Occupancy(second: occupiedPenalty, corner: cornerPenalty) }

    public init() {}

    /// True when the numbers of `pairs` (position along the street, number) run along the
    /// street steadily enough to be read (`orderAgreement`); `tooFew` when no pair of them is
    /// compared (too few differ, or none stand `orderApart` apart).
    func readsOrder(_ pairs: [(x: Double, n: Double)], tooFew: Bool = true) -> Bool {
        HouseNumbers.agreement(pairs, apart: orderApart).map { $0 >= orderAgreement } ?? tooFew
    }

    /// Each weight `flyr link --weight` can set: its name, where it lives, and whether it is
    /// given in degrees (stored in radians).
    private static let settable: [(name: String, path: WritableKeyPath<LinkWeights, Double> & Sendable, degrees: Bool)] = [
        ("turnCost", \.turnCost, false), ("maxTurn", \.maxTurn, true), ("turnStep", \.turnStep, true),
        ("numberOrderCost", \.numberOrderCost, false), ("numberOrderCap", \.numberOrderCap, false),
        ("numberRadius", \.numberRadius, false), ("outbuildingPenalty", \.outbuildingPenalty, false),
        ("smallFootprintPenalty", \.smallFootprintPenalty, false), ("smallFootprint", \.smallFootprint, false), ("lowHeight", \.lowHeight, false),
        ("annexShare", \.annexShare, false), ("annexFootprint", \.annexFootprint, false),
        ("occupiedPenalty", \.occupiedPenalty, false), ("cornerPenalty", \.cornerPenalty, false),
        ("acrossRoadPenalty", \.acrossRoadPenalty, false),
        ("orderPenalty", \.orderPenalty, false), ("orderAgreement", \.orderAgreement, false), ("orderApart", \.orderApart, false),
        ("leaveOut", \.leaveOut, false), ("passOver", \.passOver, false), ("sharedFootprint", \.sharedFootprint, false),
        ("alignTolerance", \.alignTolerance, false),
        ("recessCost", \.recessCost, false),
        ("setOutPenalty", \.setOutPenalty, false), ("setOutReach", \.setOutReach, false),
        ("alignWindow", \.alignWindow, false),
        ("backstepCost", \.backstepCost, false), ("towardStreetCost", \.towardStreetCost, false),
        ("endReach", \.endReach, false), ("beyondEndCost", \.beyondEndCost, false), ("frontYard", \.frontYard, false),
        ("lineStep", \.lineStep, false),
        ("sideRadius", \.sideRadius, false),
    ]

    /// The names `set(_:_:)` takes, in order.
    public static let names = settable.map(\.name)

    /// Each name with its default as `set(_:_:)` takes it (angles in degrees), "name=value", in
    /// order: what `flyr link --help` lists and `bench/accuracy.py` sweeps from.
    public static let defaults: [String] = {
        let w = LinkWeights()
        return settable.map { s in
            // Rounded to a millionth: a right angle's radians back in degrees keep a last-digit error.
            let v = (w[keyPath: s.path] * (s.degrees ? 180 / Double.pi : 1) * 1e6).rounded() / 1e6
            return "\(s.name)=\(v.rounded() == v ? String(Int(v)) : String(v))"
        }
    }()

    /// Sets the weight called `name` (one of `names`; angles in degrees); false for an unknown name
    /// or a negative or non-finite value (a turn step must be above 0).
    public mutating func set(_ name: String, _ value: Double) -> Bool {
        guard value.isFinite, value >= 0, let w = Self.settable.first(where: { $0.name == name }) else { return false }
        if w.path == \.turnStep, value == 0 { return false }
        self[keyPath: w.path] = w.degrees ? value * Double.pi / 180 : value
        return true
    }
}
