/// Small planar measures on projected coordinates (metres), for the linker's direction
/// evidence. Areal predicates and distances go through GEOS; these are the vector pieces
/// GEOS does not offer (ray casting, segment tangents).
public enum Planar {
    @inlinable public static func sub(_ a: Coord, _ b: Coord) -> Coord { Coord(a.x - b.x, a.y - b.y) }
    @inlinable public static func dot(_ a: Coord, _ b: Coord) -> Double { a.x * b.x + a.y * b.y }
    @inlinable public static func cross(_ a: Coord, _ b: Coord) -> Double { a.x * b.y - a.y * b.x }
    @inlinable public static func length(_ a: Coord) -> Double { (a.x * a.x + a.y * a.y).squareRoot() }

    /// The point of segment a–b closest to p, and the parameter along it in [0, 1]
    /// (a degenerate segment gives a and 0).
    @inlinable public static func closestOnSegment(_ p: Coord, _ a: Coord, _ b: Coord) -> (Coord, Double) {
        let ab = sub(b, a)
        let len2 = dot(ab, ab)
        guard len2 > 0 else { return (a, 0) }
        let t = min(1, max(0, dot(sub(p, a), ab) / len2))
        return (Coord(a.x + t * ab.x, a.y + t * ab.y), t)
    }

    /// The closest point of a polyline to p, its distance, and the index of the segment
    /// it lies on. An empty line gives nil.
    public static func closestOnLine(_ p: Coord, _ line: [Coord]) -> (point: Coord, distance: Double, segment: Int)? {
        guard let first = line.first else { return nil }
        if line.count == 1 { return (first, length(sub(p, first)), 0) }
        var best: (Coord, Double, Int) = (first, .infinity, 0)
        for i in 0..<(line.count - 1) {
            let (c, _) = closestOnSegment(p, line[i], line[i + 1])
            let d = length(sub(p, c))
            if d < best.1 { best = (c, d, i) }
        }
        return best
    }

    /// Distance along the ray `origin + t·dir` (t ≥ 0, dir a unit vector) to the first crossing
    /// of any ring edge, or nil when the ray misses every edge within `maxDistance`.
    public static func rayHit(origin: Coord, dir: Coord, rings: [[Coord]], maxDistance: Double) -> Double? {
        var best = maxDistance
        var hit = false
        for ring in rings where ring.count > 1 {
            for i in 0..<(ring.count - 1) {
                let a = ring[i], e = sub(ring[i + 1], a)
                let denom = cross(dir, e)
                if denom == 0 { continue }  // parallel
                let ao = sub(a, origin)
                let t = cross(ao, e) / denom
                let s = cross(ao, dir) / denom
                if t >= 0, t < best, s >= 0, s <= 1 { best = t; hit = true }
            }
        }
        return hit ? best : nil
    }

    /// True when the open segments p1–p2 and q1–q2 cross or touch.
    public static func segmentsIntersect(_ p1: Coord, _ p2: Coord, _ q1: Coord, _ q2: Coord) -> Bool {
        let d1 = cross(sub(q2, q1), sub(p1, q1)), d2 = cross(sub(q2, q1), sub(p2, q1))
        let d3 = cross(sub(p2, p1), sub(q1, p1)), d4 = cross(sub(p2, p1), sub(q2, p1))
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }

    @inlinable public static func rotate(_ v: Coord, radians a: Double) -> Coord {
        let c = cos(a), s = sin(a)
        return Coord(v.x * c - v.y * s, v.x * s + v.y * c)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
