import Foundation
import Geo

extension TurfCutter {
    /// The turf of these units: the walk goes from each unit to the one whose nearer end is
    /// closest; a one-sided face is walked along its road from that end, a quiet street up one
    /// side and back down the other. Returns the turf (its outline still empty) and each
    /// unit's walk, in walking order.
    func turf(id: Int, units: [Unit]) -> (turf: Turf, walks: [[Int]]) {
        var left = Array(units.indices)
        var order: [Int] = [], walked: [[Int]] = []
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
            walked.append(best!.walk)
            at = points[best!.walk.last!]
            left.removeAll { $0 == best!.k }
        }
        let byID = order.sorted { doors[$0].id < doors[$1].id }
        return (Turf(id: id, doors: order, blockFaces: units.reduce(0) { $0 + ($1.side == 0 ? 2 : 1) },
                     routeMetres: length(order), idOrderMetres: length(byID), outline: []), walked)
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
}
