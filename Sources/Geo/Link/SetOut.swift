/// Points set out from their houses. A frontage point (a county's address point moved out to the
/// street) or a door point is set out from its house straight toward a street: it stands on the
/// house's shortest way to that street, so its distance to the house plus its distance to the
/// street is the house's distance from the street. Where one rule set the points, that holds to
/// a tenth of a millimetre (`setOutAgreement`); a rooftop, a parcel centroid or a geocoder's
/// point meets it only where a wall happens to run true to the street. So where nearly every
/// point around an address (`setOutShare` of those outside every footprint and within
/// `setOutReach` of one, at least `setOutNeighbours`) stands so before some footprint, and the
/// address's point stands so before one within `LinkWeights.setOutReach`:
/// - each candidate it does not stand so before costs `LinkWeights.setOutPenalty` more;
/// - the one it alone stands so before costs its distance for its ray: the point stands on a
///   straight way from the street it was set out toward, whatever turn the rays from the
///   address's own street would need (two it stands so before, at a shared corner, keep their
///   rays);
/// - no street end it stands by is read (`StreetEnd`): no geocoder piled it there.
///
/// A point at the offset from its street's line that its street's points share
/// (`standsAtStreetOffset`; where its street has no line, from the road its street search fell
/// back to) stands as a geocoder's points before a row drawn true to the street do: before
/// whichever house the slide put it. It is read only where another point around stands set out
/// at no shared offset. A point on its road's line is read as given, toward the other roads.
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
    /// roads of other names within `setOutRoads`, read from the point as given. A road nearer than
    /// `onLine` is left out: a point on a line was set out toward no road.
    func setOutRoads(_ a: Int) -> [(segment: Int, distance: Double)] {
        let p = givenPoint(a), key = streetKeys[a], r = options.streetSearchMeters
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

    /// Whether address `a`'s point (as given) stands set out before some footprint within
    /// `setOutReach`; nil for a point a footprint covers, with no footprint within that reach
    /// (a point on open ground tells nothing of how the points were placed) or no road to be set
    /// out toward.
    /// Worked out once per point (`setOutState`: 0 before, 1 nil, 2 false, 3 true).
    func isSetOut(_ a: Int) -> Bool? {
        if setOutState.isEmpty { setOutState = Array(repeating: 0, count: points.count) }
        switch setOutState[a] {
        case 1: return nil
        case 2: return false
        case 3: return true
        default: break
        }
        // The cheap test first: a point with no road to be set out toward (then `near` is empty).
        let p = givenPoint(a), roads = setOutRoads(a)
        let near = roads.isEmpty ? [] : footprints(near: p, within: options.weights.setOutReach)
        guard !near.isEmpty, !near.contains(where: { $0.distance == 0 }) else { setOutState[a] = 1; return nil }
        let yes = near.contains { standsSetOut(p, before: $0.building, distance: $0.distance, roads: roads) }
        setOutState[a] = yes ? 3 : 2
        return yes
    }

    /// True when `setOutShare` of the points within `LinkWeights.numberRadius` of address `a`'s
    /// (itself among them, whatever their street: one rule placed a file's points) stand set
    /// out, of at least `setOutNeighbours` read; where fewer can be read there (the others in
    /// footprints), the nearest that can, out to `LinkWeights.sideRadius`, are read with them.
    /// A point at the offset its street's points share (`atOffset`) stands as a geocoder's would
    /// before a row drawn true to the street: one of the others set out must then stand at no
    /// such offset, a sign that the rule set the points by their houses (this one stopping short
    /// of its street's line, as in a narrow lane).
    func amongSetOutPoints(_ a: Int, atOffset: Bool) -> Bool {
        let p = points[a], r = options.weights.numberRadius, far = options.weights.sideRadius
        var near: [Int] = [], farther: [(distance: Double, rank: Int32, address: Int)] = []
        addressIndex.forEach(meeting: BBox(around: p, radius: r)) { j in
            if Planar.length(Planar.sub(points[j], p)) <= r { near.append(j) }
        }
        var read = near.filter { isSetOut($0) != nil }.count
        if read < Self.setOutNeighbours {
            addressIndex.forEach(meeting: BBox(around: p, radius: far)) { j in
                let d = Planar.length(Planar.sub(points[j], p))
                if d > r, d <= far { farther.append((d, attrs.addressRank[aIdx[j]], j)) }
            }
            farther.sort { ($0.distance, $0.rank) < ($1.distance, $1.rank) }
            for f in farther where isSetOut(f.address) != nil {
                near.append(f.address)
                read += 1
                if read >= Self.setOutNeighbours { break }
            }
        }
        let setOut = near.filter { isSetOut($0) == true }
        guard read >= Self.setOutNeighbours, Double(setOut.count) >= Self.setOutShare * Double(read) else { return false }
        return !atOffset || setOut.contains { $0 != a && !standsAtStreetOffset($0, orRoad: true) }
    }

    /// Charges `LinkWeights.setOutPenalty` to each of address `a`'s candidates its point does not
    /// stand set out before, when it stands so before one within `setOutReach` among set-out
    /// points, and takes back the turn and the ray's excess over the distance of the one it alone
    /// stands so before (see above); the candidates sorted again.
    func chargeSetOut(_ a: Int, _ out: inout [Candidate]) {
        let w = options.weights, p = givenPoint(a)
        guard w.setOutPenalty > 0, isSetOut(a) == true else { return }
        let roads = setOutRoads(a)
        let before = out.map {
            // A point read off its road's line was scored from there: measure from the point as given.
            let d = offLine[a] == nil ? $0.distance : Planar.distance(from: p, toRings: rings($0.building))
            return d <= w.setOutReach && standsSetOut(p, before: $0.building, distance: d, roads: roads)
        }
        guard before.contains(true), amongSetOutPoints(a, atOffset: standsAtStreetOffset(a, orRoad: true)) else { return }
        let alone = before.filter { $0 }.count == 1
        for i in out.indices {
            // Before the footprint, the point stands on the straight way from the street it was
            // set out toward: a ray from that street with no turn, as long as the distance.
            let charge = before[i] ? (alone ? min(0, out[i].distance - out[i].ray) : 0) : w.setOutPenalty
            out[i].setOut = charge
            out[i].setOutBefore = before[i]
            out[i].cost += charge
        }
        sortByCost(&out)
    }
}
