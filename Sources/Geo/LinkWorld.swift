import Foundation

/// The linker's working set: every feature projected to a local metric CRS, footprints as
/// (repaired) GEOS geometries, STRtrees over footprints and road segments. One GEOS context.
final class LinkWorld {
    let options: LinkerOptions
    let context = GEOSContext()
    let buildings: [Building]
    let addresses: [Address]
    let segments: [Segment]

    /// Projected footprint rings per building (all parts' rings together).
    var rings: [[[Coord]]] = []
    var footprints: [Geometry] = []
    private var prepared: [PreparedGeometry?]
    var areas: [Double] = []
    let buildingIndex: SpatialIndex
    var repaired = 0

    var points: [Coord] = []
    let addressIndex: SpatialIndex
    /// A point on each footprint's surface (its centroid when that lies inside).
    var centres: [Coord] = []
    var streetKeys: [String?] = []
    var coverCount: [Int]
    var assigned: [Int?]
    var multiUnit: [Bool]

    var lines: [[Coord]] = []
    var lineGeoms: [Geometry?]
    var segmentKeys: [String?] = []
    var frontageRoad: [Bool] = []
    let segmentIndex: SpatialIndex

    init(buildings: [Building], addresses: [Address], segments: [Segment], options: LinkerOptions) throws {
        self.options = options
        self.buildings = buildings
        self.addresses = addresses
        self.segments = segments
        prepared = Array(repeating: nil, count: buildings.count)
        coverCount = Array(repeating: 0, count: addresses.count)
        assigned = Array(repeating: nil, count: addresses.count)
        multiUnit = Array(repeating: false, count: buildings.count)
        lineGeoms = Array(repeating: nil, count: segments.count)

        var extent = BBox.empty
        for b in buildings { extent.expand(b.bbox) }
        for a in addresses { extent.expand(a.point) }
        let origin = extent.isEmpty ? Coord(0, 0) : Coord((extent.minX + extent.maxX) / 2, (extent.minY + extent.maxY) / 2)
        let projection = try Projection.localMetric(around: origin)

        // Project every coordinate of a layer in one PROJ call.
        var flat: [Coord] = []
        for b in buildings { for p in b.polygons { for r in p.rings { flat.append(contentsOf: r) } } }
        try projection.forward(&flat)
        var k = 0
        rings.reserveCapacity(buildings.count)
        buildingIndex = try SpatialIndex(context)
        for (i, b) in buildings.enumerated() {
            var parts: [PolygonCoords] = []
            var all: [[Coord]] = []
            for p in b.polygons {
                var pr: [[Coord]] = []
                for r in p.rings { pr.append(Array(flat[k..<(k + r.count)])); k += r.count }
                parts.append(PolygonCoords(rings: pr))
                all.append(contentsOf: pr)
            }
            rings.append(all)
            var g = try Geometry.polygon(context, parts)
            if !g.isValid {
                g = try g.makeValid().polygonalPart()
                repaired += 1
            }
            footprints.append(g)
            let cg = try g.centroid()
            centres.append(try g.covers(cg) ? cg.pointCoord() : g.pointOnSurface().pointCoord())
            areas.append(try g.area())
            try buildingIndex.insert(i, BBox(covering: all.lazy.flatMap { $0 }))
        }

        points = addresses.map(\.point)
        try projection.forward(&points)
        addressIndex = try SpatialIndex(context)
        for (i, q) in points.enumerated() { try addressIndex.insert(i, BBox(minX: q.x, minY: q.y, maxX: q.x, maxY: q.y)) }
        streetKeys = addresses.map { StreetName.normalize($0.street) }

        flat = segments.flatMap(\.line)
        try projection.forward(&flat)
        k = 0
        segmentIndex = try SpatialIndex(context)
        for (i, s) in segments.enumerated() {
            let l = Array(flat[k..<(k + s.line.count)]); k += s.line.count
            lines.append(l)
            segmentKeys.append(StreetName.normalize(s.name))
            frontageRoad.append(LinkWorld.isFrontageRoad(s))
            try segmentIndex.insert(i, BBox(covering: l))
        }
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

    func preparedFootprint(_ b: Int) throws -> PreparedGeometry {
        if let p = prepared[b] { return p }
        let p = try PreparedGeometry(footprints[b])
        prepared[b] = p
        return p
    }

    /// Number and unit: two addresses with the same key are one household's.
    func houseKey(_ a: Int) -> String {
        "\(addresses[a].number ?? "")|\(addresses[a].unit ?? "")|\(streetKeys[a] ?? "")"
    }

    func multiUnitByClass(_ b: Int) -> Bool {
        guard let c = buildings[b].buildingClass else { return false }
        return ["apartments", "dormitory", "residential", "hotel", "terrace", "commercial", "retail", "office"].contains(c)
    }

    /// Metres within which a point counts as on the footprint's edge: absorbs the round-off of
    /// projecting degrees to metres, far below any survey precision.
    static let coverTolerance = 1e-6

    /// Tier 1: the preferred footprint covering the point: main building over outbuilding,
    /// then the smaller footprint, then the smaller id.
    func coveringBuilding(_ a: Int) throws -> Int? {
        let p = points[a]
        let pt = try Geometry.point(context, p)
        var best: Int? = nil
        var n = 0
        for b in try buildingIndex.query(BBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)) {
            let fp = try preparedFootprint(b)
            guard try fp.covers(pt) || fp.distance(to: pt) <= LinkWorld.coverTolerance else { continue }
            n += 1
            guard let cur = best else { best = b; continue }
            let ko = buildings[b].isOutbuilding, co = buildings[cur].isOutbuilding
            if ko != co { if !ko { best = b }; continue }
            if areas[b] != areas[cur] { if areas[b] < areas[cur] { best = b }; continue }
            if buildings[b].id < buildings[cur].id { best = b }
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
        let pt = try Geometry.point(context, p)
        var near: [(Int, Double)] = []
        for b in try buildingIndex.query(BBox(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r)) {
            let d = try preparedFootprint(b).distance(to: pt)
            if d <= r { near.append((b, d)) }
        }
        guard !near.isEmpty else { return [] }
        near.sort { $0.1 != $1.1 ? $0.1 < $1.1 : buildings[$0.0].id < buildings[$1.0].id }

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
                let c = centres[b]
                let x = Planar.dot(Planar.sub(c, p), t)
                cost += Linker.numberOrderCost * min(abs(x - expectedX), Linker.numberOrderCap)
            }
            if buildings[b].isOutbuilding { cost += Linker.outbuildingPenalty }
            if !multiUnit[b], !coverNumbers[b].isEmpty, !coverNumbers[b].contains(key) { cost += Linker.occupiedPenalty }
            if cost < bound + Linker.occupiedPenalty, d > 0 {
                let (_, q) = try pt.nearestPoints(to: footprints[b])
                if try crossesRoad(p, q) { cost += Linker.acrossRoadPenalty }
            }
            bound = min(bound, cost)
            out.append(Candidate(building: b, distance: d, cost: cost, directional: dir != nil))
        }
        out.sort { $0.cost != $1.cost ? $0.cost < $1.cost : buildings[$0.building].id < buildings[$1.building].id }
        return out
    }

    /// Where along the street (metres from the point, x along the street's tangent with the
    /// street behind the point) the house number should stand, from the numbers of addresses
    /// of the same street on the same side within the house-number radius.
    func expectedAlongStreet(_ a: Int, away u: Coord) throws -> Double? {
        guard let key = streetKeys[a], let n = HouseNumbers.value(addresses[a].number) else { return nil }
        let p = points[a], r = Linker.numberRadius
        let t = Coord(-u.y, u.x)
        var pairs: [(x: Double, n: Double)] = []
        for j in try addressIndex.query(BBox(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r)) {
            guard streetKeys[j] == key, let nj = HouseNumbers.value(addresses[j].number) else { continue }
            let v = Planar.sub(points[j], p)
            // Same side: not across the street (the street lies behind p, at -u).
            guard Planar.dot(v, v) <= r * r, Planar.dot(v, u) > -8 else { continue }
            pairs.append((Planar.dot(v, t), nj))
        }
        return HouseNumbers.expectedPosition(of: n, among: pairs)
    }

    /// True when a segment named like `street` lies within the frontage distance of the building.
    func fronts(building b: Int, street: String?) throws -> Bool {
        guard let street else { return false }
        let box = BBox(covering: rings[b].lazy.flatMap { $0 }).expanded(by: options.frontageMeters)
        for s in try segmentIndex.query(box) where segmentKeys[s] == street {
            if lineGeoms[s] == nil { lineGeoms[s] = try Geometry.lineString(context, lines[s]) }
            if try preparedFootprint(b).distance(to: lineGeoms[s]!) <= options.frontageMeters { return true }
        }
        return false
    }

    /// The `count` nearest footprints at any distance (searching outward up to 5 km).
    func nearestBuildings(_ a: Int, count: Int) throws -> [NearbyBuilding] {
        let p = points[a]
        let pt = try Geometry.point(context, p)
        var r = options.searchMeters * 2
        while true {
            var found: [NearbyBuilding] = []
            for b in try buildingIndex.query(BBox(minX: p.x - r, minY: p.y - r, maxX: p.x + r, maxY: p.y + r)) {
                let d = try preparedFootprint(b).distance(to: pt)
                if d <= r { found.append(NearbyBuilding(buildingID: buildings[b].id, distance: (d * 100).rounded() / 100)) }
            }
            if found.count >= count || r >= 5000 {
                found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.buildingID < $1.buildingID }
                return Array(found.prefix(count))
            }
            r *= 2
        }
    }
}
