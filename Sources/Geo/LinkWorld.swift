import Foundation

/// One tile's working set: its features projected to the local metric CRS, footprints as
/// (repaired) GEOS geometries, STRtrees over footprints and road segments. One GEOS context.
final class LinkWorld {
    let options: LinkerOptions
    let context = GEOSContext()
    /// Global indexes of this world's buildings, addresses and segments.
    let bIdx: [Int], aIdx: [Int], sIdx: [Int]
    let attrs: FeatureAttributes

    /// Projected footprint rings per building (all parts' rings together).
    var rings: [[[Coord]]] = []
    var footprints: [Geometry] = []
    var areas: [Double] = []
    let buildingIndex: SpatialIndex
    /// Footprints that were invalid and repaired with make-valid.
    var repairedFlags: [Bool]

    var points: [Coord] = []
    let addressIndex: SpatialIndex
    var buildingBoxes: [BBox] = []
    private var centreCache: [Int: Coord] = [:]

    /// A point on the footprint's surface: its centroid when that lies inside.
    func centre(_ b: Int) throws -> Coord {
        if let c = centreCache[b] { return c }
        let g = footprints[b], cg = try g.centroid()
        let c = try g.covers(cg) ? cg.pointCoord() : g.pointOnSurface().pointCoord()
        centreCache[b] = c
        return c
    }
    var streetKeys: [String?] = []
    var coverCount: [Int]
    var assigned: [Int?]
    var multiUnit: [Bool]

    var lines: [[Coord]] = []
    var segmentKeys: [String?] = []
    var frontageRoad: [Bool] = []
    let segmentIndex: SpatialIndex

    /// A world over one tile's features (global indexes), already projected.
    init(tile bIdx: [Int], _ aIdx: [Int], _ sIdx: [Int], buildings: [Building], layers: ProjectedLayers,
         attrs: FeatureAttributes, options: LinkerOptions) throws {
        self.options = options
        self.bIdx = bIdx; self.aIdx = aIdx; self.sIdx = sIdx
        self.attrs = attrs
        coverCount = Array(repeating: 0, count: aIdx.count)
        assigned = Array(repeating: nil, count: aIdx.count)
        multiUnit = Array(repeating: false, count: bIdx.count)
        repairedFlags = Array(repeating: false, count: bIdx.count)

        rings.reserveCapacity(bIdx.count)
        buildingIndex = try SpatialIndex(context)
        for (i, global) in bIdx.enumerated() {
            var all = layers.rings[global]
            let parts = buildings[global].polygons
            var g = try Geometry.polygon(context, LinkWorld.parts(of: parts, rings: all))
            let simple = all.count == 1 && parts.count == 1 && Planar.isSimpleRing(all[0])
            if !simple && !g.isValid {
                g = try g.makeValid().polygonalPart()
                repairedFlags[i] = true
                all = g.polygons().flatMap(\.rings)
            }
            rings.append(all)
            footprints.append(g)
            areas.append(simple ? abs(Planar.ringArea(all[0])) : try g.area())
            buildingBoxes.append(simple ? layers.boxes[global] : BBox(covering: all.lazy.flatMap { $0 }))
            buildingIndex.insert(i, geometry: g)
        }

        points = aIdx.map { layers.points[$0] }
        addressIndex = try SpatialIndex(context)
        for (i, q) in points.enumerated() { addressIndex.insert(i, geometry: try Geometry.point(context, q)) }
        streetKeys = aIdx.map { attrs.streetKeys[$0] }

        segmentIndex = try SpatialIndex(context)
        lines = sIdx.map { layers.lines[$0] }
        segmentKeys = sIdx.map { attrs.segmentKeys[$0] }
        frontageRoad = sIdx.map { attrs.frontage[$0] }
        for (i, global) in sIdx.enumerated() { try segmentIndex.insert(i, layers.lineBoxes[global]) }
    }

    func buildingID(_ b: Int) -> String { attrs.buildingIDs[bIdx[b]] }
    func addressID(_ a: Int) -> String { attrs.addressIDs[aIdx[a]] }
    func buildingRank(_ b: Int) -> Int32 { attrs.buildingRank[bIdx[b]] }
    func isOutbuilding(_ b: Int) -> Bool { attrs.outbuilding[bIdx[b]] }

    /// The projected rings regrouped into the building's parts.
    static func parts(of polygons: [PolygonCoords], rings: [[Coord]]) -> [PolygonCoords] {
        var out: [PolygonCoords] = [], k = 0
        for p in polygons { out.append(PolygonCoords(rings: Array(rings[k..<(k + p.rings.count)]))); k += p.rings.count }
        return out
    }

    /// Roads a house can front: not paths, footways, steps, cycleways, motorways or links.
    static func isFrontageRoad(_ s: Segment) -> Bool {
        if let sub = s.subtype, sub != "road" { return false }
        if s.subclass == "link" { return false }
        switch s.segmentClass {
        case "footway", "path", "steps", "cycleway", "bridleway", "motorway", "sidewalk", "crosswalk": return false
        default: return true
        }
    }


    /// Number and unit: two addresses with the same key are one household's.
    func houseKey(_ a: Int) -> String {
        attrs.houseKeys[aIdx[a]]
    }

    static func multiUnitByClass(_ b: Building) -> Bool {
        guard let c = b.buildingClass else { return false }
        return ["apartments", "dormitory", "residential", "hotel", "terrace", "commercial", "retail", "office"].contains(c)
    }

    /// Metres within which a point counts as on the footprint's edge: absorbs the round-off of
    /// projecting degrees to metres, far below any survey precision.
    static let coverTolerance = 1e-6

    /// Tier 1 (an exact planar test on the projected rings; each footprint is tested about
    /// once, so preparing GEOS geometries would cost more than it saves): the preferred footprint covering the point: main building over outbuilding,
    /// then the smaller footprint, then the smaller id.
    func coveringBuilding(_ a: Int) throws -> Int? {
        let p = points[a]
        var best: Int? = nil
        var n = 0
        for b in try buildingIndex.query(BBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) {
            guard Planar.covers(rings[b], p, tolerance: LinkWorld.coverTolerance) else { continue }
            n += 1
            guard let cur = best else { best = b; continue }
            let ko = isOutbuilding(b), co = isOutbuilding(cur)
            if ko != co { if !ko { best = b }; continue }
            if areas[b] != areas[cur] { if areas[b] < areas[cur] { best = b }; continue }
            if buildingRank(b) < buildingRank(cur) { best = b }
        }
        coverCount[a] = n
        return best
    }

    /// The closest point on the address's street (a segment of that name within the street
    /// search radius), else on the nearest frontage road; nil when none is near.
    func streetAnchor(_ a: Int) throws -> Coord? {
        let p = points[a], r = options.streetSearchMeters
        let near = try segmentIndex.query(BBox(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r))
        var named: (Coord, Double)? = nil, any: (Coord, Double)? = nil
        for s in near {
            guard let c = Planar.closestOnLine(p, lines[s]), c.distance <= r else { continue }
            if let key = streetKeys[a], segmentKeys[s] == key {
                if named == nil || c.distance < named!.1 { named = (c.point, c.distance) }
            } else if frontageRoad[s] {
                if any == nil || c.distance < any!.1 { any = (c.point, c.distance) }
            }
        }
        return named?.0 ?? any?.0
    }

    /// True when the straight line p→q crosses a frontage road's centreline.
    func crossesRoad(_ p: Coord, _ q: Coord) throws -> Bool {
        let box = BBox(minX: min(p.x, q.x), minY: min(p.y, q.y), maxX: max(p.x, q.x), maxY: max(p.y, q.y))
        for s in try segmentIndex.query(box) where frontageRoad[s] {
            let l = lines[s]
            for i in 0..<max(0, l.count - 1) where Planar.segmentsIntersect(p, q, l[i], l[i + 1]) { return true }
        }
        return false
    }

    /// Candidates within the search radius, scored; the best first. Only candidates that
    /// could still win after an occupancy penalty are scored in full.
    func scoreCandidates(_ a: Int, coverNumbers: [Set<String>]) throws -> [Candidate] {
        let turnCost = Linker.turnCost
        let p = points[a], r = options.searchMeters
        var near: [(Int, Double)] = []
        for b in try buildingIndex.query(BBox(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r)) {
            let d = Planar.distance(from: p, toRings: rings[b])
            if d <= r { near.append((b, d)) }
        }
        guard !near.isEmpty else { return [] }
        near.sort { $0.1 != $1.1 ? $0.1 < $1.1 : buildingRank($0.0) < buildingRank($1.0) }

        var dir: Coord? = nil
        var expectedX: Double? = nil
        if let anchor = try streetAnchor(a) {
            let v = Planar.sub(p, anchor), len = Planar.length(v)
            if len > 0.5 {
                let u = Coord(v.x / len, v.y / len)
                dir = u
                expectedX = try expectedAlongStreet(a, away: u)
            }
        }
        let key = houseKey(a)
        var out: [Candidate] = []
        var bound = Double.infinity
        for (b, d) in near {
            if d > bound + Linker.occupiedPenalty { break }
            var cost = d
            if let dir {
                var best = d + turnCost * Double.pi / 2
                var turn = 0.0
                while turn <= Linker.maxTurn + 1e-9 {
                    if d + turnCost * turn >= best { break }
                    for sign in turn == 0 ? [1.0] : [1.0, -1.0] {
                        let v = Planar.rotate(dir, radians: sign * turn)
                        if let t = Planar.rayHit(origin: p, dir: v, rings: rings[b], maxDistance: r) {
                            best = min(best, t + turnCost * turn)
                        }
                    }
                    turn += Linker.turnStep
                }
                cost = best
            }
            if let dir, let expectedX {
                // Along-street offset of the footprint's centre from the point (x along the street).
                let t = Coord(-dir.y, dir.x)
                let c = try centre(b)
                let x = Planar.dot(Planar.sub(c, p), t)
                cost += Linker.numberOrderCost * min(abs(x - expectedX), Linker.numberOrderCap)
            }
            if isOutbuilding(b) { cost += Linker.outbuildingPenalty }
            if !multiUnit[b], !coverNumbers[b].isEmpty, !coverNumbers[b].contains(key) { cost += Linker.occupiedPenalty }
            if cost < bound + Linker.occupiedPenalty, d > 0 {
                let q = Planar.closestPoint(on: rings[b], to: p)
                if try crossesRoad(p, q) { cost += Linker.acrossRoadPenalty }
            }
            bound = min(bound, cost)
            out.append(Candidate(building: b, distance: d, cost: cost, directional: dir != nil))
        }
        out.sort { $0.cost != $1.cost ? $0.cost < $1.cost : buildingRank($0.building) < buildingRank($1.building) }
        return out
    }

    /// Where along the street (metres from the point, x along the street's tangent with the
    /// street behind the point) the house number should stand, from the numbers of addresses
    /// of the same street on the same side within the house-number radius.
    func expectedAlongStreet(_ a: Int, away u: Coord) throws -> Double? {
        guard let key = streetKeys[a], let n = attrs.numbers[aIdx[a]] else { return nil }
        let p = points[a], r = Linker.numberRadius
        let t = Coord(-u.y, u.x)
        var pairs: [(x: Double, n: Double)] = []
        for j in try addressIndex.query(BBox(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r)) {
            guard streetKeys[j] == key, let nj = attrs.numbers[aIdx[j]] else { continue }
            let v = Planar.sub(points[j], p)
            // Same side: not across the street (the street lies behind p, at -u).
            guard Planar.dot(v, v) <= r * r, Planar.dot(v, u) > -8 else { continue }
            pairs.append((Planar.dot(v, t), nj))
        }
        return HouseNumbers.expectedPosition(of: n, among: pairs)
    }

    /// True when a segment named like `street` lies within the frontage distance of the
    /// building (planar distance between the projected outline and the centreline).
    func fronts(building b: Int, street: String?) throws -> Bool {
        guard let street else { return false }
        let box = buildingBoxes[b].expanded(by: options.frontageMeters)
        for s in try segmentIndex.query(box) where segmentKeys[s] == street {
            if Planar.ringsNear(rings[b], lines[s], within: options.frontageMeters) { return true }
        }
        return false
    }

    /// Up to `count` nearest footprints within `radius` metres, nearest first, ties by id.
    func nearestBuildings(_ a: Int, count: Int, within radius: Double) throws -> [NearbyBuilding] {
        let p = points[a], r = max(0, radius)
        var found: [NearbyBuilding] = []
        for b in try buildingIndex.query(BBox(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r)) {
            let d = Planar.distance(from: p, toRings: rings[b])
            if d <= r { found.append(NearbyBuilding(buildingID: buildingID(b), distance: (d * 100).rounded() / 100)) }
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.buildingID < $1.buildingID }
        return Array(found.prefix(count))
    }
}
