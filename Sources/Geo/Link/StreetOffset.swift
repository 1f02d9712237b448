/// Covered points a street-range geocoder set. Such a geocoder puts the numbers of a street at
/// one offset from the street's line, worked out from that line, so its points stand at one
/// distance from the line to the centimetre, whatever the houses behind them. Where the houses
/// stand on the street line (an old town's rows) that offset lands inside a house, often the
/// neighbour's, and the covering footprint then says no more than the next one would. A point
/// given for its building (a rooftop, an entrance, a label point) stands where its house stands,
/// and houses set back alike still differ by decimetres. So a covered point within
/// `Linker.coverClearance` of another home whose offset from its own street's line the street's
/// other points within `LinkWeights.numberRadius` share (within `offsetAgreement`, at least
/// `offsetNeighbours` of them and half or more) is scored, aligned and assigned with the points
/// outside, among the footprints within that clearance only (its covering footprint at distance
/// 0, its ray cast to the wall the point would leave it by, as for any footprint): a geocoder's
/// slide moves a point into the next house, not past it. It is linked as COVERS where it keeps a
/// footprint covering it.
extension LinkWorld {
    /// How near two points' offsets from their street's line agree when one rule set both (metres).
    static let offsetAgreement = 0.05
    /// The least count of the street's other points that must share the offset.
    static let offsetNeighbours = 2

    /// The distance from address `a`'s point to its own street's line; nil when the street has
    /// no line within the street search. With `orRoad`, to the road its street search fell back
    /// to where its street has none (`streetAnchor`).
    func streetOffset(_ a: Int, orRoad: Bool = false) -> Double? {
        guard let anchor = streetAnchor(a), anchor.named || orRoad else { return nil }
        return Planar.length(Planar.sub(points[a], anchor.point))
    }

    /// True when address `a`'s point stands off its street's line at the offset its street's
    /// other points around it share, as a geocoder sets them (see above). Read from the points as
    /// given, before any point on a line is read off it. A neighbour whose street has no line near
    /// shares no offset. The offsets are read only until the answer is known (most covered points
    /// are a rooftop's, and their first neighbours already disagree). With `orRoad`, a street
    /// with no line is read against the road its street search fell back to, as a geocoder
    /// falling back to the nearest road sets its points, and points naming no street are
    /// compared with the others naming none.
    func standsAtStreetOffset(_ a: Int, orRoad: Bool = false) -> Bool {
        let key = streetKeys[a]
        guard key != nil || orRoad, let mine = streetOffset(a, orRoad: orRoad), mine > Self.onLine else { return false }
        let p = points[a], r = options.weights.numberRadius
        var street: [Int] = []
        addressIndex.forEach(meeting: BBox(around: p, radius: r)) { j in
            if j != a, streetKeys[j] == key, Planar.length(Planar.sub(points[j], p)) <= r { street.append(j) }
        }
        let need = max(Self.offsetNeighbours, (street.count + 1) / 2)
        var agree = 0
        for (k, j) in street.enumerated() {
            guard agree + street.count - k >= need else { return false }
            if let o = streetOffset(j, orRoad: orRoad), abs(o - mine) <= Self.offsetAgreement {
                agree += 1
                if agree >= need { return true }
            }
        }
        return false
    }
}
