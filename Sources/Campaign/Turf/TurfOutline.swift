import Foundation
import Geo

/// How far a turf's outline reaches round its walk, metres.
let turfOutlineReach = 15.0

extension TurfCutter {
    /// Sets each turf's outline: its block faces' walks (each face's doors joined in walking
    /// order; a lone door a point) grown by 15 m, cut to the Voronoi cells of its doors, in
    /// degrees. Every point near a walk goes to the turf of the nearest door, so outlines never
    /// overlap and never take in another turf's door (but a door at the very point of another
    /// turf's door: the cell goes to the turf of the first door in index order).
    func setOutlines(_ turfs: inout [Turf], walks: [[[Int]]], context: GEOSContext) throws {
        var turfAt: [Coord: Int] = [:], sites: [Coord] = []
        var turfOfDoor = [Int](repeating: -1, count: doors.count)
        for (k, t) in turfs.enumerated() { for d in t.doors { turfOfDoor[d] = k } }
        var box = BBox.empty
        for (d, k) in turfOfDoor.enumerated() where k >= 0 && turfAt[points[d]] == nil {
            turfAt[points[d]] = k
            sites.append(points[d])
            box.expand(points[d])
        }
        var cellsOf = [[Geometry]](repeating: [], count: turfs.count)
        if sites.count >= 2 {
            let grid = DoorGrid(points: sites, keep: { _ in true })
            let all = try Geometry.collection(context, sites.map { p throws(GEOSError) in try Geometry.point(context, p) })
            for cell in try all.voronoiCells(envelope: box.expanded(by: 4 * turfOutlineReach)) {
                guard let ring = cell.polygons().first?.rings.first else { continue }
                let site = grid.doors(near: cell.envelope()).first { Self.convex(ring, contains: sites[$0]) }
                if let site, let k = turfAt[sites[site]] { cellsOf[k].append(cell) }
            }
        }
        for k in turfs.indices {
            let parts = try walks[k].map { w throws(GEOSError) -> Geometry in
                var line: [Coord] = []
                for d in w where line.last != points[d] { line.append(points[d]) }
                return line.count == 1 ? try Geometry.point(context, line[0]) : try Geometry.lineString(context, line)
            }
            var area = try Geometry.collection(context, parts).buffer(turfOutlineReach, quadrantSegments: 4)
            if !cellsOf[k].isEmpty {
                let cells = try Geometry.collection(context, cellsOf[k])
                area = try area.intersection((try? cells.union(coverage: true)) ?? cells.union())
            }
            turfs[k].outline = area.polygons().map { PolygonCoords(rings: $0.rings.map { $0.map(plane.degrees) }) }
        }
    }

    /// True when `p` lies inside or on the convex ring (either orientation, closed or not).
    static func convex(_ ring: [Coord], contains p: Coord) -> Bool {
        var sign = 0.0
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            let c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if c == 0 { continue }
            if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false }
        }
        return true
    }

    /// The convex hull of the doors grown by 15 m (the hull of each door's octagon), closed,
    /// in degrees: the turf's extent as a compact shape, used to measure how turfs interleave.
    func hull(_ order: [Int]) -> [Coord] {
        var pts: [Coord] = []
        for i in order {
            for k in 0..<8 {
                let a = Double(k) * .pi / 4
                pts.append(Coord(points[i].x + turfOutlineReach * cos(a), points[i].y + turfOutlineReach * sin(a)))
            }
        }
        var hull = Self.convexHull(pts).map(plane.degrees)
        hull.append(hull[0])
        return hull
    }

    /// Andrew's monotone chain: the hull counter-clockwise from the lowest-left point, without
    /// collinear points.
    static func convexHull(_ points: [Coord]) -> [Coord] {
        let p = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
        guard p.count > 2 else { return p }
        func cross(_ o: Coord, _ a: Coord, _ b: Coord) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var lower: [Coord] = [], upper: [Coord] = []
        for c in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], c) <= 0 { lower.removeLast() }
            lower.append(c)
        }
        for c in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], c) <= 0 { upper.removeLast() }
            upper.append(c)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// The doors of turfs that lie in (are covered by) the area of a turf other than their
    /// own; `areas[k]` belongs to `turfs[k]`, in degrees. 0 for one turf or none.
    func doorsInOtherTurfs(_ turfs: [Turf], areas: [[PolygonCoords]], context: GEOSContext) throws -> Int {
        let index = try SpatialIndex(context)
        var prepared: [PreparedGeometry] = []
        for (k, a) in areas.enumerated() {
            let g = try Geometry.polygon(context, a)
            try index.insert(k, g.envelope())
            prepared.append(try PreparedGeometry(g))
        }
        var inside = 0
        for (k, t) in turfs.enumerated() {
            for d in t.doors {
                let p = doors[d].point
                let point = try Geometry.point(context, p)
                for other in try index.query(BBox(around: p, radius: 0)) where other != k {
                    if try prepared[other].covers(point) { inside += 1; break }
                }
            }
        }
        return inside
    }
}
