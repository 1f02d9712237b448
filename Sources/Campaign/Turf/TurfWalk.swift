import Foundation
import Geo

extension TurfCutter {
    /// The turf of these units: the walk goes from each unit to the one whose nearer end is
    /// closest; a one-sided face is walked along its road from that end, a quiet street up one
    /// side and back down the other.
    func turf(id: Int, units: [Unit]) -> Turf {
        var left = Array(units.indices)
        var order: [Int] = []
        var at: Coord? = nil
        while !left.isEmpty {
            var best: (k: Int, walk: [Int], d: Double)?
            for k in left {
                for walk in walks(units[k]) {
                    let d = at.map { Self.distance($0, points[walk[0]]) } ?? 0
                    if best == nil || d < best!.d { best = (k, walk, d) }
                }
            }
            order += best!.walk
            at = points[best!.walk.last!]
            left.removeAll { $0 == best!.k }
        }
        let byID = order.sorted { doors[$0].id < doors[$1].id }
        return Turf(id: id, doors: order, blockFaces: units.reduce(0) { $0 + ($1.side == 0 ? 2 : 1) },
                    routeMetres: length(order), idOrderMetres: length(byID), outline: outline(order))
    }

    /// The ways to walk a unit, each in door order: from either end; for both sides, either
    /// side first. Doors at the same place keep their index order.
    func walks(_ u: Unit) -> [[Int]] {
        func along(_ i: Int) -> Double { places[i]!.along }
        let sorted = u.doors.sorted { (along($0), $0) < (along($1), $1) }
        guard u.side == 0 else { return [sorted, sorted.reversed()] }
        let l = sorted.filter { places[$0]!.side > 0 }, r = sorted.filter { places[$0]!.side < 0 }
        return [l + r.reversed(), r + l.reversed(), l.reversed() + r, r.reversed() + l].filter { !$0.isEmpty }
    }

    /// Metres from door to door in this order.
    func length(_ order: [Int]) -> Double {
        zip(order, order.dropFirst()).reduce(0) { $0 + Self.distance(points[$1.0], points[$1.1]) }
    }

    /// The convex hull of the doors grown by 15 m (the hull of each door's octagon), closed,
    /// in degrees.
    func outline(_ order: [Int]) -> [Coord] {
        let r = 15.0
        var pts: [Coord] = []
        for i in order {
            for k in 0..<8 {
                let a = Double(k) * .pi / 4
                pts.append(Coord(points[i].x + r * cos(a), points[i].y + r * sin(a)))
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
}
