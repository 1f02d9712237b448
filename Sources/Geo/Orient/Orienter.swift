import Foundation

/// Finds the facing road of footprints and points: the nearest eligible segment within the
/// radius, preferring one whose normalised name equals the given street. Distances in metres
/// in a transverse Mercator around `origin`; one GEOS context, a grid index over the segments.
/// Confine it to one task.
public final class Orienter {
    public let options: OrientationOptions
    let context = GEOSContext()
    let projection: Projection
    /// Eligible segments only, with their projected lines, and each one's index in the
    /// segments given.
    let segments: [Segment]
    let sourceIndex: [Int32]
    /// Their lines in metres end to end (line `s` is `lineCoords[lineStarts[s]..<lineStarts[s + 1]]`),
    /// read in place: no reference counting per candidate.
    private let lineCoords: [Coord]
    private let lineStarts: [Int]
    private let lineGeoms: [Geometry]
    private let lineBoxes: [BBox]
    /// Each segment's normalised street name as a number (-1: none), and the numbers by name.
    private let keys: [Int32]
    private let keyNumbers: [String: Int32]
    /// Each segment's place in id order, for ties.
    private let idRank: [Int32]
    private let index: GridIndex

    /// How far the first look for the facing road reaches (metres): most houses face a road
    /// this close, and the full radius then need not be searched. (25 m against 40 m: x20
    /// `flyr orient` 7.90-7.92 s against 8.05-8.54 s in two alternated pairs, same output.)
    static let firstReach = 25.0

    public init(segments all: [Segment], origin: Coord, options: OrientationOptions = .init()) throws {
        self.options = options
        projection = try Projection.localMetric(around: origin)
        let kept = all.indices.filter { all[$0].segmentClass.map(options.roadClasses.contains) ?? false }
        let eligible = kept.map { all[$0] }
        segments = eligible
        sourceIndex = kept.map { Int32($0) }
        var flat = eligible.flatMap(\.line)
        try projection.forward(&flat)
        var starts = [0], geoms: [Geometry] = [], boxes: [BBox] = [], keys: [Int32] = [], numbers: [String: Int32] = [:]
        for s in eligible {
            let k = starts[starts.count - 1]
            let l = Array(flat[k..<(k + s.line.count)])
            starts.append(k + s.line.count)
            geoms.append(l.count == 1 ? try Geometry.point(context, l[0]) : try Geometry.lineString(context, l))
            boxes.append(BBox(covering: l))
            if let key = StreetName.normalize(s.name) {
                let n = numbers[key] ?? Int32(numbers.count)
                numbers[key] = n
                keys.append(n)
            } else {
                keys.append(-1)
            }
        }
        lineCoords = flat; lineStarts = starts; lineGeoms = geoms; lineBoxes = boxes
        self.keys = keys; keyNumbers = numbers
        idRank = IDOrder.ranks(eligible.map { $0.id })
        index = GridIndex(boxes: boxes)
    }

    /// The orientation of a footprint given in degrees; `street` (as written on the address)
    /// prefers a road of that name. Nil when no eligible road lies within the radius, or the
    /// footprint is empty after repair.
    public func orient(footprint parts: [PolygonCoords], street: String? = nil) throws -> Orientation? {
        guard let f = try projectedFootprint(parts) else { return nil }
        return try orient(f, street: StreetName.normalize(street))
    }

    /// The orientation of a point (degrees) standing for a house.
    public func orient(point: Coord, street: String? = nil) throws -> Orientation? {
        try orient(point: point, key: StreetName.normalize(street))
    }

    /// The same, with the street given as its normalised key.
    func orient(point: Coord, key: String?) throws -> Orientation? {
        try facing(point: point, key: key).map(orientation)
    }

    /// A footprint in metres: the rings of all its parts, their envelope, and its centre.
    struct Footprint {
        var rings: [[Coord]]
        var box: BBox
        var centre: Coord
    }

    /// The footprint in metres (repaired when invalid) and its centre (the centroid, or a
    /// point on the surface when the centroid falls outside); nil when empty.
    func projectedFootprint(_ parts: [PolygonCoords]) throws -> Footprint? {
        var flat = parts.flatMap { $0.rings.flatMap { $0 } }
        try projection.forward(&flat)
        var k = 0
        let projected = parts.map { p in
            PolygonCoords(rings: p.rings.map { r in defer { k += r.count }; return Array(flat[k..<(k + r.count)]) })
        }
        return try footprint(projected: projected)
    }

    /// The same for a building's footprint; `metres`, when given, holds its rings projected
    /// with this projection as building `at` (the common house, one ring, read in place).
    func projectedFootprint(_ f: Geo.Footprint, metres: FlatRings?, at b: Int) throws -> Footprint? {
        guard let metres, b >= 0 else { return try projectedFootprint(f.polygons) }
        if f.partCount == 1 && f.ringCount == 1 && metres.ringCount(b) == 1,
           let simple = try metres.withRings(b, { try simpleFootprint($0[0]) }) {
            return simple
        }
        return try footprint(projected: LinkWorld.parts(of: f.partSizes, rings: metres[b]))
    }

    /// The footprint of one simple ring (the common house): its centre found and tested with
    /// planar code (GEOS only for a ring without area or a centroid outside it); nil when the
    /// ring is not simple.
    private func simpleFootprint<Ring: CoordRing>(_ ring: Ring) throws -> Footprint? {
        guard Planar.isSimpleRing(ring) else { return nil }
        let rings = [Array(ring)]
        func polygon() throws -> Geometry { try Geometry.polygon(context, [PolygonCoords(rings: rings)]) }
        let c = try Orienter.shellCentroid(ring) ?? polygon().centroid().pointCoord()
        let centre = try Planar.covers(CollectionOfOne(ring), c, tolerance: 0) ? c : polygon().pointOnSurface().pointCoord()
        return Footprint(rings: rings, box: BBox(covering: ring), centre: centre)
    }

    /// The centroid of a simple ring (the common house), worked out as GEOS's `Centroid` does
    /// for a polygon shell, operation for operation (triangles fanned from the first vertex,
    /// twice their signed areas weighting three times their centroids), so the value is
    /// GEOS's to the bit without making a GEOS geometry; nil when the ring has no area.
    static func shellCentroid<Ring: CoordRing>(_ ring: Ring) -> Coord? {
        guard let p0 = ring.first else { return nil }
        var cx = 0.0, cy = 0.0, area2 = 0.0
        for i in 0..<(ring.count - 1) {
            let p1 = ring[i], p2 = ring[i + 1]
            let tx = p0.x + p1.x + p2.x, ty = p0.y + p1.y + p2.y
            let a2 = (p1.x - p0.x) * (p2.y - p0.y) - (p2.x - p0.x) * (p1.y - p0.y)
            // GEOS multiplies by ±1 for the ring's direction first; that sign cancels exactly.
            cx += a2 * tx; cy += a2 * ty; area2 += a2
        }
        guard abs(area2) > 0 else { return nil }
        return Coord(cx / 3 / area2, cy / 3 / area2)
    }

    /// A footprint already in metres, repaired when invalid, with its centre.
    private func footprint(projected: [PolygonCoords]) throws -> Footprint? {
        guard projected.contains(where: { $0.rings.contains { !$0.isEmpty } }) else { return nil }
        // One simple ring, the common house, with planar code; anything else goes through
        // GEOS (validity, repair, covers).
        if projected.count == 1 && projected[0].rings.count == 1, let simple = try simpleFootprint(projected[0].rings[0]) {
            return simple
        }
        var g = try Geometry.polygon(context, projected)
        if !g.isValid { g = try g.makeValid().polygonalPart() }
        guard !g.isEmpty else { return nil }
        let c = try g.centroid()
        let centre = try g.covers(c) ? c.pointCoord() : g.pointOnSurface().pointCoord()
        return Footprint(rings: g.polygons().flatMap(\.rings), box: g.envelope(), centre: centre)
    }

    func orient(_ f: Footprint, street key: String?) throws -> Orientation? {
        try facing(f, street: key).map(orientation)
    }

    /// The road faced, as `facing` finds it: the segment by its index here.
    struct Facing {
        var segment: Int
        var distance: Double
        var roadBearing: Double?, houseBearing: Double?
    }

    func orientation(_ f: Facing) -> Orientation {
        Orientation(segmentID: segments[f.segment].id, distance: f.distance, roadBearing: f.roadBearing, houseBearing: f.houseBearing)
    }

    func facing(_ f: Footprint, street key: String?) throws -> Facing? {
        try facing(rings: f.rings, box: f.box, point: nil, centre: f.centre, street: key)
    }

    func facing(point: Coord, key: String?) throws -> Facing? {
        let p = try projection.forward(point)
        let g = try Geometry.point(context, p)
        return try facing(rings: [], box: BBox(around: p, radius: 0), point: g, centre: p, street: key)
    }

    /// Core: footprint rings (or a point geometry when there are none), their envelope and
    /// centre in metres; `key` a normalised street name.
    private func facing(rings: [[Coord]], box: BBox, point: Geometry?, centre: Coord, street key: String?) throws -> Facing? {
        // The street as a segment name number; -2 when no segment has that name.
        let want: Int32? = key.map { keyNumbers[$0] ?? -2 }
        return try lineCoords.withUnsafeBufferPointer { flat -> Facing? in
            let starts = lineStarts, boxes = lineBoxes
            func line(_ s: Int) -> UnsafeBufferPointer<Coord> { UnsafeBufferPointer(rebasing: flat[starts[s]..<starts[s + 1]]) }
            // The rings read in place. A line whose envelope lies farther from the footprint's
            // than the bound is too (no need to look closer).
            func nearest<Rings: Sequence>(to rings: Rings) -> (Int, Double)? where Rings.Element == UnsafeBufferPointer<Coord> {
                self.nearest(box: box, want: want) { s, bound in
                    guard boxes[s].intersects(box.expanded(by: bound)) else { return nil }
                    return Planar.distance(rings: rings, ringsBox: box, line: line(s), maxDistance: bound)
                }
            }
            let found: (Int, Double)?
            if let point {
                // A point standing for a house.
                let geoms = lineGeoms
                found = try self.nearest(box: box, want: want) { s, bound in
                    let d = try point.distance(to: geoms[s])
                    return d <= bound ? d : nil
                }
            } else if rings.count == 1 {
                found = rings[0].withUnsafeBufferPointer { nearest(to: CollectionOfOne($0)) }
            } else {
                let all = rings.flatMap { $0 }
                found = all.withUnsafeBufferPointer { coords in
                    var views: [UnsafeBufferPointer<Coord>] = [], k = 0
                    for ring in rings { views.append(UnsafeBufferPointer(rebasing: coords[k..<(k + ring.count)])); k += ring.count }
                    return nearest(to: views)
                }
            }
            guard let (s, d) = found, let closest = Planar.closestOnLine(centre, line(s)) else { return nil }
            let q = closest.point
            let bearings: (road: Double?, house: Double?)
            switch options.method {
            case .projected: bearings = try projectedBearings(line(s), sub: closest.segment, q: q, centre: centre)
            case .geodesic: bearings = try geodesicBearings(s, line(s), sub: closest.segment, q: q, centre: centre)
            }
            return Facing(segment: s, distance: d, roadBearing: bearings.road, houseBearing: bearings.house)
        }
    }

    /// The facing road of a house whose envelope is `box`: the nearest eligible segment within
    /// the radius, one named `want` first (ties go by id); `measure(s, bound)` gives the
    /// distance to segment `s`, or nil when it is more than `bound`.
    private func nearest(box: BBox, want: Int32?, measure: (Int, Double) throws -> Double?) rethrows -> (Int, Double)? {
        let r = options.radiusMeters
        let keys = keys, idRank = idRank
        var any: (Int, Double)? = nil, named: (Int, Double)? = nil
        func better(_ s: Int, _ d: Double, than cur: (Int, Double)?) -> Bool {
            guard let cur else { return true }
            return d != cur.1 ? d < cur.1 : idRank[s] < idRank[cur.0]
        }
        // The roads near the house first, then, only when the answer could lie farther, all
        // within the radius. A road at distance d from the footprint meets its envelope grown
        // by d, so a winner found closer than the first reach (less a hair for rounding) has
        // no rival outside it: the answer is the one the full search gives.
        var round = min(r, Orienter.firstReach)
        while true {
            any = nil; named = nil
            // In any order: the winner does not depend on it (ties go by id).
            try index.forEach(meeting: box.expanded(by: round)) { s in
                // A segment is measured only as far as it could still win: a road of another
                // name is out once one of the street's name is found, and each is bounded by
                // the best it would have to beat (ties are kept: they go by id).
                // In the first round, nothing farther than its reach counts: if the winner is
                // nearer, it is the same; if not, the second round decides from scratch.
                let onStreet = want != nil && keys[s] == want
                if !onStreet && named != nil { return }
                let bound = onStreet ? (named?.1 ?? round) : (any?.1 ?? round)
                guard let d = try measure(s, bound) else { return }
                if better(s, d, than: any) { any = (s, d) }
                if onStreet, better(s, d, than: named) { named = (s, d) }
            }
            // Settled: the street's road found near, or no road of the street's name exists
            // (none asked, or none anywhere) and the nearest road is near.
            let sure = round * (1 - 1e-9) - 1e-6
            if let n = named, n.1 <= sure { break }
            if want == nil || want == -2, let a = any, a.1 <= sure { break }
            if round >= r { break }
            round = r
        }
        return named ?? any
    }

    /// The bearings at q on `line` (a segment's line in metres) and from the centre to q.
    private func projectedBearings(_ line: UnsafeBufferPointer<Coord>, sub i: Int, q: Coord, centre: Coord) throws -> (Double?, Double?) {
        var road: Double? = nil
        if let j = Planar.tangentSegment(line, near: i),
           let g = Bearing.grid(from: line[j], to: line[j + 1]) {
            road = Bearing.axial(g - (try projection.convergence(at: try projection.inverse(q))))
        }
        let house = try projection.trueBearing(from: centre, to: q)
        return (road, house)
    }

    private func geodesicBearings(_ s: Int, _ l: UnsafeBufferPointer<Coord>, sub i: Int, q: Coord, centre: Coord) throws -> (Double?, Double?) {
        var pair = [q, centre]
        try projection.inverse(&pair)
        let (qd, cd) = (pair[0], pair[1])
        var road: Double? = nil
        if let j = Planar.tangentSegment(l, near: i) {
            // Azimuth at q toward the farther end of its sub-segment; the axis is the same either way.
            let line = segments[s].line
            let far = Planar.length(Planar.sub(l[j], q)) > Planar.length(Planar.sub(l[j + 1], q)) ? line[j] : line[j + 1]
            road = Bearing.geodesic(from: qd, to: far).flatMap(Bearing.axial)
        }
        let house = centre == q ? nil : Bearing.geodesic(from: cd, to: qd)
        return (road, house)
    }
}
