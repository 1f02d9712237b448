/// Why one address was linked as it was (`LinkerOptions.explain`, `flyr link --explain`): the
/// street it was read against, each candidate's cost term by term (the README's steps 2 to 4),
/// what its block face's alignment chose and what the assignment settled on. Costs are metres.
public struct LinkExplanation: Sendable, Equatable {
    public struct Candidate: Sendable, Equatable {
        public var buildingID: String
        /// Metres from the point to the footprint.
        public var distance: Double
        /// The best ray's length plus its turn's cost (or the distance plus a right angle when no
        /// ray meets the footprint; the distance alone without a street).
        public var ray: Double
        /// The best ray's turn in degrees (left positive); nil when no ray met the footprint.
        public var turnDegrees: Double?
        /// The best ray ran away from the street (the point stands before the footprint).
        public var facing: Bool
        public var numberSpot: Double
        public var outbuilding: Double
        public var acrossRoad: Double
        /// `setOutPenalty` when the points around the address's were set out from their houses
        /// and its point stands set out before another footprint; below 0, the ray's excess over
        /// the distance taken back from the one footprint it stands set out before
        /// (`LinkWorld.chargeSetOut`).
        public var setOut: Double
        /// The score the candidate had after step 2: the sum of the terms above, or, for a
        /// footprint scored along a line (`pastStreetEnd`), its cost from that line.
        public var score: Double
        /// Scored along a line, not by the terms: the street's continuation past its end, or the
        /// line back from the road a point of a street with no line stands by (`StreetEnd`).
        public var pastStreetEnd: Bool
        /// `orderPenalty` when the block face aligned the address to another footprint.
        public var order: Double
        /// What the footprint's other numbers cost this address once every address is linked
        /// (a second household, or a corner).
        public var occupancy: Double
        public var total: Double { score + order + occupancy }
    }

    public var addressID: String
    /// The address's house key: its number and its street as the linker compares it.
    public var houseKey: String
    /// COVERS: the footprint covering the point; nothing else is then weighed.
    public var covering: String?
    /// COVERS: the point's clearance, the metres to the nearest other footprint it could belong
    /// to, at most `Linker.coverClearance` (`LinkWorld.clearance`): what its confidence reads.
    public var clearance: Double?
    /// COVERS: a home holding no number stands beside the footprint, which holds other numbers
    /// of the address's street (`LinkWorld.coveringBesideFreeHome`): the confidence is lowered.
    public var freeHomeBeside = false
    /// A covered point scored with the rest (`LinkWorld.standsAtStreetOffset`): the footprint
    /// covering it; its point stands at the offset from its street's line that its street's
    /// other points share, as a geocoder sets them.
    public var coveringAtStreetOffset: String?
    /// With `coveringAtStreetOffset`: the point stands at an offset of its own, read as a
    /// geocoder's because its street's other points share one (`LinkWorld.streetSetByGeocoder`).
    public var offsetOfItsOwn = false
    /// With `offsetOfItsOwn`: its street's points show no geocoder's work; the covered points of
    /// the streets around do (`LinkWorld.streetsAroundSetByGeocoder`).
    public var offsetReadAround = false
    /// The road the rays start from: the address's own street, or the road its street search
    /// fell back to (nil: none within the street search radius).
    public var road: String?
    public var roadIsOwnStreet: Bool
    /// Metres from the point to that road's line.
    public var roadDistance: Double?
    /// For a point on its road's line: the summed evidence that chose its side (metres).
    public var lineSide: Double?
    /// The footprint the block face's alignment gave the address; nil when the face was not
    /// aligned (too few numbers, numbers in no order) or left the address out.
    public var aligned: String?
    /// The candidates the address was scored against, cheapest final total first (at most 8).
    public var candidates: [Candidate]
    /// The footprint chosen (nil: none), its final cost and the runner-up's.
    public var chosen: String?
    public var cost: Double?
    public var runnerUp: Double?
}

extension LinkWorld {
    /// The explanation of address `a`, scored as `scored` (its candidates after step 2, before
    /// the alignment's order cost), aligned to `aligned`, chosen as `choice`; `held`: the house
    /// keys on each footprint once every address of the tile is linked; `besideFree`: the
    /// footprints `coveringBesideFreeHome` found.
    func explain(_ a: Int, scored: [Candidate]?, aligned: Int?, choice: Assignment.Choice?,
                 occupancy: Occupancy, held: [Int: Set<String>], besideFree: Set<Int>) throws -> LinkExplanation {
        let anchor = streetAnchor(a)
        var e = LinkExplanation(
            addressID: attrs.addressIDs[aIdx[a]], houseKey: houseKey(a), covering: nil,
            road: anchor.map { segmentKeys[$0.segment] ?? "(unnamed road)" }, roadIsOwnStreet: anchor?.named ?? false,
            roadDistance: anchor.map { Planar.length(Planar.sub(givenPoint(a), $0.point)) },
            lineSide: offLine[a]?.evidence, aligned: aligned.map(buildingID), candidates: [],
            chosen: choice.map { buildingID($0.candidate.building) }, cost: choice?.cost, runnerUp: choice?.runnerUp)
        guard let scored else {
            if let b = assigned[a] {
                e.covering = buildingID(b)
                e.clearance = clearance(a, covering: b)
                e.freeHomeBeside = besideFree.contains(b)
            }
            return e
        }
        e.coveringAtStreetOffset = atStreetOffset[a].map(buildingID)
        let reading = offsetReadings[a]
        e.offsetOfItsOwn = reading == .street || reading == .around
        e.offsetReadAround = reading == .around
        let frame = try scoreFrame(a)
        let w = options.weights
        for c in scored {
            let q = Planar.nearestOnEdges(of: rings(c.building), to: points[a]).point
            var t = try terms(c.building, distance: c.distance, nearest: q, in: frame, acrossBelow: .infinity)
            t.outbuilding += c.annex
            // The scoring looks for a road in between only while the cost can still matter: where
            // it did not, the score holds no road.
            if !c.pastEnd, t.acrossRoad > 0, abs(t.total - t.acrossRoad - c.cost) <= 1e-6 { t.acrossRoad = 0 }
            e.candidates.append(LinkExplanation.Candidate(
                buildingID: buildingID(c.building), distance: c.distance, ray: t.ray,
                turnDegrees: t.turn.map { $0 * 180 / Double.pi }, facing: t.facing, numberSpot: t.numberSpot,
                outbuilding: t.outbuilding, acrossRoad: t.acrossRoad, setOut: c.setOut, score: c.cost, pastStreetEnd: c.pastEnd,
                order: aligned.map { $0 == c.building ? 0 : w.orderPenalty } ?? 0,
                occupancy: occupancy.added(houseKey(a), to: held[c.building] ?? [])))
        }
        e.candidates.sort { ($0.total, $0.buildingID) < ($1.total, $1.buildingID) }
        e.candidates = Array(e.candidates.prefix(8))
        return e
    }
}

extension LinkWorld {
    /// The scored candidates of the pending addresses whose ids are among `ids`, by address.
    func scored(of pending: [(address: Int, scored: [Candidate])], among ids: Set<String>) -> [Int: [Candidate]] {
        var out: [Int: [Candidate]] = [:]
        for p in pending where ids.contains(attrs.addressIDs[aIdx[p.address]]) { out[p.address] = p.scored }
        return out
    }
}

extension Linker {
    /// The explanations of the tile's own addresses that `LinkerOptions.explain` names.
    func explanations(_ world: LinkWorld, tile: TileGrid.Tile, layers: ProjectedLayers, scored: [Int: [Candidate]],
                      aligned: [Int: Int], chosen: [Int: Assignment.Choice], besideFree: Set<Int>) throws -> [LinkExplanation] {
        let occupancy = options.weights.occupancy
        let held = world.heldKeys()
        var out: [LinkExplanation] = []
        for (a, global) in world.aIdx.enumerated() where options.explain.contains(world.attrs.addressIDs[global])
            && tile.owns(layers.points[global]) {
            out.append(try world.explain(a, scored: scored[a], aligned: aligned[a], choice: chosen[a], occupancy: occupancy,
                                         held: held, besideFree: besideFree))
        }
        return out
    }
}
