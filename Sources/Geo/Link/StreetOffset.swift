/// Covered points a street-range geocoder set. Such a geocoder puts the numbers of a street at
/// one offset from the street's line, worked out from that line, so its points stand at one
/// distance from the line to the centimetre, whatever the houses behind them. Where the houses
/// stand on the street line (an old town's rows) that offset lands inside a house, often the
/// neighbour's, and the covering footprint then says no more than the next one would. A point
/// given for its building stands where its house stands: a label point or a centroid at the
/// footprint's middle, a rooftop or an entrance where its house is, and houses set back alike
/// still differ by decimetres. So a covered point within `Linker.coverClearance` of another home,
/// away from its footprint's middle (farther than `middleAgreement`), whose offset from its own
/// street's line at least `offsetNeighbours` of the street's other points within
/// `LinkWeights.numberRadius` share (within `offsetAgreement`) is scored, aligned and assigned
/// with the points outside, among the footprints within that clearance only (its covering
/// footprint at distance 0, its ray cast to the wall the point would leave it by, as for any
/// footprint): a geocoder's slide moves a point into the next house, not past it. It is linked
/// as COVERS where it keeps a footprint covering it. The label points of a row of like houses
/// share an offset too; standing at their footprints' middles, they are not read so. The
/// street's other points need not be half or more of those around: where a file moved some of
/// its points only (a geocoder's for some addresses, rooftops for the rest), the others stand
/// at offsets of their own.
///
/// A geocoder does not keep its offset everywhere: where a house stands nearer the line than
/// the offset it sets the point between them, and a slide past a bend changes the distance to
/// the line. Such a point stands at an offset of its own, on a street whose other points show
/// the geocoder's work. So a covered point near another home and away from its footprint's
/// middle is read as a geocoder's as well where at least `geocodedStreet` of its street's other
/// points within `LinkWeights.numberRadius` share an offset with others. Rooftops and address
/// nodes differ by decimetres and share none, so a file of them keeps its covered points.
///
/// A lane or a court holds too few numbers to show a geocoder's work, and one that sets its
/// points by the houses' distance from the line leaves none at a shared offset. Its covered point
/// is read by the streets around it: where at least `geocodedAround` covered points of other
/// streets within `LinkWeights.numberRadius` stand at an offset their street's points share,
/// away from their footprints' middles, a geocoder put points into the houses there. Covered
/// points only: door points before a straight row of fronts share an offset too, but stand
/// outside every footprint.
extension LinkWorld {
    /// How near two points' offsets from their street's line agree when one rule set both (metres).
    static let offsetAgreement = 0.05
    /// The least count of the street's other points that must share the offset.
    static let offsetNeighbours = 2
    /// How near a point given for its building stands to the footprint's middle (metres): the
    /// label point a tool worked out on the footprint in degrees stands within a centimetre of
    /// the one worked out here in metres (4,994 of Queens' first 5,001 inside truth points).
    static let middleAgreement = 0.05
    /// How many of a street's points around must share an offset for the street to be read as a
    /// geocoder's: one more than `offsetNeighbours`, so one shared offset is not enough.
    static let geocodedStreet = 3
    /// How many covered points of the streets around must stand at a shared offset for a covered
    /// point of a street that shows none to be read as a geocoder's: more than a street needs,
    /// as among the many points of several streets a few share an offset to 5 cm by chance.
    static let geocodedAround = 5

    /// What reads a covered point as a geocoder's (see above): its own offset, shared with its
    /// street's points; its street, whose other points share one; or the streets around.
    enum OffsetReading { case shared, street, around }

    /// The reading by which covered address `a`'s point, in footprint `b` and `clearance` metres
    /// from the nearest other home, is one a geocoder set in a house of a row (see above); nil
    /// when none reads it so.
    func setInRow(_ a: Int, covering b: Int, clearance: Double) throws -> OffsetReading? {
        guard clearance < Linker.coverClearance, try !standsAtMiddle(b, points[a]) else { return nil }
        let street = streetNeighbours(a)
        let own = standsAtStreetOffset(a, amongMost: false, among: street)
        sharesStreetOffset[a] = own  // away from its footprint's middle, as read above
        if own { return .shared }
        if try streetSetByGeocoder(a, among: street) { return .street }
        return try streetsAroundSetByGeocoder(a) ? .around : nil
    }

    /// True when at least `geocodedStreet` of the other points of address `a`'s street within
    /// `LinkWeights.numberRadius` stand at an offset others share (see above), label points at
    /// their footprints' middles left out. Each point's reading is kept for the next call.
    /// `street`: those points, when already found.
    func streetSetByGeocoder(_ a: Int, among street: [Int]? = nil) throws -> Bool {
        guard streetKeys[a] != nil else { return false }
        var agree = 0
        for j in street ?? streetNeighbours(a) where try sharesOffset(j) {
            agree += 1
            if agree >= Self.geocodedStreet { return true }
        }
        return false
    }

    /// True when address `j`'s point stands at an offset its street's points around share, away
    /// from the middle of any footprint covering it; the reading is kept for the next call.
    func sharesOffset(_ j: Int) throws -> Bool {
        if let known = sharesStreetOffset[j] { return known }
        let shares = try !atFootprintMiddle(j) && standsAtStreetOffset(j, amongMost: false)
        sharesStreetOffset[j] = shares
        return shares
    }

    /// True when at least `geocodedAround` covered points of streets other than address `a`'s,
    /// within `LinkWeights.numberRadius` of its point, stand at an offset their street's points
    /// share, away from their footprints' middles (see above).
    func streetsAroundSetByGeocoder(_ a: Int) throws -> Bool {
        let key = streetKeys[a]
        var agree = 0
        for j in addressesAround(a, where: { streetKeys[$0] != key }) where try sharesOffset(j) && coveringBuilding(j) != nil {
            agree += 1
            if agree >= Self.geocodedAround { return true }
        }
        return false
    }

    /// True when address `a`'s point stands within `middleAgreement` of the middle of the
    /// footprint covering it, as a point given for its building does.
    func atFootprintMiddle(_ a: Int) throws -> Bool {
        guard let b = try coveringBuilding(a) else { return false }
        return try standsAtMiddle(b, points[a])
    }

    /// The other addresses of address `a`'s street (or, with no street, of none) within
    /// `LinkWeights.numberRadius` of its point.
    func streetNeighbours(_ a: Int) -> [Int] {
        if let known = neighbourCache[a] { return known }
        let key = streetKeys[a]
        let found = addressesAround(a, where: { streetKeys[$0] == key })
        neighbourCache[a] = found
        return found
    }

    /// The addresses other than `a` within `LinkWeights.numberRadius` of its point that `keep`
    /// takes.
    func addressesAround(_ a: Int, where keep: (Int) -> Bool) -> [Int] {
        let p = points[a], r = options.weights.numberRadius
        var out: [Int] = []
        addressIndex.forEach(meeting: BBox(around: p, radius: r)) { j in
            if j != a, keep(j), Planar.length(Planar.sub(points[j], p)) <= r { out.append(j) }
        }
        return out
    }

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
    /// shares no offset. The offsets are read only until the answer is known. With `orRoad`, a
    /// street with no line is read against the road its street search fell back to, as a geocoder
    /// falling back to the nearest road sets its points, and points naming no street are compared
    /// with the others naming none. With `amongMost`, half or more of the street's other points
    /// around must share the offset as well (the readings of points set out from their houses and
    /// of piled street ends, for points outside every footprint). `street`: the street's other
    /// points around (`streetNeighbours`), when already found.
    func standsAtStreetOffset(_ a: Int, orRoad: Bool = false, amongMost: Bool = true, among street: [Int]? = nil) -> Bool {
        let key = streetKeys[a]
        guard key != nil || orRoad, let mine = streetOffset(a, orRoad: orRoad), mine > Self.onLine else { return false }
        let street = street ?? streetNeighbours(a)
        let need = amongMost ? max(Self.offsetNeighbours, (street.count + 1) / 2) : Self.offsetNeighbours
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
