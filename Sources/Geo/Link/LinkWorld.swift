import Foundation

/// One tile's working set: its features projected to the local metric CRS, its footprints'
/// rings in one owned buffer, grid indexes over footprints, address points and road
/// segments, and GEOS footprints only where GEOS is needed (validity and repair of anything
/// but a simple ring, centres). One GEOS context.
final class LinkWorld {
    let options: LinkerOptions
    let context = GEOSContext()
    /// Global indexes of this world's buildings, addresses and segments.
    let bIdx: [Int], aIdx: [Int], sIdx: [Int]
    let attrs: FeatureAttributes

    /// The footprints in metres (as repaired, for those that were), by local index: ring k is
    /// `coords[ringStarts[k]..<ringStarts[k + 1]]`, building b's rings
    /// `firstRing[b]..<firstRing[b + 1]`. Owned by the world, freed with it.
    private let coords: UnsafeMutableBufferPointer<Coord>
    private let ringStarts: UnsafeMutableBufferPointer<Int>
    private let firstRing: UnsafeMutableBufferPointer<Int>
    /// Ring counts of each part, for footprints repaired with make-valid.
    private var repairedParts: SlotCache<[Int]>
    /// True when building `b`'s footprint was invalid and repaired with make-valid.
    func isRepaired(_ b: Int) -> Bool { repairedParts[b] != nil }
    private let buildings: [Building]
    /// GEOS footprints made so far: at once for those that are not a simple ring, on first
    /// use for the others.
    private var geometries: SlotCache<Geometry>
    let areas: [Double]
    let buildingBoxes: [BBox]
    let buildingIndex: GridIndex

    /// The address points in metres, those on their road's line read off it
    /// (`placeLinePoints`; `offLine` holds them as given).
    var points: [Coord]
    /// The points on their road's line that were read off it, by address.
    private(set) var offLine: [Int: OffLine] = [:]
    /// Address `a`'s point as given: off its road's line only where read off it.
    func givenPoint(_ a: Int) -> Coord { offLine[a]?.given ?? points[a] }
    private(set) lazy var addressIndex = GridIndex(boxes: points.map { BBox(minX: $0.x, minY: $0.y, maxX: $0.x, maxY: $0.y) })
    private var centreCache: SlotCache<Coord>
    private var labelCache: SlotCache<Coord>
    private var givenLabelCache: SlotCache<Coord>

    /// A point on the footprint's surface: its centroid when that lies inside, else its `label`.
    func centre(_ b: Int) throws -> Coord {
        if let c = centreCache[b] { return c }
        // One ring with area: GEOS's centroid worked out without GEOS (`Orienter.shellCentroid`,
        // the same to the bit); any other footprint asks GEOS.
        let rs = rings(b)
        var centroid = rs.ringCount == 1 ? Orienter.shellCentroid(rs[0]) : nil
        if centroid == nil {
            let g = try geometry(b).centroid()
            if !g.isEmpty { centroid = try g.pointCoord() }
        }
        let c: Coord
        if let p = centroid, try covers(b, p) { c = p } else { c = try label(b) }
        centreCache[b] = c
        return c
    }

    /// True when footprint `b` covers point `p`: by its crossings where the point stands clear of
    /// its edges (by more than `coverTolerance`), by GEOS's robust test nearer.
    private func covers(_ b: Int, _ p: Coord) throws -> Bool {
        let rs = rings(b)
        if Planar.nearestOnEdges(of: rs, to: p).distance > LinkWorld.coverTolerance { return Planar.covers(rs, p, tolerance: 0) }
        return try geometry(b).covers(Geometry.point(context, p))
    }

    /// The footprint's label point: GEOS point on surface, where GIS tools put a building's point
    /// (for one ring worked out without GEOS, the same to the bit: `ScanLinePoint`).
    func label(_ b: Int) throws -> Coord {
        if let c = labelCache[b] { return c }
        let rs = rings(b)
        let c: Coord
        if rs.ringCount == 1, let p = ScanLinePoint.of(ring: rs[0]) {
            c = p
        } else {
            c = try geometry(b).pointOnSurface().pointCoord()
        }
        labelCache[b] = c
        return c
    }

    /// How far point `p` stands from the middle of footprint `b`, in metres: the nearer of its
    /// `centre` and its `givenLabel`. A point given for a building stands at one of them.
    func middleGap(_ b: Int, _ p: Coord) throws -> Double {
        min(Planar.length(Planar.sub(try centre(b), p)), Planar.length(Planar.sub(try givenLabel(b), p)))
    }

    /// True when point `p` stands within `middleAgreement` of the middle of footprint `b`, as
    /// `middleGap` reads it, the label first (a point given for a building stands most often
    /// there).
    func standsAtMiddle(_ b: Int, _ p: Coord) throws -> Bool {
        let near = LinkWorld.middleAgreement
        if Planar.length(Planar.sub(try givenLabel(b), p)) <= near { return true }
        return Planar.length(Planar.sub(try centre(b), p)) <= near
    }

    /// The footprint's label point where a data set's own tools put it: GEOS point on surface of
    /// the outline in the degrees it is published in, carried into metres by the affine map its
    /// own vertices make between degrees and metres (over one footprint a projection departs from
    /// it by far under a millimetre). The point on surface of the projected outline scans across
    /// the projection's grid instead, which turns against the degrees' away from the projection's
    /// centre: 45 km out, one label point in twenty stands more than 5 cm from it (the
    /// `StreetOffset.middleAgreement` the middle is read within). A centroid needs no
    /// such care (an affine map carries it), nor does a repaired footprint (no data set's tools
    /// read it): those are `label`.
    func givenLabel(_ b: Int) throws -> Coord {
        if let c = givenLabelCache[b] { return c }
        let footprint = buildings[bIdx[b]].footprint, degrees = footprint.coords
        let metres = UnsafeBufferPointer(rebasing: coords[ringStarts[firstRing[b]]..<ringStarts[firstRing[b + 1]]])
        guard repairedParts[b] == nil, degrees.count == metres.count, degrees.count >= 3,
              let map = AffineMap(from: degrees, to: metres) else { return try label(b) }
        // A footprint of one ring, the most, without GEOS: the same point (`ScanLinePoint`).
        let inDegrees: Coord
        if footprint.ringCount == 1, let p = ScanLinePoint.of(ring: degrees) {
            inDegrees = p
        } else {
            inDegrees = try Geometry.polygon(context, footprint.polygons).pointOnSurface().pointCoord()
        }
        let c = map.apply(inDegrees)
        givenLabelCache[b] = c
        return c
    }

    /// Building `b`'s footprint as a GEOS geometry.
    func geometry(_ b: Int) throws(GEOSError) -> Geometry {
        if let g = geometries[b] { return g }
        let sizes = repairedParts[b] ?? buildings[bIdx[b]].footprint.partSizes
        let g = try Geometry.polygon(context, LinkWorld.parts(of: sizes, rings: rings(b).map(Array.init)))
        geometries[b] = g
        return g
    }

    /// Building `b`'s rings (all parts' rings together), read in place; valid while the world
    /// lives.
    func rings(_ b: Int) -> RingsView {
        RingsView(coords: UnsafeBufferPointer(coords),
                  starts: UnsafeBufferPointer(rebasing: ringStarts[firstRing[b]...firstRing[b + 1]]))
    }

    let streetKeys: [String?]
    var coverCount: [Int]
    var assigned: [Int?]
    /// The covered points scored with the rest (`standsAtStreetOffset`), each with the footprint
    /// covering it.
    var atStreetOffset: [Int: Int] = [:]
    /// For each of those, what read it as a geocoder's (`setInRow`): what `--explain` says.
    var offsetReadings: [Int: OffsetReading] = [:]
    /// Whether each address read so far shares its street's offset with others
    /// (`standsAtStreetOffset`, among any) and stands away from the middle of any footprint
    /// covering it, for `streetSetByGeocoder`.
    var sharesStreetOffset: SlotCache<Bool>
    /// Each address's `streetNeighbours` read since the last point moved (`forgetPlace`).
    var neighbourCache: [Int: [Int]] = [:]
    /// Whether each footprint read so far stands in a row where homes are scarce (`homesScarce`).
    var scarceHomes: [Int: Bool] = [:]

    let lines: [[Coord]]
    let segmentKeys: [String?]
    /// Each address's street as a number (`streetNumbers`), for `fronts`.
    let addressStreetNumbers: [Int32]
    /// The segments of each street, by its number, and each segment's box: what `fronts` reads
    /// (a street has a few segments in a tile; the grid would list every road near).
    let segmentsOfStreet: [[Int]], segmentBoxes: [BBox]
    /// The named streets as lines, their segments joined (`StreetChains`), for the block faces.
    private(set) lazy var streetChains = StreetChains(lines: lines, keys: segmentKeys)
    /// Whether each chain end met so far is open (`StreetEnd`), keyed 2·chain (+1 for its last point).
    var openEnds: [Int: Bool] = [:]
    /// Whether the numbers at each street end met so far are piled there (`StreetEnd`).
    var piledEnds: [Int: Bool] = [:]
    /// The piled street ends whose points stand on both sides of a road there (`StreetEnd`).
    var straddledEnds: Set<Int> = []
    let frontageRoad: [Bool]
    /// The roads `crossesRoad` reads as between a point and a house (`separatesHouses`).
    let separatingRoad: [Bool]
    let segmentIndex: GridIndex

    /// A world over one tile's features (global indexes), already projected.
    init(tile bIdx: [Int], _ aIdx: [Int], _ sIdx: [Int], buildings: [Building], layers: ProjectedLayers,
         attrs: FeatureAttributes, options: LinkerOptions) throws {
        self.options = options
        self.bIdx = bIdx; self.aIdx = aIdx; self.sIdx = sIdx
        repairedParts = SlotCache(count: bIdx.count)
        geometries = SlotCache(count: bIdx.count)
        centreCache = SlotCache(count: bIdx.count)
        labelCache = SlotCache(count: bIdx.count)
        givenLabelCache = SlotCache(count: bIdx.count)
        sharesStreetOffset = SlotCache(count: aIdx.count)
        self.attrs = attrs
        self.buildings = buildings
        coverCount = Array(repeating: 0, count: aIdx.count)
        assigned = Array(repeating: nil, count: aIdx.count)

        let flat = layers.rings
        var local = FlatRings()
        local.coords.reserveCapacity(bIdx.reduce(0) { $0 + flat.ringStarts[flat.firstRing[$1 + 1]] - flat.ringStarts[flat.firstRing[$1]] })
        local.ringStarts.reserveCapacity(bIdx.count + 1)
        local.firstRing.reserveCapacity(bIdx.count + 1)
        var areas: [Double] = [], boxes: [BBox] = []
        areas.reserveCapacity(bIdx.count)
        boxes.reserveCapacity(bIdx.count)
        for (i, global) in bIdx.enumerated() {
            // One ring is one part (the reader refuses a polygon without rings); the building
            // itself is read only when it has more (its memory is far from the rings').
            if flat.ringCount(global) == 1, let area = flat.withRings(global, { rings in
                Planar.isSimpleRing(rings[0]) ? abs(Planar.ringArea(rings[0])) : nil
            }) {
                flat.withRings(global) { local.append($0) }
                areas.append(area)
                boxes.append(layers.boxes[global])
                continue
            }
            var g = try Geometry.polygon(context, LinkWorld.parts(of: buildings[global].footprint.partSizes, rings: flat[global]))
            if !g.isValid {
                g = try g.makeValid().polygonalPart()
                let repaired = g.polygons()
                local.append(repaired.lazy.flatMap { $0.rings })
                repairedParts[i] = repaired.map { $0.rings.count }
                boxes.append(local.box(i))
            } else {
                flat.withRings(global) { local.append($0) }
                boxes.append(layers.boxes[global])
            }
            geometries[i] = g
            areas.append(try g.area())
        }
        self.areas = areas
        buildingBoxes = boxes
        buildingIndex = GridIndex(boxes: boxes)

        points = aIdx.map { layers.points[$0] }
        streetKeys = aIdx.map { attrs.streetKeys[$0] }

        lines = sIdx.map { layers.lines[$0] }
        segmentKeys = sIdx.map { attrs.segmentKeys[$0] }
        let segmentStreetNumbers: [Int32]
        (segmentStreetNumbers, addressStreetNumbers) = LinkWorld.streetNumbers(segments: segmentKeys, addresses: streetKeys)
        var ofStreet = [[Int]](repeating: [], count: Int(segmentStreetNumbers.max() ?? -1) + 1)
        for (k, n) in segmentStreetNumbers.enumerated() where n >= 0 { ofStreet[Int(n)].append(k) }
        segmentsOfStreet = ofStreet
        segmentBoxes = sIdx.map { layers.lineBoxes[$0] }
        frontageRoad = sIdx.map { attrs.frontage[$0] }
        separatingRoad = sIdx.map { attrs.separating[$0] }
        segmentIndex = GridIndex(boxes: segmentBoxes)

        // Moved into memory the world owns: its queries read rings through plain pointers,
        // with no retain of an array per call.
        coords = .allocate(capacity: local.coords.count)
        _ = coords.initialize(fromContentsOf: local.coords)
        ringStarts = .allocate(capacity: local.ringStarts.count)
        _ = ringStarts.initialize(fromContentsOf: local.ringStarts)
        firstRing = .allocate(capacity: local.firstRing.count)
        _ = firstRing.initialize(fromContentsOf: local.firstRing)
    }

    deinit {
        coords.deallocate()
        ringStarts.deallocate()
        firstRing.deallocate()
    }

    func buildingID(_ b: Int) -> String { attrs.buildingIDs[bIdx[b]] }
    func buildingRank(_ b: Int) -> Int32 { attrs.buildingRank[bIdx[b]] }
    /// Candidates best first: the smaller cost, then the smaller building id.
    func sortByCost(_ c: inout [Candidate]) {
        c.sort { $0.cost != $1.cost ? $0.cost < $1.cost : buildingRank($0.building) < buildingRank($1.building) }
    }
    /// Every candidate but footprint `b`'s costs `cost` more; best first again.
    func favour(_ b: Int, in c: inout [Candidate], by cost: Double) {
        for k in c.indices where c[k].building != b { c[k].cost += cost }
        sortByCost(&c)
    }
    /// A garage, shed or the like: by its class, or by a footprint too small or too low for a home.
    func isOutbuilding(_ b: Int) -> Bool { attrs.outbuilding[bIdx[b]] || outbuildingByMeasure(b) }

    /// True when footprint `b`'s size (`smallFootprint`) or its measured height (`lowHeight`)
    /// says it is no home; its size not where it stands in a row and homes are scarce
    /// (`homesScarce`).
    func outbuildingByMeasure(_ b: Int) -> Bool {
        let w = options.weights
        return (areas[b] < w.smallFootprint && !homesScarce(b)) || Double(attrs.heights[bIdx[b]]) < w.lowHeight
    }

    /// What a footprint costs as an outbuilding: `outbuildingPenalty` when its tags say it is one,
    /// `smallFootprintPenalty` when only its size or height does, nothing for a home.
    func outbuildingCost(_ b: Int) -> Double {
        let w = options.weights
        return attrs.outbuilding[bIdx[b]] ? w.outbuildingPenalty : outbuildingByMeasure(b) ? w.smallFootprintPenalty : 0
    }

    /// The rings regrouped into parts of `partSizes` rings each.
    static func parts(of partSizes: [Int], rings: [[Coord]]) -> [PolygonCoords] {
        var out: [PolygonCoords] = [], k = 0
        for n in partSizes { out.append(PolygonCoords(rings: Array(rings[k..<(k + n)]))); k += n }
        return out
    }

    /// Number and street: two addresses with the same key (units of one number) are one
    /// household's. A number given with no street is read as one of the named road it stands by
    /// (`roadOfStreetless`): a house bears the number of the street it fronts, so beside that
    /// road's own numbers it is a second household, not a corner house's number of a cross street.
    func houseKey(_ a: Int) -> String {
        Self.houseKey(attrs.houseKeys[aIdx[a]], readOn: roadOfStreetless(a))
    }

    /// A house key as given (`FeatureAttributes.houseKeys`), for a number with no street read on
    /// the named road `road` (`roadOfStreetless`) that road's: "210|" → "210|carrer de sicilia".
    static func houseKey(_ given: String, readOn road: String?) -> String {
        road.map { given + $0 } ?? given
    }

    /// The street an address's number is read on, its house key's street part: its own, else
    /// the named road a number with no street stands by (`roadOfStreetless`), else "".
    func numberStreet(_ a: Int) -> String {
        streetKeys[a] ?? roadOfStreetless(a) ?? ""
    }

    /// The name key of the road an address with a number and no street stands by: the named
    /// road its street search fell back to (`streetAnchor`); nil for any other address.
    func roadOfStreetless(_ a: Int) -> String? {
        guard streetKeys[a] == nil, attrs.numbers[aIdx[a]] != nil, let anchor = streetAnchor(a) else { return nil }
        return segmentKeys[anchor.segment]
    }

    /// The house keys the COVERS addresses put on each footprint some pending address may take
    /// (the assignment's claims; the other footprints' do not matter to it).
    func coverClaims(_ covered: [(address: Int, building: Int)],
                     on pending: [(address: Int, scored: [Candidate])]) -> [Int: Set<String>] {
        var candidates = Set<Int>()
        for p in pending { for c in p.scored { candidates.insert(c.building) } }
        var claims: [Int: Set<String>] = [:]
        for (a, b) in covered where candidates.contains(b) { claims[b, default: []].insert(houseKey(a)) }
        return claims
    }

    /// Each pending address one footprint of which holds a covered point of its range's
    /// household (a range and a number within it on its street, one of them the address:
    /// `houseKey`, `FeatureAttributes.inRange`; not the same number given twice): every other
    /// candidate costs `cost` more, as a footprint holding another household's number does.
    func preferOwnHousehold(_ pending: inout [(address: Int, scored: [Candidate])],
                            covered: [(address: Int, building: Int)], cost: Double) {
        // Only a tile holding a number within a range has a range's household to read.
        guard cost > 0, !covered.isEmpty, pending.contains(where: { attrs.inRange[aIdx[$0.address]] })
            || covered.contains(where: { attrs.inRange[aIdx[$0.address]] }) else { return }
        // Covered points by household: the range's own, and its numbers'.
        var ranges: [String: Set<Int>] = [:], members: [String: Set<Int>] = [:]
        for (a, b) in covered {
            if attrs.inRange[aIdx[a]] { members[houseKey(a), default: []].insert(b) } else { ranges[houseKey(a), default: []].insert(b) }
        }
        for k in pending.indices {
            let a = pending[k].address, key = houseKey(a)
            let own = attrs.inRange[aIdx[a]] ? (ranges[key] ?? []).union(members[key] ?? []) : members[key] ?? []
            guard own.count == 1, let b = own.first,
                  pending[k].scored.contains(where: { $0.building == b }) else { continue }
            favour(b, in: &pending[k].scored, by: cost)
        }
    }

    /// True when the footprint's class names several dwellings (apartments, dormitory, the two
    /// halves of a semi-detached house, a terrace) or tenants (hotel, commercial, retail,
    /// office). `residential` names a use, not a count: mappers draw it on single houses, and it
    /// holds two numbers less often than `house` or no class at all (neubrandenburg-nodes: 18 of
    /// 515, against 78 of 646 and 1,042 of 5,822).
    static func multiUnitByClass(_ b: Building) -> Bool { b.buildingClass.map(multiUnitClasses.contains) ?? false }
    static let multiUnitClasses: Set<String> = ["apartments", "dormitory", "semidetached_house", "terrace", "hotel", "commercial", "retail", "office"]

    /// True when footprint `b` may hold several households: its class says so, or it covers
    /// `sharedFootprint` or more (a block of flats or a terrace drawn as one footprint).
    func mayHoldSeveral(_ b: Int) -> Bool {
        attrs.multiUnitClass[bIdx[b]] || areas[b] >= options.weights.sharedFootprint
    }

    /// Metres within which a point counts as on the footprint's edge: absorbs the round-off of
    /// projecting degrees to metres, far below any survey precision.
    static let coverTolerance = 1e-6

    /// Tier 1 (an exact planar test on the projected rings; each footprint is tested about
    /// once, so preparing GEOS geometries would cost more than it saves): the preferred
    /// footprint covering the point: a main building over an outbuilding, then the footprint
    /// whose middle (`middleGap`) stands nearest the point, then the smaller footprint, then the
    /// smaller id. A point given for a building stands in its middle: where two footprints
    /// overlap (a tower drawn over its podium, a block over the house it holds), the one it
    /// stands in the middle of. An open structure (a roof on posts) covers nothing.
    func coveringBuilding(_ a: Int) throws -> Int? {
        let p = points[a]
        // Most points have one footprint or none over them: the others are listed only when
        // there are more (an empty array makes no allocation).
        var first = -1, others: [Int] = []
        buildingIndex.forEach(meeting: BBox(around: p, radius: 0)) { b in
            guard !attrs.open[bIdx[b]], Planar.covers(rings(b), p, tolerance: LinkWorld.coverTolerance) else { return }
            if first < 0 { first = b } else { others.append(b) }
        }
        coverCount[a] = first < 0 ? 0 : 1 + others.count
        guard first >= 0 else { return nil }
        // The choice does not depend on the order the footprints come in.
        guard !others.isEmpty else { return first }
        var best = first, bestGap = try middleGap(best, p)
        for b in others {
            let gap = try middleGap(b, p)
            let ko = isOutbuilding(b), co = isOutbuilding(best)
            let better = ko != co ? !ko
                : gap != bestGap ? gap < bestGap
                : areas[b] != areas[best] ? areas[b] < areas[best]
                : buildingRank(b) < buildingRank(best)
            if better { best = b; bestGap = gap }
        }
        return best
    }

    /// How far the point of address `a`, covered by footprint `covering`, stands from the nearest
    /// other footprint it could belong to (not one covering it, nor a tagged outbuilding or an
    /// open structure), at most `limit` metres (`Linker.coverClearance` unless asked): what
    /// `Linker.coversConfidence` reads.
    func clearance(_ a: Int, covering: Int, limit: Double = Linker.coverClearance) -> Double {
        let p = points[a]
        var nearest = limit
        buildingIndex.forEach(meeting: BBox(around: p, radius: limit)) { b in
            // A box never stands farther than its outline: one as far as the nearest so far is passed.
            guard b != covering, !attrs.open[bIdx[b]], !attrs.outbuilding[bIdx[b]],
                  buildingBoxes[b].distance(to: p) < nearest else { return }
            let edge = Planar.nearestOnEdges(of: rings(b), to: p).distance
            if edge < nearest, !Planar.covers(rings(b), p, tolerance: LinkWorld.coverTolerance) { nearest = edge }
        }
        return nearest
    }

    /// The address's street anchor (see `streetAnchor`), worked out once: `anchorState[a]` is
    /// 0 before, 1 when none was found, 2 when `anchors[a]` holds it.
    private var anchors: [StreetAnchor] = []
    private var anchorState: [UInt8] = []
    /// The same for `placeOnStreet`.
    private var places: [StreetPlace] = []
    private var placeState: [UInt8] = []
    /// The same for `isSetOut`.
    var setOutState: [UInt8] = []

    /// Forgets where address `a` meets its street, after its point moved.
    func forgetPlace(_ a: Int) {
        if !neighbourCache.isEmpty { neighbourCache.removeAll() }
        if !anchorState.isEmpty { anchorState[a] = 0 }
        if !placeState.isEmpty { placeState[a] = 0 }
        if !setOutState.isEmpty { setOutState[a] = 0 }
    }

    /// Reads each of these points on their road's line at its place off the line
    /// (`placeLinePoints`), keeping the point as given.
    func readOffLine(_ moved: [(address: Int, to: Coord, evidence: Double)]) {
        guard !moved.isEmpty else { return }
        for (a, p, evidence) in moved {
            offLine[a] = OffLine(given: points[a], evidence: evidence)
            points[a] = p
            forgetPlace(a)
        }
        addressIndex = GridIndex(boxes: points.map { BBox(minX: $0.x, minY: $0.y, maxX: $0.x, maxY: $0.y) })
    }

    /// Where an address meets its street: the closest point on the address's street (a segment
    /// of that name within the street search radius), else on the nearest frontage road; nil
    /// when no road is near.
    func streetAnchor(_ a: Int) -> StreetAnchor? {
        if anchorState.isEmpty {
            anchorState = Array(repeating: 0, count: points.count)
            anchors = Array(repeating: StreetAnchor(point: Coord(0, 0), segment: -1, sub: -1, named: false), count: points.count)
        }
        switch anchorState[a] {
        case 1: return nil
        case 2: return anchors[a]
        default: break
        }
        // Most points stand within `firstRead` of their street: a segment of it found within that
        // distance is nearer than any the whole search would add (speed only, the same anchor).
        let r = options.streetSearchMeters
        guard let found = searchAnchor(a, within: min(r, Self.firstRead), namedOnly: true)
                ?? searchAnchor(a, within: r, namedOnly: false) else {
            anchorState[a] = 1
            return nil
        }
        anchors[a] = found
        anchorState[a] = 2
        return found
    }

    /// `streetAnchor`'s search within `radius` metres: the nearest segment of the address's street
    /// a house can front, else the nearest segment of its street (a footway of its name), else the
    /// nearest frontage road; with `namedOnly`, the first of these alone.
    private func searchAnchor(_ a: Int, within radius: Double, namedOnly: Bool) -> StreetAnchor? {
        let p = points[a], key = streetKeys[a]
        var named: (anchor: StreetAnchor, distance: Double)? = nil, any: (anchor: StreetAnchor, distance: Double)? = nil
        var namedPath: (anchor: StreetAnchor, distance: Double)? = nil
        for s in segmentIndex.query(BBox(around: p, radius: radius)) {
            let ofStreet = key != nil && segmentKeys[s] == key
            guard ofStreet ? frontageRoad[s] || !namedOnly : frontageRoad[s] && !namedOnly,
                  let c = Planar.closestOnLine(p, lines[s]), c.distance <= radius else { continue }
            // Ties (a point level with the joint of two segments) go by the segments' drawing,
            // not by their order in the input.
            func better(_ cur: (anchor: StreetAnchor, distance: Double)?) -> Bool {
                guard let cur else { return true }
                return c.distance != cur.distance ? c.distance < cur.distance : Planar.drawnBefore(lines[s], lines[cur.anchor.segment])
            }
            if ofStreet {
                let anchor = StreetAnchor(point: c.point, segment: s, sub: c.segment, named: true)
                if frontageRoad[s] {
                    if better(named) { named = (anchor, c.distance) }
                } else if better(namedPath) {
                    namedPath = (anchor, c.distance)
                }
            } else if better(any) {
                any = (StreetAnchor(point: c.point, segment: s, sub: c.segment, named: false), c.distance)
            }
        }
        return named?.anchor ?? namedPath?.anchor ?? any?.anchor
    }

    /// A road's line this near a footprint's wall (metres) runs along its front, not between it
    /// and a point: a carriageway's centreline stands at least half a lane's width from the
    /// houses on either side, so a line nearer is drawn on the fronts of a lane's houses, and a
    /// door point a metre out stands across it from its own house as often as not.
    static let laneHalfWidth = 2.0

    /// True when the straight line p→q crosses the centreline of a road that separates houses
    /// from the points across it (`separatesHouses`), where that line runs at least `clear`
    /// from q (`laneHalfWidth` for q on a footprint's wall).
    func crossesRoad(_ p: Coord, _ q: Coord, clear: Double = 0) throws -> Bool {
        let box = BBox(minX: min(p.x, q.x), minY: min(p.y, q.y), maxX: max(p.x, q.x), maxY: max(p.y, q.y))
        for s in segmentIndex.query(box) where separatingRoad[s] {
            let l = lines[s]
            for i in 0..<max(0, l.count - 1) where Planar.segmentsIntersect(p, q, l[i], l[i + 1])
                && Planar.length(Planar.sub(q, Planar.closestOnSegment(q, l[i], l[i + 1]).0)) >= clear { return true }
        }
        return false
    }

    /// Candidates within the search radius, scored, and at a piled street end those along the
    /// street's continuation too (`StreetEnd`); the best first. A point of a street with no line
    /// may read more once every address is scored (`readLostStreets`). A point set out from its
    /// house (`chargeSetOut`) reads no street end.
    func scoreCandidates(_ a: Int) throws -> [Candidate] {
        let near = try scoreNear(a)
        guard !near.contains(where: \.setOutBefore), let end = streetEnd(a), try isPiled(end, street: streetKeys[a]) else { return near }
        return try beyond(a, end, near)
    }

    /// How far `scoreNear` reads footprints at once (metres): past the best candidate plus
    /// `LinkWeights.reach` for most points, the rest read only when the scoring goes on. Speed
    /// only: the candidates and their order are the same at any value (`NearestFirst`).
    static let firstRead = 40.0

    /// The candidates within the search radius, the best first. A candidate's cost is at least
    /// its distance, so candidates farther than the best cost plus `LinkWeights.reach` can
    /// neither win nor be aligned, and are not scored.
    func scoreNear(_ a: Int) throws -> [Candidate] {
        let reach = options.weights.reach
        let p = points[a]
        var near = NearestFirst(buildingIndex, boxes: buildingBoxes, near: p, within: options.searchMeters, first: LinkWorld.firstRead)
        let measure = { (b: Int) in let m = self.measure(b, from: p); return (m.distance, m.nearest, self.buildingRank(b)) }
        var next = near.next(measure)
        guard next != nil else { return [] }
        let frame = try scoreFrame(a)
        var out: [Candidate] = []
        var bound = Double.infinity
        while let f = next, f.distance <= bound + reach {
            let b = f.building, d = f.distance
            let s = try terms(b, distance: d, nearest: f.nearest, in: frame, acrossBelow: bound + reach)
            bound = min(bound, s.total)
            out.append(Candidate(building: b, distance: d, cost: s.total, directional: s.facing, recess: s.recess, ray: s.ray))
            next = near.next(measure)
        }
        sortByCost(&out)
        if let home = out.first?.building {
            var charged = false
            for i in out.indices {
                out[i].annex = annexCost(out[i].building, home: home)
                out[i].cost += out[i].annex
                charged = charged || out[i].annex > 0
            }
            if charged { sortByCost(&out) }
        }
        chargeSetOut(a, &out)
        try dropOutlinesAround(&out)
        return out
    }

    /// Costs closer than this are one (metres): round-off.
    static let sameCost = 0.01
    /// A footprint with this share of its area inside another lies within it.
    static let withinShare = 0.99

    /// Drops from `out` (best first) each footprint that costs what a smaller candidate lying
    /// within it costs (`sameCost`, `withinShare`): the outline of a block or a complex drawn
    /// around a building mapped inside it, the point nearest the wall they share. The building
    /// inside is the address's, as among covering footprints the smaller is.
    func dropOutlinesAround(_ out: inout [Candidate]) throws {
        var outlines = Set<Int>()
        for i in out.indices {
            var j = i + 1
            while j < out.count, out[j].cost - out[i].cost <= Self.sameCost {
                let (small, large) = areas[out[i].building] < areas[out[j].building]
                    ? (out[i].building, out[j].building) : (out[j].building, out[i].building)
                if areas[small] < areas[large], !outlines.contains(large),
                   try geometry(small).intersection(geometry(large)).area() >= Self.withinShare * areas[small] {
                    outlines.insert(large)
                }
                j += 1
            }
        }
        if !outlines.isEmpty { out.removeAll { outlines.contains($0.building) } }
    }

    /// What footprint `b` costs an address as the garage or shed of `home`, the footprint the
    /// address scores best (`LinkWeights.annexShare`): `smallFootprintPenalty` when its tags are
    /// silent and it is smaller than `annexFootprint` and than `annexShare` of the home's area.
    /// A footprint under `smallFootprint` pays this as well: its size and the larger home it
    /// stands by are two signs. The home itself pays nothing, so it stays the best, and neither
    /// does a footprint in a row where homes are scarce (`homesScarce`).
    func annexCost(_ b: Int, home: Int) -> Double {
        let w = options.weights
        guard b != home, !attrs.outbuilding[bIdx[b]],
              areas[b] < min(w.annexFootprint, w.annexShare * areas[home]) else { return 0 }
        return homesScarce(b) ? 0 : w.smallFootprintPenalty
    }

    /// What the scoring reads at an address's point: the direction away from its street (nil
    /// without a street, or on the street's line), and where along the street its number
    /// should stand (`expectedAlongStreet`).
    struct ScoreFrame { var point: Coord; var away: Coord?; var expectedX: Double? }

    func scoreFrame(_ a: Int) throws -> ScoreFrame {
        let p = points[a]
        guard let anchor = streetAnchor(a)?.point else { return ScoreFrame(point: p) }
        let v = Planar.sub(p, anchor), len = Planar.length(v)
        guard len > LinkWorld.onLine else { return ScoreFrame(point: p) }
        let u = Coord(v.x / len, v.y / len)
        return ScoreFrame(point: p, away: u, expectedX: try expectedAlongStreet(a, away: u))
    }

    /// One footprint's cost, term by term (the README's step 2).
    struct ScoreTerms {
        /// The best ray's length plus its turn's cost; without a street, the distance; when no
        /// ray meets the footprint, the distance plus a right angle's turn.
        var ray: Double
        /// The best ray's turn (radians); nil when no ray met the footprint.
        var turn: Double? = nil
        /// The best ray ran away from the street (the point stands before the footprint).
        var facing = false
        var numberSpot = 0.0
        var outbuilding = 0.0
        var acrossRoad = 0.0
        /// See `Candidate.recess`.
        var recess = 0.0
        var total: Double { ray + numberSpot + outbuilding + acrossRoad }
    }

    /// The terms of footprint `b` at distance `d` (its spot nearest the point: `q`). The road
    /// between point and footprint is looked for only while the cost so far stays below
    /// `limit` (a candidate above it cannot matter).
    func terms(_ b: Int, distance d: Double, nearest q: Coord, in f: ScoreFrame, acrossBelow limit: Double) throws -> ScoreTerms {
        let w = options.weights, turnCost = w.turnCost, p = f.point
        var s = ScoreTerms(ray: d)
        if let dir = f.away {
            // Rays turned less than a right angle meet only what lies ahead of the point (away
            // from the street) or only what lies behind it: skip a side the footprint misses.
            let (lo, hi) = Planar.depthRange(of: rings(b), from: p, along: dir)
            let ahead = w.maxTurn >= Double.pi / 2 || hi > 0, behind = w.maxTurn >= Double.pi / 2 || lo < 0
            // The spot of the footprint nearest the point, when it lies beyond the point (the
            // point stands before it): how far back from the front (the least depth) it stands.
            let depth = Planar.dot(Planar.sub(q, p), dir)
            s.recess = depth > 0 ? max(0, depth - lo) : 0
            s.ray = d + turnCost * Double.pi / 2
            var turn = 0.0
            while turn <= w.maxTurn + 1e-9 {
                if d + turnCost * turn >= s.ray { break }
                for sign in turn == 0 ? [1.0] : [1.0, -1.0] {
                    let v = Planar.rotate(dir, radians: sign * turn)
                    if ahead, let t = Planar.rayHit(origin: p, dir: v, rings: rings(b), maxDistance: options.searchMeters),
                       t + turnCost * turn < s.ray {
                        s.ray = t + turnCost * turn; s.turn = sign * turn; s.facing = true
                    }
                    // The point behind the footprint, seen from the street (a parcel centroid,
                    // a back door): the ray toward the street.
                    let back = Coord(-v.x, -v.y)
                    if behind, let t = Planar.rayHit(origin: p, dir: back, rings: rings(b), maxDistance: options.searchMeters),
                       t + turnCost * turn + w.towardStreetCost < s.ray {
                        s.ray = t + turnCost * turn + w.towardStreetCost; s.turn = sign * turn; s.facing = false
                    }
                }
                turn += w.turnStep
            }
            if let expectedX = f.expectedX {
                // Along-street offset of the footprint's centre from the point (x along the street).
                let x = Planar.dot(Planar.sub(try centre(b), p), Coord(-dir.y, dir.x))
                s.numberSpot = w.numberOrderCost * min(abs(x - expectedX), w.numberOrderCap)
            }
        }
        s.outbuilding = outbuildingCost(b)
        if s.total < limit, d > 0, try crossesRoad(p, q, clear: Self.laneHalfWidth) { s.acrossRoad = w.acrossRoadPenalty }
        return s
    }

    /// Where along the street (metres from the point, x along the street's tangent with the
    /// street behind the point) the house number should stand, from the numbers of addresses
    /// of the same street on the same side within the house-number radius.
    func expectedAlongStreet(_ a: Int, away u: Coord) throws -> Double? {
        guard let key = streetKeys[a], let n = attrs.numbers[aIdx[a]] else { return nil }
        let p = points[a], r = options.weights.numberRadius
        let t = Coord(-u.y, u.x)
        var pairs: [(x: Double, n: Double)] = []
        for j in addressIndex.query(BBox(around: p, radius: r)) {
            guard streetKeys[j] == key, let nj = attrs.numbers[aIdx[j]] else { continue }
            let v = Planar.sub(points[j], p)
            // Same side: not across the street (the street lies behind p, at -u).
            guard Planar.dot(v, v) <= r * r, Planar.dot(v, u) > -8 else { continue }
            pairs.append((Planar.dot(v, t), nj))
        }
        // Numbers that do not run along the street here say nothing of where this one stands.
        guard let x = HouseNumbers.expectedPosition(of: n, among: pairs), options.weights.readsOrder(pairs) else { return nil }
        return x
    }

    /// True when a segment of address `a`'s street lies within the frontage distance of the
    /// building (planar distance between the projected outline and the centreline).
    func fronts(building b: Int, address a: Int) -> Bool {
        let street = addressStreetNumbers[a]
        guard street >= 0 else { return false }
        let box = buildingBoxes[b].expanded(by: options.frontageMeters)
        for s in segmentsOfStreet[Int(street)] where segmentBoxes[s].intersects(box) {
            if Planar.ringsNear(rings(b), lines[s], within: options.frontageMeters) { return true }
        }
        return false
    }

    /// Each segment's and each address's street key as a number, for `fronts`: the same number
    /// for the same key; -1 for no key, and for an address whose street no segment of the tile
    /// carries.
    static func streetNumbers(segments: [String?], addresses: [String?]) -> (segments: [Int32], addresses: [Int32]) {
        var numbers = TextNumbers()
        let bySegment = segments.map { key in key.map { numbers.number($0) } ?? -1 }
        return (bySegment, addresses.map { key in key.flatMap { numbers.existing($0) } ?? -1 })
    }

    /// The footprints within `r` metres of `p`, each with its distance and the point of its edges
    /// nearest `p`, in the index's order.
    func footprints(near p: Coord, within r: Double) -> [(building: Int, distance: Double, nearest: Coord)] {
        var found: [(building: Int, distance: Double, nearest: Coord)] = []
        for b in buildingIndex.query(BBox(around: p, radius: r)) {
            let m = measure(b, from: p)
            if m.distance <= r { found.append((b, m.distance, m.nearest)) }
        }
        return found
    }

    /// Footprint b's distance from p (0 when it covers p) and the spot of its edges nearest p.
    func measure(_ b: Int, from p: Coord) -> (distance: Double, nearest: Coord) {
        let edge = Planar.nearestOnEdges(of: rings(b), to: p)
        return (Planar.covers(rings(b), p, tolerance: 0) ? 0 : edge.distance, edge.point)
    }

    /// Up to `count` nearest footprints within `radius` metres, nearest first, ties by id.
    func nearestBuildings(_ a: Int, count: Int, within radius: Double) throws -> [NearbyBuilding] {
        var found = footprints(near: givenPoint(a), within: max(0, radius)).map {
            NearbyBuilding(buildingID: buildingID($0.building), distance: ($0.distance * 100).rounded() / 100)
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.buildingID < $1.buildingID }
        return Array(found.prefix(count))
    }
}

extension LinkWorld {
    /// Where the address's point lies along its own street's line (`StreetChains`): the chain,
    /// the metres along it (running on past its ends) and the signed offset (left positive);
    /// nil when the street is not near or has no name. Worked out once per address (the
    /// scoring, the street-end pile test and the face alignment all read it).
    func placeOnStreet(_ a: Int) -> StreetPlace? {
        if placeState.isEmpty {
            placeState = Array(repeating: 0, count: points.count)
            places = Array(repeating: StreetPlace(chain: -1, along: 0, offset: 0), count: points.count)
        }
        switch placeState[a] {
        case 1: return nil
        case 2: return places[a]
        default: break
        }
        guard let anchor = streetAnchor(a), anchor.named, let here = place(a, alongChainOf: anchor.segment) else {
            placeState[a] = 1
            return nil
        }
        places[a] = here
        placeState[a] = 2
        return here
    }

    /// Where the address's point lies along the line of the chain a segment belongs to; nil for
    /// a segment without a name (no chain).
    func place(_ a: Int, alongChainOf segment: Int) -> StreetPlace? {
        guard let s = streetChains.chainOf[segment], let here = Planar.locate(points[a], on: streetChains.lines[s]) else { return nil }
        return StreetPlace(chain: s, along: here.along, offset: here.offset)
    }
}

/// Where a point lies along a street's line (`LinkWorld.placeOnStreet`).
struct StreetPlace {
    var chain: Int
    /// Metres along the chain's line from its first point.
    var along: Double
    /// Metres off the line, left positive.
    var offset: Double
}

/// Where an address meets its street (`LinkWorld.streetAnchor`).
struct StreetAnchor {
    var point: Coord
    /// The segment (local index) it lies on, and the index of the piece of that segment's line.
    var segment: Int, sub: Int
    /// The segment carries the address's street name.
    var named: Bool
}

/// The affine map that carries three of a footprint's vertices from one plane to another: the
/// first vertex, the one farthest from it, and the one standing farthest off the line through
/// those two. Nil when the vertices all lie on one line.
struct AffineMap {
    let origin: Coord, target: Coord
    /// The map's matrix, by rows.
    let a: Double, b: Double, c: Double, d: Double

    init?<From: Collection, To: Collection>(from: From, to: To) where From.Element == Coord, To.Element == Coord,
        From.Index == Int, To.Index == Int {
        let f = Array(from), t = Array(to)
        guard f.count == t.count, let p0 = f.first else { return nil }
        var i = 0, far = 0.0
        for k in f.indices {
            let d = Planar.length(Planar.sub(f[k], p0))
            if d > far { far = d; i = k }
        }
        var j = 0, off = 0.0
        let u = Planar.sub(f[i], p0)
        for k in f.indices {
            let v = Planar.sub(f[k], p0), cross = abs(u.x * v.y - u.y * v.x)
            if cross > off { off = cross; j = k }
        }
        let v = Planar.sub(f[j], p0), det = u.x * v.y - u.y * v.x
        guard far > 0, det != 0 else { return nil }
        // Columns: where the map sends u and v; the matrix is those times the inverse of (u v).
        let mu = Planar.sub(t[i], t[0]), mv = Planar.sub(t[j], t[0])
        a = (mu.x * v.y - mv.x * u.y) / det
        b = (mv.x * u.x - mu.x * v.x) / det
        c = (mu.y * v.y - mv.y * u.y) / det
        d = (mv.y * u.x - mu.y * v.x) / det
        origin = p0; target = t[0]
    }

    func apply(_ p: Coord) -> Coord {
        let q = Planar.sub(p, origin)
        return Coord(target.x + a * q.x + b * q.y, target.y + c * q.x + d * q.y)
    }
}
