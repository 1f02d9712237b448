/// Points set out from their houses. A frontage point (a county's address point moved out to the
/// street) or a door point is set out from its house straight toward a street: it stands on the
/// house's shortest way to that street, so its distance to the house plus its distance to the
/// street is the house's distance from the street. Where one rule set the points, that holds to
/// a tenth of a millimetre (`setOutAgreement`); a rooftop, a parcel centroid or a geocoder's
/// point meets it only where a wall happens to run true to the street. So where nearly every
/// point around an address (`setOutShare` of those outside every footprint, at least
/// `setOutNeighbours`) stands so before some footprint, the address's candidates it does not
/// stand so before cost
/// `LinkWeights.setOutPenalty` more, when one it does stands within `LinkWeights.setOutReach`,
/// unless the point stands at the offset from its street's line (or, where its street has none,
/// from the road its street search fell back to) that its street's points share
/// (`standsAtStreetOffset`): a geocoder's points before a row drawn true to the street stand so
/// before whichever house the slide put them.
/// The street may be the address's own (any of its segments within the street search) or any
/// road a house can front within `setOutRoads`: where its own street runs along the wall, the
/// point is set out toward the next one.
extension LinkWorld {
    /// How near the point's two distances must add up to the house's distance from the street
    /// (metres): rounding coordinates to 1e-7° moves a point up to half a centimetre, which
    /// changes the sum by about a hundredth of a millimetre on the shortest way, while a wall
    /// turned a degree off the street changes it by centimetres.
    static let setOutAgreement = 0.0001
    /// The least share of the points around an address that must stand set out.
    static let setOutShare = 0.9
    /// The least count of the points around an address (itself among them) read.
    static let setOutNeighbours = 4
    /// Roads of another name within this many metres of the point may be the street it was set
    /// out toward.
    static let setOutRoads = 40.0

    /// The roads address `a`'s point may have been set out toward, each with the point's distance
    /// to its line: the segments of its own street within the street search, and the frontage
    /// roads of other names within `setOutRoads`. A road nearer than `onLine` is left out: a
    /// point on a line was set out toward no road.
    func setOutRoads(_ a: Int) -> [(segment: Int, distance: Double)] {
        let p = points[a], key = streetKeys[a], r = options.streetSearchMeters
        var out: [(segment: Int, distance: Double)] = []
        for s in segmentIndex.query(BBox(around: p, radius: max(r, Self.setOutRoads))) {
            let own = key != nil && segmentKeys[s] == key
            guard own || frontageRoad[s], let c = Planar.closestOnLine(p, lines[s]),
                  c.distance <= (own ? r : Self.setOutRoads), c.distance > Self.onLine else { continue }
            out.append((s, c.distance))
        }
        return out
    }

    /// True when point `p`, `d` metres from footprint `b`, stands on the footprint's shortest way
    /// to one of `roads` (`setOutAgreement`).
    func standsSetOut(_ p: Coord, before b: Int, distance d: Double, roads: [(segment: Int, distance: Double)]) -> Bool {
        guard d > 0 else { return false }
        for (s, g) in roads {
            let most = d + g + Self.setOutAgreement
            if let gap = Planar.distance(rings: rings(b), ringsBox: buildingBoxes[b], line: lines[s], maxDistance: most),
               d + g <= gap + Self.setOutAgreement { return true }
        }
        return false
    }

    /// Whether address `a`'s point stands set out before some footprint within `setOutReach`;
    /// nil for a point a footprint covers, with no road to be set out toward, or given on a
    /// road's line (read off it, `placeLinePoints`). Worked out once per point (`setOutState`: 0
    /// before, 1 nil, 2 false, 3 true).
    func isSetOut(_ a: Int) -> Bool? {
        if setOutState.isEmpty { setOutState = Array(repeating: 0, count: points.count) }
        switch setOutState[a] {
        case 1: return nil
        case 2: return false
        case 3: return true
        default: break
        }
        // The cheap tests first: a point read off a line, then one with no road to be set out toward.
        let roads = offLine[a] == nil ? setOutRoads(a) : []
        let near = roads.isEmpty ? [] : footprints(near: points[a], within: options.weights.setOutReach)
        guard !roads.isEmpty, !near.contains(where: { $0.distance == 0 }) else { setOutState[a] = 1; return nil }
        let yes = near.contains { standsSetOut(points[a], before: $0.building, distance: $0.distance, roads: roads) }
        setOutState[a] = yes ? 3 : 2
        return yes
    }

    /// True when `setOutShare` of the points within `LinkWeights.numberRadius` of address `a`'s
    /// (itself among them, whatever their street: one rule placed a file's points) stand set
    /// out, of at least `setOutNeighbours` read.
    func amongSetOutPoints(_ a: Int) -> Bool {
        let p = points[a], r = options.weights.numberRadius
        var around: [Int] = []
        addressIndex.forEach(meeting: BBox(around: p, radius: r)) { j in
            if Planar.length(Planar.sub(points[j], p)) <= r { around.append(j) }
        }
        var read = 0, setOut = 0
        for j in around {
            guard let s = isSetOut(j) else { continue }
            read += 1
            if s { setOut += 1 }
        }
        return read >= Self.setOutNeighbours && Double(setOut) >= Self.setOutShare * Double(read)
    }

    /// Charges `LinkWeights.setOutPenalty` to each of address `a`'s candidates its point does not
    /// stand set out before, when it stands so before one within `setOutReach`, among set-out
    /// points and not at its street's shared offset (see above); the candidates
    /// sorted again.
    func chargeSetOut(_ a: Int, _ out: inout [Candidate]) {
        let w = options.weights, p = points[a]
        guard w.setOutPenalty > 0, isSetOut(a) == true, !standsAtStreetOffset(a, orRoad: true) else { return }
        let roads = setOutRoads(a)
        let before = out.map { $0.distance <= w.setOutReach && standsSetOut(p, before: $0.building, distance: $0.distance, roads: roads) }
        guard before.contains(true), amongSetOutPoints(a) else { return }
        for i in out.indices where !before[i] {
            out[i].setOut = w.setOutPenalty
            out[i].cost += w.setOutPenalty
        }
        sortByCost(&out)
    }
}
