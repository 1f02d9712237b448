import Foundation
import Geo

/// One turf: its doors in walking order and its outline.
public struct Turf: Sendable {
    /// From 1, in the order turfs were cut (west to east).
    public var id: Int
    /// Indices into the cutter's doors, in walking order.
    public var doors: [Int]
    /// Block faces (one side of a road between junctions; both sides of a quiet street) in it.
    public var blockFaces: Int
    /// The walk from door to door in `doors` order, metres.
    public var routeMetres: Double
    /// The same doors visited in id order, metres.
    public var idOrderMetres: Double
    /// Its block faces' walks grown by 15 m and cut to the Voronoi cells of its doors (one
    /// polygon per group of touching faces; never overlapping another turf's), degrees.
    public var outline: [PolygonCoords]
}

/// Cuts addresses into turfs of about `target` doors. A block face is never split, and both
/// sides of a quiet street piece are walked together unless they hold over 1.25 × target. A
/// turf grows from its westmost block face to the faces joined to it by the road network (or,
/// where the network has a gap, within 250 m): first those that keep the convex hull of its
/// doors (grown by 15 m) clear of other doors, then the nearest. It stops nearest the target
/// without passing 1.25 × target, or at 0.75 × target when every next face would take the
/// hull over other doors. Turfs under 0.75 × target are then merged into a neighbour when the
/// sum stays within 1.25 × target, or take units a neighbour can spare; one still outside the
/// band is cut afresh with one or two neighbours, the sides of their quiet streets parted
/// only when nothing else brings it in (`resplit`). Doors on no road (no walkable road at
/// all) are left out. Deterministic: the same doors and roads give the same turfs.
public struct TurfCutter {
    public let doors: [TurfDoor]
    let faces: BlockFaces
    let plane: LocalPlane
    /// Each door's place (nil: no road).
    let places: [PiecePlace?]
    /// The doors in metres.
    let points: [Coord]

    public init(doors: [TurfDoor], roads: [TurfRoad]) {
        self.doors = doors
        let lat = doors.isEmpty ? 0 : doors.reduce(0) { $0 + $1.point.y } / Double(doors.count)
        plane = LocalPlane(meanLatitude: lat)
        faces = BlockFaces(roads: roads, plane: plane)
        places = doors.map { [faces] in faces.place($0) }
        points = doors.map { [plane] in plane.metres($0.point) }
    }

    /// A group of doors walked as one: one block face, or both faces of a quiet street piece.
    struct Unit { var piece: Int; var side: Int; var doors: [Int]; var centroid: Coord }

    /// The units; a quiet street piece with more than `together` doors is walked as its two
    /// faces, each a unit.
    func units(together: Double = .infinity) -> [Unit] {
        var onPiece: [Int: Int] = [:]
        for p in places { if let p { onPiece[p.piece, default: 0] += 1 } }
        var byKey: [Int: Int] = [:]
        var out: [Unit] = []
        for (i, p) in places.enumerated() {
            guard let p else { continue }
            let side = faces.pieces[p.piece].bothSides && Double(onPiece[p.piece]!) <= together ? 0 : p.side
            let key = p.piece * 3 + side + 1
            if let u = byKey[key] { out[u].doors.append(i) } else {
                byKey[key] = out.count
                out.append(Unit(piece: p.piece, side: side, doors: [i], centroid: Coord(0, 0)))
            }
        }
        for u in out.indices { out[u].centroid = Self.centre(of: out[u].doors, points) }
        return out
    }

    /// Units sharing a junction.
    func neighbours(_ units: [Unit]) -> [[Int]] {
        var atNode: [Int: [Int]] = [:]
        for (u, unit) in units.enumerated() {
            let p = faces.pieces[unit.piece]
            atNode[p.from, default: []].append(u)
            if p.to != p.from { atNode[p.to, default: []].append(u) }
        }
        var out = [[Int]](repeating: [], count: units.count)
        for (_, us) in atNode.sorted(by: { $0.key < $1.key }) {
            for a in us { for b in us where a != b { out[a].append(b) } }
        }
        return out.map { Array(Set($0)).sorted() }
    }

    public func cut(target: Int) throws -> [Turf] {
        let hi = Double(target) * 1.25, lo = Double(target) * 0.75
        let units = units(together: hi)
        let near = neighbours(units)
        var turfOf = [Int](repeating: -1, count: units.count)
        var groups: [[Int]] = []
        var unitOf = [Int](repeating: -1, count: doors.count)
        for (u, unit) in units.enumerated() { for d in unit.doors { unitOf[d] = u } }
        let grid = DoorGrid(points: points, keep: { unitOf[$0] >= 0 })
        let westFirst = units.indices.sorted { (units[$0].centroid.x, units[$0].centroid.y, $0) < (units[$1].centroid.x, units[$1].centroid.y, $1) }
        for seed in westFirst where turfOf[seed] < 0 {
            let t = groups.count
            var group = [seed], size = units[seed].doors.count
            var sum = Coord(units[seed].centroid.x * Double(size), units[seed].centroid.y * Double(size))
            turfOf[seed] = t
            var frontier = Set(near[seed].filter { turfOf[$0] < 0 })
            var hull = Self.convexHull(units[seed].doors.map { points[$0] })
            while Double(size) < Double(target) {
                let centre = Coord(sum.x / Double(size), sum.y / Double(size))
                var pool = frontier.filter { Double(size + units[$0].doors.count) <= hi }
                if frontier.isEmpty {
                    // A gap in the network: the nearest free unit within `gapMetres`.
                    pool = Set(units.indices.filter { turfOf[$0] < 0 && Self.distance(units[$0].centroid, centre) <= Self.gapMetres && Double(size + units[$0].doors.count) <= hi })
                }
                // Of the nearest few units, the one that takes the fewest other doors into the
                // turf's hull, then the nearest.
                let nearest = pool.map { (distance: Self.distance(units[$0].centroid, centre), unit: $0) }
                    .sorted { ($0.distance, $0.unit) < ($1.distance, $1.unit) }.prefix(Self.candidates)
                let ranked = nearest.map { c in
                    let s = swallowed(adding: units[c.unit].doors, to: hull, grid: grid, isMember: { turfOf[unitOf[$0]] == t || unitOf[$0] == c.unit })
                    return (swallowed: s.count, hull: s.hull, distance: c.distance, unit: c.unit)
                }
                guard let best = ranked.min(by: { ($0.swallowed, $0.distance, $0.unit) < ($1.swallowed, $1.distance, $1.unit) }) else { break }
                let c = best.unit, n = units[c].doors.count
                if Double(size) >= lo && (best.swallowed > 0 || abs(Double(size - target)) <= abs(Double(size + n - target))) { break }
                group.append(c); size += n; turfOf[c] = t; hull = best.hull
                sum = Coord(sum.x + units[c].centroid.x * Double(n), sum.y + units[c].centroid.y * Double(n))
                frontier.remove(c)
                for m in near[c] where turfOf[m] < 0 { frontier.insert(m) }
            }
            groups.append(group)
        }
        groups = merged(groups, units: units, near: near, turfOf: &turfOf, lo: lo, hi: hi)
        groups = rebalanced(groups, units: units, near: near, lo: lo, hi: hi)
        let (all, refine) = withFaces(units)
        let linked = Self.joiningParts(of: groups, bridged(walkNeighbours(all, reach: Self.gapMetres), units: all, lo: lo), units: all)
        groups = resplit(groups, units: all, near: linked, lo: lo, hi: hi)
        groups = resplit(groups, units: all, near: linked, lo: lo, hi: hi, refine: refine)
        let made = groups.enumerated().map { k, g in turf(id: k + 1, units: g.map { all[$0] }) }
        var turfs = made.map(\.turf)
        try setOutlines(&turfs, walks: made.map(\.walks), context: GEOSContext())
        return turfs
    }

    /// Small groups folded into their smallest neighbouring group that stays within `hi`.
    func merged(_ groups: [[Int]], units: [Unit], near: [[Int]], turfOf: inout [Int], lo: Double, hi: Double) -> [[Int]] {
        var groups = groups
        func size(_ g: Int) -> Int { groups[g].reduce(0) { $0 + units[$1].doors.count } }
        for g in groups.indices where !groups[g].isEmpty && Double(size(g)) < lo {
            let next = Set(groups[g].flatMap { near[$0] }.map { turfOf[$0] }).subtracting([g])
            guard let into = next.filter({ Double(size($0) + size(g)) <= hi }).min(by: { (size($0), $0) < (size($1), $1) }) else { continue }
            for u in groups[g] { turfOf[u] = into }
            groups[into] += groups[g]
            groups[g] = []
        }
        return groups.filter { !$0.isEmpty }
    }

    static func distance(_ a: Coord, _ b: Coord) -> Double { hypot(a.x - b.x, a.y - b.y) }

    /// The farthest a turf's walk crosses where the network has a gap, or walks along roads
    /// without doors between two units, metres.
    static let gapMetres = 250.0

    /// How many of the nearest free units are weighed at each step of a turf's growth.
    static let candidates = 4
}
