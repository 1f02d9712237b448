/// A ring (or line) of coordinates indexed from 0: an array, or a buffer read in place. The
/// ring measures below take any sequence of them, so footprints kept in one flat buffer are
/// read where they lie.
public protocol CoordRing: RandomAccessCollection where Element == Coord, Index == Int {}
extension Array: CoordRing where Element == Coord {}
extension UnsafeBufferPointer: CoordRing where Element == Coord {}

/// Small planar measures on projected coordinates (metres), exact on the coordinates as
/// given: covers and distances on a footprint's rings, ray casting, segment tangents. Validity,
/// repair, centroids and areas of anything but a simple ring go through GEOS.
public enum Planar {
    /// A millimetre: above any rounding of the measures here on projected coordinates (their
    /// errors are of the order of 1e-9 m), so a test that skips work only beyond this margin
    /// never changes a result.
    static let roundingMargin = 1e-3

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
    public static func closestOnLine<Line: CoordRing>(_ p: Coord, _ line: Line) -> (point: Coord, distance: Double, segment: Int)? {
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

    /// The sub-segment of a line nearest to index `i` that has a length (itself first); nil
    /// when every vertex is the same point.
    public static func tangentSegment<Line: CoordRing>(_ line: Line, near i: Int) -> Int? {
        guard line.count > 1 else { return nil }
        let n = line.count - 1
        for step in 0..<n {
            for j in [i + step, i - step] where j >= 0 && j < n && line[j] != line[j + 1] { return j }
        }
        return nil
    }

    /// Linear referencing: where p projects onto a polyline. `along` is metres from the line's
    /// first point to the closest point, measured along the line; `offset` is p's distance from
    /// it, positive on the left of the line's direction, negative on the right, 0 on it. Past
    /// either end the line runs on straight (along below 0 or beyond its length), so points
    /// beyond an end keep their order instead of all meeting at the end point. An empty line,
    /// or one of a single point, gives nil.
    public static func locate<Line: CoordRing>(_ p: Coord, on line: Line) -> (along: Double, offset: Double)? {
        guard line.count > 1 else { return nil }
        var best = (along: 0.0, offset: Double.infinity, part: -1, t: 0.0), walked = 0.0
        for i in 0..<(line.count - 1) {
            let a = line[i], b = line[i + 1]
            let ab = sub(b, a), len2 = dot(ab, ab)
            guard len2 > 0 else { continue }
            let t = dot(sub(p, a), ab) / len2
            let tc = min(1, max(0, t))
            let d = length(sub(p, Coord(a.x + tc * ab.x, a.y + tc * ab.y))), len = len2.squareRoot()
            if d < abs(best.offset) {
                best = (walked + tc * len, cross(ab, sub(p, a)) < 0 ? -d : d, i, t)
            }
            walked += len
        }
        guard best.part >= 0 else { return nil }
        // Beyond an end: along the end part's straight continuation.
        let a = line[best.part], b = line[best.part + 1], ab = sub(b, a), len = length(ab)
        if (best.part == 0 && best.t < 0) || (best.part == line.count - 2 && best.t > 1) {
            let start = best.part == 0 ? 0 : walked - len
            let side = cross(ab, sub(p, a)) / len
            return (start + best.t * len, side)
        }
        return (best.along, best.offset)
    }

    /// Distance along the ray `origin + t·dir` (t ≥ 0, dir a unit vector) to the first crossing
    /// of any ring edge, or nil when the ray misses every edge within `maxDistance`.
    public static func rayHit<Rings: Sequence>(origin: Coord, dir: Coord, rings: Rings, maxDistance: Double) -> Double?
        where Rings.Element: CoordRing {
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

    /// Distance between segments p1–p2 and q1–q2 (0 when they cross): the least of the four
    /// end-to-segment distances, one square root taken of the least square (the same value:
    /// a square root is rounded correctly and never decreases).
    public static func segmentDistance(_ p1: Coord, _ p2: Coord, _ q1: Coord, _ q2: Coord) -> Double {
        if segmentsIntersect(p1, p2, q1, q2) { return 0 }
        func square(_ v: Coord) -> Double { v.x * v.x + v.y * v.y }
        let d1 = square(sub(p1, closestOnSegment(p1, q1, q2).0)), d2 = square(sub(p2, closestOnSegment(p2, q1, q2).0))
        let d3 = square(sub(q1, closestOnSegment(q1, p1, p2).0)), d4 = square(sub(q2, closestOnSegment(q2, p1, p2).0))
        return min(min(d1, d2), min(d3, d4)).squareRoot()
    }

    /// True when some edge of `rings` comes within `d` of the polyline `line`.
    public static func ringsNear<Rings: Sequence>(_ rings: Rings, _ line: [Coord], within d: Double) -> Bool
        where Rings.Element: CoordRing {
        guard line.count > 1 else { return false }
        for ring in rings where ring.count > 1 {
            let rb = BBox(covering: ring).expanded(by: d)
            for j in 0..<(line.count - 1) {
                let q1 = line[j], q2 = line[j + 1]
                let sb = BBox(minX: min(q1.x, q2.x), minY: min(q1.y, q2.y), maxX: max(q1.x, q2.x), maxY: max(q1.y, q2.y))
                guard sb.intersects(rb) else { continue }
                for i in 0..<(ring.count - 1) where segmentDistance(ring[i], ring[i + 1], q1, q2) <= d { return true }
            }
        }
        return false
    }

    /// Distance from `p` to the nearest edge of `rings` (0 when covered).
    public static func distance<Rings: Sequence>(from p: Coord, toRings rings: Rings) -> Double
        where Rings.Element: CoordRing {
        if covers(rings, p, tolerance: 0) { return 0 }
        return nearestOnEdges(of: rings, to: p).distance
    }

    /// The point of the rings' edges nearest `p` and its distance (p itself and infinity for
    /// rings with no edge), whether or not the rings cover `p`.
    public static func nearestOnEdges<Rings: Sequence>(of rings: Rings, to p: Coord) -> (point: Coord, distance: Double)
        where Rings.Element: CoordRing {
        var best = p, bestD = Double.infinity
        for r in rings where r.count > 1 {
            for i in 0..<(r.count - 1) {
                let (c, _) = closestOnSegment(p, r[i], r[i + 1])
                let d = length(sub(p, c))
                if d < bestD { bestD = d; best = c }
            }
        }
        return (best, bestD)
    }

    /// Distance between an area (`rings`) and a polyline (0 when the line touches or enters
    /// the area); `nil` when it is more than `maxDistance`. Edge pairs whose boxes lie farther
    /// apart than the best distance so far are skipped.
    public static func distance<Rings: Sequence, Line: CoordRing>(rings: Rings, ringsBox: BBox, line: Line, maxDistance: Double) -> Double?
        where Rings.Element: CoordRing {
        guard let first = line.first else { return nil }
        // A line that starts in the area (or on its edge) is at 0; one that starts outside its
        // envelope (by more than a millimetre, far above any rounding) cannot.
        if ringsBox.expanded(by: Planar.roundingMargin).contains(first) && covers(rings, first, tolerance: 0) { return 0 }
        var best = maxDistance
        var found = false
        let n = max(1, line.count - 1)
        for j in 0..<n {
            let q1 = line[j], q2 = line.count > 1 ? line[j + 1] : line[j]
            let eb = BBox(minX: min(q1.x, q2.x), minY: min(q1.y, q2.y), maxX: max(q1.x, q2.x), maxY: max(q1.y, q2.y))
            guard eb.intersects(ringsBox.expanded(by: best)) else { continue }
            for r in rings where r.count > 1 {
                for i in 0..<(r.count - 1) {
                    // An edge whose box lies farther from this one than the best so far (by more
                    // than the margin) is farther than it: not measured.
                    let p1 = r[i], p2 = r[i + 1], reach = best + Planar.roundingMargin
                    if min(p1.x, p2.x) - eb.maxX > reach || eb.minX - max(p1.x, p2.x) > reach
                        || min(p1.y, p2.y) - eb.maxY > reach || eb.minY - max(p1.y, p2.y) > reach { continue }
                    let d = segmentDistance(p1, p2, q1, q2)
                    if d <= best { best = d; found = true }
                    if best == 0 { return 0 }
                }
            }
        }
        return found ? best : nil
    }

    /// The least and the greatest depth of the rings' corners beyond `p` along the unit vector
    /// `dir` (infinite and minus infinite for empty rings).
    public static func depthRange<Rings: Sequence>(of rings: Rings, from p: Coord, along dir: Coord) -> (lo: Double, hi: Double)
        where Rings.Element: CoordRing {
        var lo = Double.infinity, hi = -Double.infinity
        for r in rings {
            for c in r { let k = dot(sub(c, p), dir); lo = min(lo, k); hi = max(hi, k) }
        }
        return (lo, hi)
    }

    /// The point of the rings' edges nearest `p` (p itself for empty rings).
    public static func closestPoint<Rings: Sequence>(on rings: Rings, to p: Coord) -> Coord
        where Rings.Element: CoordRing {
        nearestOnEdges(of: rings, to: p).point
    }

    /// Signed area of a closed ring (shoelace; positive counter-clockwise), square units.
    public static func ringArea<Ring: CoordRing>(_ r: Ring) -> Double {
        guard r.count > 2 else { return 0 }
        var a = 0.0
        for i in 0..<(r.count - 1) { a += cross(r[i], r[i + 1]) }
        return a / 2
    }

    /// True when the point lies inside the area bounded by `rings` (crossing-number rule over
    /// every ring, so holes and separate parts of a valid polygon count right) or within
    /// `tolerance` of an edge: `covers` in the standard sense, boundary included.
    public static func covers<Rings: Sequence>(_ rings: Rings, _ p: Coord, tolerance: Double) -> Bool
        where Rings.Element: CoordRing {
        // The crossings first, cheap; the distance to each edge only for a point they leave out.
        var inside = false
        for ring in rings where ring.count > 1 {
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                if (a.y > p.y) != (b.y > p.y) {
                    let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
                    if p.x < x { inside.toggle() }
                }
            }
        }
        if inside { return true }
        for ring in rings where ring.count > 1 {
            for i in 0..<(ring.count - 1) where length(sub(p, closestOnSegment(p, ring[i], ring[i + 1]).0)) <= tolerance {
                return true
            }
        }
        return false
    }

    /// True for a closed ring of at least four positions, with area, whose edges meet only
    /// where consecutive edges share a vertex: a valid polygon shell on its own. A
    /// conservative fast path: false sends the caller to GEOS's full validity check.
    public static func isSimpleRing<Ring: CoordRing>(_ r: Ring) -> Bool {
        let n = r.count - 1  // edges
        guard n >= 3, r.first == r.last, n <= 64 else { return false }
        var area2 = 0.0
        for i in 0..<n {
            area2 += cross(r[i], r[i + 1])
            if r[i] == r[i + 1] { return false }
        }
        guard area2 != 0 else { return false }
        for i in 0..<n {
            for j in (i + 1)..<n {
                let adjacent = j == i + 1 || (i == 0 && j == n - 1)
                if adjacent {
                    // Consecutive edges may only share their common vertex: no fold-back.
                    let (a, b, c) = j == i + 1 ? (r[i], r[i + 1], r[j + 1]) : (r[j], r[0], r[1])
                    if cross(sub(b, a), sub(c, b)) == 0 && dot(sub(b, a), sub(c, b)) < 0 { return false }
                    continue
                }
                if segmentsTouch(r[i], r[i + 1], r[j], r[j + 1]) { return false }
            }
        }
        return true
    }

    /// True when closed segments p1–p2 and q1–q2 share any point.
    static func segmentsTouch(_ p1: Coord, _ p2: Coord, _ q1: Coord, _ q2: Coord) -> Bool {
        // Segments whose boxes stand apart share no point (most pairs of a ring's edges).
        if max(p1.x, p2.x) < min(q1.x, q2.x) || max(q1.x, q2.x) < min(p1.x, p2.x)
            || max(p1.y, p2.y) < min(q1.y, q2.y) || max(q1.y, q2.y) < min(p1.y, p2.y) { return false }
        let d1 = cross(sub(q2, q1), sub(p1, q1)), d2 = cross(sub(q2, q1), sub(p2, q1))
        let d3 = cross(sub(p2, p1), sub(q1, p1)), d4 = cross(sub(p2, p1), sub(q2, p1))
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        func onSegment(_ a: Coord, _ b: Coord, _ p: Coord) -> Bool {
            min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
        }
        if d1 == 0 && onSegment(q1, q2, p1) { return true }
        if d2 == 0 && onSegment(q1, q2, p2) { return true }
        if d3 == 0 && onSegment(p1, p2, q1) { return true }
        if d4 == 0 && onSegment(p1, p2, q2) { return true }
        return false
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

extension Planar {
    /// An order of lines by their drawing (first point, last point, length), the same whatever
    /// the order of the input they came in.
    static func drawnBefore(_ p: [Coord], _ q: [Coord]) -> Bool {
        (p[0].x, p[0].y, p[p.count - 1].x, p[p.count - 1].y, p.count) < (q[0].x, q[0].y, q[q.count - 1].x, q[q.count - 1].y, q.count)
    }
}
