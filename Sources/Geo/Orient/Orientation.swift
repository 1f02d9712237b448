import Foundation

/// How bearings are measured against true north.
public enum BearingMethod: String, Sendable, CaseIterable {
    /// Geodesic azimuths on WGS84 (PROJ's geodesic routines) between lon/lat points.
    case geodesic
    /// Grid azimuths in the local transverse Mercator, corrected for meridian convergence.
    case projected
}

public struct OrientationOptions: Sendable {
    /// Road classes a house may face by default (service, footway, motorway and links are not).
    public static let defaultRoadClasses: Set<String> = [
        "primary", "secondary", "tertiary", "residential", "living_street", "unclassified",
    ]
    /// Segment `class` values eligible as the facing road. A segment without a class never is.
    public var roadClasses = OrientationOptions.defaultRoadClasses
    /// The facing road lies within this many metres of the footprint.
    public var radiusMeters = 100.0
    public var method = BearingMethod.geodesic
    public init() {}
}

/// The road a house faces, and which way.
public struct Orientation: Sendable, Equatable {
    public var segmentID: String
    /// Metres from the footprint to the road (0 when they touch).
    public var distance: Double
    /// Axis of the road's sub-segment at the closest point: degrees clockwise from true north,
    /// in [0, 180). Nil when the whole road has no length.
    public var roadBearing: Double?
    /// From the footprint's centre (centroid, or a point on its surface when the centroid
    /// falls outside) to the closest point of the road: degrees clockwise from true north in
    /// [0, 360). Nil when the centre lies on the road.
    public var houseBearing: Double?
}

/// One address's row of `flyr orient`. Not oriented (nil) when no eligible road lies within
/// the radius; bearings are then absent, never 0.
public struct AddressOrientation: Sendable, Equatable {
    public var addressID: String
    /// The building the linker chose; nil when it linked none (the point stands in for it).
    public var buildingID: String?
    public var orientation: Orientation?
    public var isOriented: Bool { orientation != nil }
}

/// The roads addresses face, compact (no texts): row k for the k-th address oriented in id
/// order, as `Orienter.orientAddressFacings` gives them.
public struct AddressFacings: Sendable, Equatable {
    /// The address's index in the addresses oriented.
    public var address: [Int32]
    /// The segment faced: its index in the segments given; -1 when the address is not oriented.
    public var segment: [Int32]
    /// As in `Orientation`; NaN when there is none.
    public var roadBearing: [Double], houseBearing: [Double]

    /// `count` rows, none oriented.
    public init(count: Int) {
        address = [Int32](repeating: -1, count: count)
        segment = [Int32](repeating: -1, count: count)
        roadBearing = [Double](repeating: .nan, count: count)
        houseBearing = roadBearing
    }

    public var count: Int { address.count }

    public static func == (a: AddressFacings, b: AddressFacings) -> Bool {
        func same(_ x: [Double], _ y: [Double]) -> Bool { x.map(\.bitPattern) == y.map(\.bitPattern) }
        return a.address == b.address && a.segment == b.segment && same(a.roadBearing, b.roadBearing)
            && same(a.houseBearing, b.houseBearing)
    }
}

public struct BuildingOrientation: Sendable, Equatable {
    public var buildingID: String
    public var orientation: Orientation?
    public var isOriented: Bool { orientation != nil }
}

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
        return try facing(rings: [], box: BBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y), point: g, centre: p, street: key)
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
            func nearest<Rings: Sequence>(to rings: Rings) throws -> (Int, Double)? where Rings.Element == UnsafeBufferPointer<Coord> {
                try self.nearest(box: box, want: want) { s, bound in
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
                found = try rings[0].withUnsafeBufferPointer { try nearest(to: CollectionOfOne($0)) }
            } else {
                let all = rings.flatMap { $0 }
                found = try all.withUnsafeBufferPointer { coords in
                    var views: [UnsafeBufferPointer<Coord>] = [], k = 0
                    for ring in rings { views.append(UnsafeBufferPointer(rebasing: coords[k..<(k + ring.count)])); k += ring.count }
                    return try nearest(to: views)
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

    /// The sub-segment of a line nearest to index `i` that has a length (itself first); nil
    /// when every vertex is the same point.
    static func tangentSegment<Line: CoordRing>(_ line: Line, near i: Int) -> Int? {
        guard line.count > 1 else { return nil }
        let n = line.count - 1
        for step in 0..<n {
            for j in [i + step, i - step] where j >= 0 && j < n && line[j] != line[j + 1] { return j }
        }
        return nil
    }

    /// The bearings at q on `line` (a segment's line in metres) and from the centre to q.
    private func projectedBearings(_ line: UnsafeBufferPointer<Coord>, sub i: Int, q: Coord, centre: Coord) throws -> (Double?, Double?) {
        var road: Double? = nil
        if let j = Orienter.tangentSegment(line, near: i),
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
        if let j = Orienter.tangentSegment(l, near: i) {
            // Azimuth at q toward the farther end of its sub-segment; the axis is the same either way.
            let line = segments[s].line
            let far = Planar.length(Planar.sub(l[j], q)) > Planar.length(Planar.sub(l[j + 1], q)) ? line[j] : line[j + 1]
            road = Bearing.geodesic(from: qd, to: far).flatMap(Bearing.axial)
        }
        let house = centre == q ? nil : Bearing.geodesic(from: cd, to: qd)
        return (road, house)
    }
}

extension Orienter {
    /// Links the addresses (the Stable Linker), then orients each from its building's
    /// footprint, preferring a road named like its street; an address linked to no building
    /// is oriented from its own point. One row per address, sorted by address id.
    public static func orientAddresses(buildings: [Building], addresses: [Address], segments: [Segment],
                                       options: OrientationOptions = .init(),
                                       linker: LinkerOptions = .init()) throws -> [AddressOrientation] {
        var linker = linker
        linker.keepsProjectedFootprints = true
        let links = try Linker(options: linker).link(buildings: buildings, addresses: addresses, segments: segments)
        return try orientAddresses(buildings: buildings, addresses: addresses, segments: segments, links: links, options: options)
    }

    /// Orients each address from the building `links` gives it (see above), without linking
    /// again. Addresses are split into fixed chunks oriented in parallel, each by its own
    /// `Orienter` (its own GEOS context); the rows do not depend on the number of workers.
    public static func orientAddresses(buildings: [Building], addresses: [Address], segments: [Segment],
                                       links: LinkResult, options: OrientationOptions = .init(),
                                       workers: Int? = nil) throws -> [AddressOrientation] {
        let (order, linked) = linkedInOrder(buildings, addresses, links)
        var rows = order.indices.map { k in
            AddressOrientation(addressID: addresses[order[k]].id,
                               buildingID: linked[k].link >= 0 ? links.links[Int(linked[k].link)].buildingID : nil, orientation: nil)
        }
        try rows.withUnsafeMutableBufferPointer { out in
            let out = SharedSlots(out)
            try orientEach(buildings: buildings, addresses: addresses, segments: segments, links: links, order: order,
                           linked: linked, options: options, workers: workers) { k, facing, orienter in
                out.buffer[k].orientation = facing.map(orienter.orientation)
            }
        }
        return rows
    }

    /// The same, kept compact (a few numbers an address, no texts): what a provision writes.
    /// `niceness` above 0 runs the workers at that lower priority (see `runWorkers`): a
    /// provision orients beside its writer, which must not wait for a core.
    public static func orientAddressFacings(buildings: [Building], addresses: [Address], segments: [Segment],
                                            links: LinkResult, options: OrientationOptions = .init(),
                                            workers: Int? = nil, niceness: Int32 = 0) throws -> AddressFacings {
        let (order, linked) = linkedInOrder(buildings, addresses, links)
        var out = AddressFacings(count: order.count)
        out.address = order.map { Int32($0) }
        try out.segment.withUnsafeMutableBufferPointer { segment in
            try out.roadBearing.withUnsafeMutableBufferPointer { road in
                try out.houseBearing.withUnsafeMutableBufferPointer { house in
                    let (segment, road, house) = (SharedSlots(segment), SharedSlots(road), SharedSlots(house))
                    try orientEach(buildings: buildings, addresses: addresses, segments: segments, links: links, order: order,
                                   linked: linked, options: options, workers: workers, niceness: niceness) { k, facing, orienter in
                        guard let facing else { return }
                        segment.buffer[k] = orienter.sourceIndex[facing.segment]
                        road.buffer[k] = facing.roadBearing ?? .nan
                        house.buffer[k] = facing.houseBearing ?? .nan
                    }
                }
            }
        }
        return out
    }

    /// The addresses' indexes in id order (the order of the rows), each with its building.
    private static func linkedInOrder(_ buildings: [Building], _ addresses: [Address], _ links: LinkResult)
        -> (order: [Int], linked: [LinkedBuilding]) {
        let order = links.addressOrder(of: addresses) ?? IDOrder.sortedIndices(addresses.map { $0.id })
        return (order, linkedBuildings(buildings, addresses, order: order, links: links))
    }

    /// Orients the addresses in `order`, calling `store(k, facing, orienter)` for the k-th
    /// from a worker (each k once; distinct k may be stored at once).
    private static func orientEach(buildings: [Building], addresses: [Address], segments: [Segment], links: LinkResult,
                                   order: [Int], linked: [LinkedBuilding], options: OrientationOptions, workers: Int?,
                                   niceness: Int32 = 0, store: @Sendable (Int, Facing?, Orienter) -> Void) throws {
        let origin = Projection.localOrigin(buildings, addresses)
        // The linker's footprints in metres, when it kept them and projected as the orienters do.
        let metres = links.projectedFootprints.flatMap {
            $0.definition == Projection.localMetricDefinition(around: origin) ? $0 : nil
        }
        let streetKeys = StreetName.keys(of: addresses)
        // How many addresses each building serves: only the footprints of buildings serving
        // several are kept for reuse (most serve one, and a million kept footprints weigh).
        let uses = linked.reduce(into: [Int32](repeating: 0, count: buildings.count)) { u, l in
            if l.index >= 0 { u[Int(l.index)] += 1 }
        }
        let chunk = 20_000
        let chunks = stride(from: 0, to: order.count, by: chunk).map { $0..<min(order.count, $0 + chunk) }
        let failures = SlotResults<Void>(count: chunks.count)
        let counter = TileCounter()
        let n = max(1, min(workers ?? ProcessInfo.processInfo.activeProcessorCount, chunks.count))
        runWorkers(n, niceness: niceness) { _ in
            // One orienter (one GEOS context, one projection of the segments) per worker.
            let orienter: Orienter
            do { orienter = try Orienter(segments: segments, origin: origin, options: options) } catch {
                while let c = counter.take(below: chunks.count) { failures.set(c, .failure(error)) }
                return
            }
            var footprints: [Int: Orienter.Footprint?] = [:]
            while let c = counter.take(below: chunks.count) {
                do {
                    for k in chunks[c] {
                        let b = Int(linked[k].index)
                        // Its place among the footprints in metres (-1: none there).
                        let inMetres = linked[k].asLinked ? metres?.place(b) ?? -1 : -1
                        var f: Facing? = nil
                        if b >= 0 {
                            let fp: Orienter.Footprint?
                            if uses[b] > 1, let cached = footprints[b] { fp = cached } else {
                                fp = try orienter.projectedFootprint(buildings[b].footprint, metres: metres?.rings, at: inMetres)
                                if uses[b] > 1 { footprints[b] = .some(fp) }
                            }
                            if let fp { f = try orienter.facing(fp, street: streetKeys[order[k]]) }
                        } else {
                            f = try orienter.facing(point: addresses[order[k]].point, key: streetKeys[order[k]])
                        }
                        store(k, f, orienter)
                    }
                    failures.set(c, .success(()))
                } catch {
                    failures.set(c, .failure(error))
                }
            }
        }
        for c in chunks.indices { if let e = failures.error(c) { throw e } }
    }

    /// The building of an address: its link's place in `links.links` (-1: none), the building's
    /// index in `buildings` (-1 when not there), and whether that is its index in the array
    /// linked too (the linker's footprints then hold it there).
    struct LinkedBuilding { var link: Int32, index: Int32, asLinked: Bool }

    /// For each address in `order`, its `LinkedBuilding`. Uses the linker's indexes when
    /// `links` came from these very arrays, checking each id; a dictionary otherwise.
    static func linkedBuildings(_ buildings: [Building], _ addresses: [Address], order: [Int],
                                links: LinkResult) -> [LinkedBuilding] {
        // `links.links` is sorted by address id, one per address: in step with `order` when
        // it belongs to these addresses.
        let inStep = links.links.count == order.count && zip(order, links.links).allSatisfy { addresses[$0].id == $1.addressID }
        let byAddress: [String: Int] = inStep ? [:] : Dictionary(
            links.links.enumerated().map { ($1.addressID, $0) }, uniquingKeysWith: { first, _ in first })
        var byID: [String: Int]? = nil
        return order.enumerated().map { k, a -> LinkedBuilding in
            guard let l = inStep ? k : byAddress[addresses[a].id], let bid = links.links[l].buildingID else {
                return LinkedBuilding(link: -1, index: -1, asLinked: false)
            }
            if l < links.buildingIndexes.count {
                let hint = Int(links.buildingIndexes[l])
                if hint >= 0, hint < buildings.count, buildings[hint].id == bid {
                    return LinkedBuilding(link: Int32(l), index: Int32(hint), asLinked: true)
                }
            }
            if byID == nil {
                byID = Dictionary(buildings.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return LinkedBuilding(link: Int32(l), index: Int32(byID![bid] ?? -1), asLinked: false)
        }
    }

    /// Each building's facing road (no street preference), sorted by building id.
    public static func orientBuildings(_ buildings: [Building], segments: [Segment],
                                       options: OrientationOptions = .init()) throws -> [BuildingOrientation] {
        let orienter = try Orienter(segments: segments, origin: Projection.localOrigin(buildings, []), options: options)
        return try buildings.map { b in
            BuildingOrientation(buildingID: b.id, orientation: try orienter.orient(footprint: b.polygons))
        }.sorted { $0.buildingID < $1.buildingID }
    }
}

/// A buffer written by several workers at once, each in slots of its own.
struct SharedSlots<T>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<T>
    init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }
}
