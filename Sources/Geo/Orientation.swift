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
    /// Eligible segments only, with their projected lines.
    let segments: [Segment]
    private var lines: [[Coord]] = []
    private var lineGeoms: [Geometry] = []
    /// Each segment's normalised street name as a number (-1: none), and the numbers by name.
    private var keys: [Int32] = []
    private var keyNumbers: [String: Int32] = [:]
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
        segments = all.filter { s in s.segmentClass.map(options.roadClasses.contains) ?? false }
        var flat = segments.flatMap(\.line)
        try projection.forward(&flat)
        var k = 0
        for s in segments {
            let l = Array(flat[k..<(k + s.line.count)]); k += s.line.count
            lines.append(l)
            lineGeoms.append(l.count == 1 ? try Geometry.point(context, l[0]) : try Geometry.lineString(context, l))
            if let key = StreetName.normalize(s.name) {
                let n = keyNumbers[key] ?? Int32(keyNumbers.count)
                keyNumbers[key] = n
                keys.append(n)
            } else {
                keys.append(-1)
            }
        }
        idRank = IDOrder.ranks(segments.map { $0.id })
        index = GridIndex(boxes: lines.map { BBox(covering: $0) })
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
        let p = try projection.forward(point)
        let g = try Geometry.point(context, p)
        return try orient(rings: [], box: BBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y), point: g, centre: p, street: key)
    }

    /// A footprint in metres: the rings of all its parts, their envelope, and its centre.
    struct Footprint {
        var rings: [[Coord]]
        var box: BBox
        var centre: Coord
    }

    /// The footprint in metres (repaired when invalid) and its centre (the centroid, or a
    /// point on the surface when the centroid falls outside); nil when empty.
    /// `metres`, when given, holds the parts' rings already projected with this projection.
    func projectedFootprint(_ parts: [PolygonCoords], metres: [[Coord]]? = nil) throws -> Footprint? {
        let projected: [PolygonCoords]
        if let metres {
            projected = LinkWorld.parts(of: parts.map { $0.rings.count }, rings: metres)
        } else {
            var flat = parts.flatMap { $0.rings.flatMap { $0 } }
            try projection.forward(&flat)
            var k = 0
            projected = parts.map { p in
                PolygonCoords(rings: p.rings.map { r in defer { k += r.count }; return Array(flat[k..<(k + r.count)]) })
            }
        }
        return try footprint(projected: projected)
    }

    /// The same for a building's footprint.
    func projectedFootprint(_ f: Geo.Footprint, metres: [[Coord]]?) throws -> Footprint? {
        guard let metres else { return try projectedFootprint(f.polygons) }
        return try footprint(projected: LinkWorld.parts(of: f.partSizes, rings: metres))
    }

    /// The centroid of a simple ring (the common house), worked out as GEOS's `Centroid` does
    /// for a polygon shell, operation for operation (triangles fanned from the first vertex,
    /// twice their signed areas weighting three times their centroids), so the value is
    /// GEOS's to the bit without making a GEOS geometry; nil when the ring has no area.
    static func shellCentroid(_ ring: [Coord]) -> Coord? {
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
        // One simple ring, the common house: its centre is found and tested with planar code
        // (GEOS only for a ring without area or a centroid outside it); anything else goes
        // through GEOS (validity, repair, covers).
        if projected.count == 1 && projected[0].rings.count == 1 && Planar.isSimpleRing(projected[0].rings[0]) {
            let ring = projected[0].rings[0]
            let c = try Orienter.shellCentroid(ring) ?? Geometry.polygon(context, projected).centroid().pointCoord()
            let centre = try Planar.covers([ring], c, tolerance: 0) ? c : Geometry.polygon(context, projected).pointOnSurface().pointCoord()
            return Footprint(rings: [ring], box: BBox(covering: ring), centre: centre)
        }
        var g = try Geometry.polygon(context, projected)
        if !g.isValid { g = try g.makeValid().polygonalPart() }
        guard !g.isEmpty else { return nil }
        let c = try g.centroid()
        let centre = try g.covers(c) ? c.pointCoord() : g.pointOnSurface().pointCoord()
        return Footprint(rings: g.polygons().flatMap(\.rings), box: g.envelope(), centre: centre)
    }

    func orient(_ f: Footprint, street key: String?) throws -> Orientation? {
        try orient(rings: f.rings, box: f.box, point: nil, centre: f.centre, street: key)
    }

    /// Core: footprint rings (or a point geometry when there are none), their envelope and
    /// centre in metres; `key` a normalised street name.
    private func orient(rings: [[Coord]], box: BBox, point: Geometry?, centre: Coord, street key: String?) throws -> Orientation? {
        let r = options.radiusMeters
        var any: (Int, Double)? = nil, named: (Int, Double)? = nil
        func better(_ s: Int, _ d: Double, than cur: (Int, Double)?) -> Bool {
            guard let cur else { return true }
            return d != cur.1 ? d < cur.1 : idRank[s] < idRank[cur.0]
        }
        // The street as a segment name number; -2 when no segment has that name.
        let want: Int32? = key.map { keyNumbers[$0] ?? -2 }
        // The roads near the house first, then, only when the answer could lie farther, all
        // within the radius. A road at distance d from the footprint meets its envelope grown
        // by d, so a winner found closer than the first reach (less a hair for rounding) has
        // no rival outside it: the answer is the one the full search gives.
        let reach = min(r, Orienter.firstReach)
        for round in reach < r ? [reach, r] : [r] {
            any = nil; named = nil
            // In any order: the winner does not depend on it (ties go by id).
            try index.forEach(meeting: box.expanded(by: round)) { (s: Int) throws -> Void in
                let d: Double
                if let point {
                    d = try point.distance(to: lineGeoms[s])   // a point standing for a house
                    guard d <= r else { return }
                } else {
                    // A segment is measured only as far as it could still win: a road of another
                    // name is out once one of the street's name is found, and each is bounded by
                    // the best it would have to beat (ties are kept: they go by id).
                    let onStreet = want != nil && keys[s] == want
                    if !onStreet && named != nil { return }
                    let bound = onStreet ? (named?.1 ?? r) : (any?.1 ?? r)
                    guard let dd = Planar.distance(rings: rings, ringsBox: box, line: lines[s], maxDistance: bound) else { return }
                    d = dd
                }
                if better(s, d, than: any) { any = (s, d) }
                if let want, keys[s] == want, better(s, d, than: named) { named = (s, d) }
            }
            // Settled: the street's road found near, or no road of the street's name exists
            // (none asked, or none anywhere) and the nearest road is near.
            let sure = round * (1 - 1e-9) - 1e-6
            if let n = named, n.1 <= sure { break }
            if want == nil || want == -2, let a = any, a.1 <= sure { break }
        }
        guard case let (s, d)? = named ?? any, let closest = Planar.closestOnLine(centre, lines[s]) else { return nil }
        let q = closest.point
        let bearings: (road: Double?, house: Double?)
        switch options.method {
        case .projected: bearings = try projectedBearings(s, sub: closest.segment, q: q, centre: centre)
        case .geodesic: bearings = try geodesicBearings(s, sub: closest.segment, q: q, centre: centre)
        }
        return Orientation(segmentID: segments[s].id, distance: d, roadBearing: bearings.road, houseBearing: bearings.house)
    }

    /// The sub-segment of a line nearest to index `i` that has a length (itself first); nil
    /// when every vertex is the same point.
    static func tangentSegment(_ line: [Coord], near i: Int) -> Int? {
        guard line.count > 1 else { return nil }
        let n = line.count - 1
        for step in 0..<n {
            for j in [i + step, i - step] where j >= 0 && j < n && line[j] != line[j + 1] { return j }
        }
        return nil
    }

    private func projectedBearings(_ s: Int, sub i: Int, q: Coord, centre: Coord) throws -> (Double?, Double?) {
        var road: Double? = nil
        if let j = Orienter.tangentSegment(lines[s], near: i),
           let g = Bearing.grid(from: lines[s][j], to: lines[s][j + 1]) {
            road = Bearing.axial(g - (try projection.convergence(at: try projection.inverse(q))))
        }
        let house = try projection.trueBearing(from: centre, to: q)
        return (road, house)
    }

    private func geodesicBearings(_ s: Int, sub i: Int, q: Coord, centre: Coord) throws -> (Double?, Double?) {
        var pair = [q, centre]
        try projection.inverse(&pair)
        let (qd, cd) = (pair[0], pair[1])
        var road: Double? = nil
        if let j = Orienter.tangentSegment(lines[s], near: i) {
            // Azimuth at q toward the farther end of its sub-segment; the axis is the same either way.
            let l = lines[s], line = segments[s].line
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
        let origin = Projection.localOrigin(buildings, addresses)
        // Addresses in id order (the order of the rows), each with its linked building.
        let order = links.addressOrder(of: addresses) ?? IDOrder.sortedIndices(addresses.map { $0.id })
        let linked = linkedBuildings(buildings, addresses, order: order, links: links)
        // The linker's footprints in metres, when it kept them and projected as the orienters do.
        let metres = links.projectedFootprints.flatMap {
            $0.definition == Projection.localMetricDefinition(around: origin) ? $0.rings : nil
        }
        let streetKeys = StreetName.keys(addresses.lazy.map { $0.street })
        // How many addresses each building serves: only the footprints of buildings serving
        // several are kept for reuse (most serve one, and a million kept footprints weigh).
        let uses = linked.reduce(into: [Int32](repeating: 0, count: buildings.count)) { u, l in
            if l.index >= 0 { u[l.index] += 1 }
        }
        let chunk = 20_000
        let chunks = stride(from: 0, to: order.count, by: chunk).map { $0..<min(order.count, $0 + chunk) }
        // Each worker writes its chunks' rows in place in the one array of rows (distinct
        // slots), so the rows are never held twice (chunk arrays, then their concatenation).
        let failures = SlotResults<Void>(count: chunks.count)
        let counter = TileCounter()
        let n = max(1, min(workers ?? ProcessInfo.processInfo.activeProcessorCount, chunks.count))
        var rows = order.indices.map { k in AddressOrientation(addressID: addresses[order[k]].id, buildingID: linked[k].id, orientation: nil) }
        rows.withUnsafeMutableBufferPointer { out in
            let out = SharedSlots(out)
            DispatchQueue.concurrentPerform(iterations: n) { _ in
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
                            let (_, b, linkerIndex) = linked[k]
                            var o: Orientation? = nil
                            if b >= 0 {
                                let fp: Orienter.Footprint?
                                if let cached = footprints[b] { fp = cached } else {
                                    fp = try orienter.projectedFootprint(
                                        buildings[b].footprint, metres: linkerIndex >= 0 ? metres?[linkerIndex] : nil)
                                    if uses[b] > 1 { footprints[b] = .some(fp) }
                                }
                                if let fp { o = try orienter.orient(fp, street: streetKeys[order[k]]) }
                            } else {
                                o = try orienter.orient(point: addresses[order[k]].point, key: streetKeys[order[k]])
                            }
                            out.buffer[k].orientation = o
                        }
                        failures.set(c, .success(()))
                    } catch {
                        failures.set(c, .failure(error))
                    }
                }
            }
        }
        for c in chunks.indices { if let e = failures.error(c) { throw e } }
        return rows
    }

    /// For each address in `order`: the id of the building its link names, that building's
    /// index in `buildings` (-1 when it is not there), and its index in the array linked when
    /// the two are known to agree (else -1). Uses the linker's indexes when `links` came from
    /// these very arrays, checking each id; a dictionary otherwise.
    static func linkedBuildings(_ buildings: [Building], _ addresses: [Address], order: [Int],
                                links: LinkResult) -> [(id: String?, index: Int, linkerIndex: Int)] {
        // `links.links` is sorted by address id, one per address: in step with `order` when
        // it belongs to these addresses.
        let inStep = links.links.count == order.count && zip(order, links.links).allSatisfy { addresses[$0].id == $1.addressID }
        let byAddress: [String: Int] = inStep ? [:] : Dictionary(
            links.links.enumerated().map { ($1.addressID, $0) }, uniquingKeysWith: { first, _ in first })
        var byID: [String: Int]? = nil
        return order.enumerated().map { k, a -> (id: String?, index: Int, linkerIndex: Int) in
            guard let l = inStep ? k : byAddress[addresses[a].id], let bid = links.links[l].buildingID else { return (nil, -1, -1) }
            if l < links.buildingIndexes.count {
                let hint = Int(links.buildingIndexes[l])
                if hint >= 0, hint < buildings.count, buildings[hint].id == bid { return (bid, hint, hint) }
            }
            if byID == nil {
                byID = Dictionary(buildings.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return (bid, byID![bid] ?? -1, -1)
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
