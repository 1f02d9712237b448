import Geo

/// A polygon ring moved sideways by a distance, the way a stroke's edge runs: the outer edge
/// of a stroke of width 2h along the ring is the ring offset by +h, its inner edge the ring
/// offset by -h. Filling the outer ring in the stroke's colour and then the inner ring in the
/// fill's colour paints what a fill followed by a centred stroke paints (both opaque), at
/// the price of two fills: Cairo's stroker is the costliest step of a footprint map.
/// A ring is loaded once and offset both ways; the buffers are kept from ring to ring.
struct RingOffset {
    /// Cairo's default miter limit: a join longer than this many half widths is bevelled.
    static let miterLimit = 10.0

    /// What offsetting one ring gave.
    enum Outcome: Equatable {
        /// The offset ring is in `ring` (not closed; at least three points).
        case ring
        /// An inward ring that vanished: the band covers the whole ring.
        case empty
        /// The offset is not a simple shift of each edge (an outward edge that turned round,
        /// two edges that are parallel once a shorter one between them vanished, a corner
        /// that doubles back, a degenerate ring): draw a real stroke instead.
        case unsupported
    }

    /// The last offset ring (pixels).
    private(set) var ring: [Coord] = []
    /// The loaded ring without repeated points, and twice its signed area.
    private var base: [Coord] = [], area2 = 0.0
    private var q: [Coord] = [], normals: [Coord] = [], starts: [Int] = [], ends: [Int] = []

    /// Takes `points` (pixels, the closing point may repeat the first) as the ring to offset,
    /// repeated points skipped; false, with nothing loaded, when fewer than three distinct
    /// points or no area are left.
    mutating func load(_ points: some Collection<Coord>) -> Bool {
        base.removeAll(keepingCapacity: true)
        for p in points where base.last.map({ $0.x != p.x || $0.y != p.y }) ?? true { base.append(p) }
        if let f = base.first, let l = base.last, base.count > 1, f.x == l.x, f.y == l.y { base.removeLast() }
        area2 = base.count >= 3 ? Self.doubleArea(base) : 0
        guard area2 != 0, area2.isFinite else { base.removeAll(keepingCapacity: true); return false }
        return true
    }

    /// `points` loaded, then offset by `h` (see `offset(by:)`).
    mutating func offset(_ points: some Collection<Coord>, by h: Double) -> Outcome {
        load(points) ? offset(by: h) : .unsupported
    }

    /// The loaded ring offset by `h` pixels into `ring`: h > 0 outward, h < 0 inward, whatever
    /// the ring's orientation. Joins on the outside of a turn are mitred, or bevelled beyond
    /// `miterLimit`; on the inside of a turn the two shifted edges meet at their crossing. An
    /// edge too short to survive the shift (its shifted copy turns round) is dropped and its
    /// neighbours meet where their lines cross, as the ring's straight skeleton has it.
    mutating func offset(by h: Double) -> Outcome {
        guard !base.isEmpty else { return .unsupported }
        q.removeAll(keepingCapacity: true)
        q.append(contentsOf: base)
        // Each pass drops one edge; a ring has fewer edges to drop than it has points.
        for _ in 0..<q.count {
            guard let turned = shift(by: h, side: area2 > 0 ? 1 : -1) else { return .unsupported }
            if turned < 0 { return .ring }
            guard h < 0 else { return .unsupported }
            // An inward ring turned inside out, or a ring that fits between two parallel lines
            // closer than the band is wide: no point of it is that far from its edge.
            if Self.doubleArea(ring) * area2 <= 0 || q.count <= 3 || narrowestWidth() < -2 * h { return .empty }
            guard drop(edge: turned, reach: -h) else { return .unsupported }
        }
        return .unsupported
    }

    /// Hands the last offset ring over in `buffer`, whose storage serves the next one.
    mutating func takeRing(_ buffer: inout [Coord]) { swap(&ring, &buffer) }

    /// Fills `ring` with `q` shifted by `h`. Returns the first edge whose shifted copy turned
    /// round, -1 when none did, nil when a corner cannot be placed.
    private mutating func shift(by h: Double, side: Double) -> Int? {
        let n = q.count
        normals.removeAll(keepingCapacity: true)
        for i in 0..<n {
            let a = q[i], b = q[(i + 1) % n]
            let dx = b.x - a.x, dy = b.y - a.y, len = (dx * dx + dy * dy).squareRoot()
            normals.append(Coord(side * dy / len, -side * dx / len))
        }
        ring.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        for i in 0..<n {
            let n1 = normals[(i + n - 1) % n], n2 = normals[i], v = q[i]
            let sx = n1.x + n2.x, sy = n1.y + n2.y, sum2 = sx * sx + sy * sy
            // A convex corner moved outward, or a reflex one moved inward, needs a join; at
            // any other corner the two shifted edges cross.
            let outside = ((n1.x * n2.y - n1.y * n2.x) * side > 0) == (h > 0)
            let tooSharp = sum2 < 4 / (Self.miterLimit * Self.miterLimit)
            ends.append(ring.count)
            if tooSharp && outside {
                ring.append(Coord(v.x + h * n1.x, v.y + h * n1.y))
                ring.append(Coord(v.x + h * n2.x, v.y + h * n2.y))
            } else if sum2 < 1e-12 {
                return nil
            } else {
                let k = 2 * h / sum2
                ring.append(Coord(v.x + k * sx, v.y + k * sy))
            }
            starts.append(ring.count - 1)
        }
        for i in 0..<n {
            let a = ring[starts[i]], b = ring[ends[(i + 1) % n]], o0 = q[i], o1 = q[(i + 1) % n]
            if (b.x - a.x) * (o1.x - o0.x) + (b.y - a.y) * (o1.y - o0.y) <= 0 { return i }
        }
        return -1
    }

    /// Replaces edge `i` of `q` by the point where the lines of its two neighbours cross;
    /// false when they do not (parallel), or cross further than `reach` from where the edge
    /// lay, beyond its length.
    private mutating func drop(edge i: Int, reach: Double) -> Bool {
        let n = q.count
        let a0 = q[(i + n - 1) % n], a1 = q[i], b0 = q[(i + 1) % n], b1 = q[(i + 2) % n]
        let dax = a1.x - a0.x, day = a1.y - a0.y, dbx = b1.x - b0.x, dby = b1.y - b0.y
        let den = dax * dby - day * dbx
        let scale = (dax * dax + day * day).squareRoot() * (dbx * dbx + dby * dby).squareRoot()
        guard abs(den) > 1e-9 * scale else { return false }
        let t = ((b0.x - a0.x) * dby - (b0.y - a0.y) * dbx) / den
        let x = Coord(a0.x + t * dax, a0.y + t * day)
        let ex = b0.x - a1.x, ey = b0.y - a1.y
        let far = (ex * ex + ey * ey).squareRoot() + 4 * reach
        guard (x.x - a1.x) * (x.x - a1.x) + (x.y - a1.y) * (x.y - a1.y) <= far * far else { return false }
        if i + 1 < n {
            q[i] = x
            q.remove(at: i + 1)
        } else {
            q[i] = x
            q.remove(at: 0)
        }
        return true
    }

    /// The least width of `q` across the normal of any of its edges (pixels).
    private func narrowestWidth() -> Double {
        var least = Double.infinity
        for i in normals.indices {
            let m = normals[i]
            var lo = Double.infinity, hi = -Double.infinity
            for p in q { let d = p.x * m.x + p.y * m.y; lo = min(lo, d); hi = max(hi, d) }
            least = min(least, hi - lo)
        }
        return least
    }

    /// Twice the signed area (shoelace) of a ring given without its closing point.
    static func doubleArea(_ r: [Coord]) -> Double {
        var s = 0.0
        for i in r.indices { let a = r[i], b = r[(i + 1) % r.count]; s += a.x * b.y - b.x * a.y }
        return s
    }
}
