import Foundation
import Geo

/// Door indices bucketed on a square grid of metres, for the doors near a turf.
struct DoorGrid {
    static let cell = 50.0
    private var cells: [Int64: [Int]] = [:]

    /// Buckets the doors with `keep` true, by their point in metres.
    init(points: [Coord], keep: (Int) -> Bool) {
        for (i, p) in points.enumerated() where keep(i) { cells[Self.key(Self.cellOf(p.x), Self.cellOf(p.y)), default: []].append(i) }
    }

    static func cellOf(_ v: Double) -> Int64 { Int64((v / cell).rounded(.down)) }
    static func key(_ x: Int64, _ y: Int64) -> Int64 { x &* 1_000_003 &+ y }

    /// The doors in the cells `box` (metres) meets, but for cells wholly inside the convex
    /// `hull` (counter-clockwise; none skipped for a hull of under three points).
    func doors(near box: BBox, skippingInside hull: [Coord] = []) -> [Int] {
        var out: [Int] = []
        for x in Self.cellOf(box.minX)...Self.cellOf(box.maxX) {
            for y in Self.cellOf(box.minY)...Self.cellOf(box.maxY) {
                guard let list = cells[Self.key(x, y)] else { continue }
                if hull.count > 2 {
                    let x0 = Double(x) * Self.cell, y0 = Double(y) * Self.cell
                    let corners = [Coord(x0, y0), Coord(x0 + Self.cell, y0), Coord(x0, y0 + Self.cell), Coord(x0 + Self.cell, y0 + Self.cell)]
                    if corners.allSatisfy({ TurfCutter.within($0, 0, ofConvex: hull) }) { continue }
                }
                out += list
            }
        }
        return out
    }
}

extension TurfCutter {
    /// The doors outside a turf that adding a unit's `doors` would newly bring within 15 m
    /// of the convex hull of the turf's doors (`hull`, counter-clockwise; empty for a new turf),
    /// and the hull with the unit. `isMember` tells the turf's doors and the unit's apart. 0 for
    /// a unit that keeps the turf from reaching round other doors. Metres.
    func swallowed(adding unit: [Int], to hull: [Coord], grid: DoorGrid, isMember: (Int) -> Bool) -> (count: Int, hull: [Coord]) {
        let grown = Self.convexHull(hull + unit.map { points[$0] })
        var box = BBox.empty
        for p in grown { box.expand(p) }
        var count = 0
        for d in grid.doors(near: box.expanded(by: turfOutlineReach), skippingInside: hull) where !isMember(d) {
            if Self.within(points[d], turfOutlineReach, ofConvex: grown) && (hull.isEmpty || !Self.within(points[d], turfOutlineReach, ofConvex: hull)) {
                count += 1
            }
        }
        return (count, grown)
    }

    /// True when `p` lies in the counter-clockwise convex polygon `hull` (vertices, not closed;
    /// one or two points for a degenerate hull) or within `reach` of its boundary.
    static func within(_ p: Coord, _ reach: Double, ofConvex hull: [Coord]) -> Bool {
        var inside = hull.count > 2
        var nearest = Double.infinity
        for i in hull.indices {
            let a = hull[i], b = hull[(i + 1) % hull.count]
            let dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy
            if dx * (p.y - a.y) - dy * (p.x - a.x) < 0 { inside = false }
            let t = len2 == 0 ? 0 : max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2))
            nearest = min(nearest, hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy)))
        }
        return inside || nearest <= reach
    }
}
