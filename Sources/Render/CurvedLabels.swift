import Foundation
import Geo

/// One cluster of a name bent along its road.
struct CurvedCluster: Equatable {
    /// The left end of the cluster's baseline-parallel middle line, on the road line (pixels):
    /// the cluster is drawn from here, centred across the line.
    var origin: Coord
    /// Radians from the +x axis (y down): the direction of the road from the cluster's start
    /// to its end.
    var angle: Double
    /// The cluster's advance (pixels).
    var width: Double
}

/// Where a name bent along a curved road sits.
struct CurvedSpot: Equatable {
    /// The clusters in the order they were given (logical order), each on the line.
    var clusters: [CurvedCluster]
    /// The reading direction: the clusters' advance-weighted mean direction, radians, within
    /// [-π/2, π/2] (the name reads left to right).
    var angle: Double
    /// The middle of the name along the line (pixels), for the spacing between repeats.
    var centre: Coord
    /// The largest turn between two neighbouring clusters, radians.
    var turn: Double
}

enum CurvedLabelGeometry {
    /// The largest turn between neighbouring clusters, radians (22.5°: mapnik's default
    /// character angle limit; QGIS's curved placement allows 25°). Past it letters splay
    /// apart on the outside of the bend and crowd on the inside, and the name stops reading
    /// as one word.
    static let maxTurn = 22.5 * Double.pi / 180

    /// Spots along `line` (pixels) for a name of `clusters` (left edge and advance on the unbent
    /// line, any order; pixels), `pad` pixels of room at each end, one window every `step`
    /// pixels of arc, where every cluster's chord keeps the line within `tolerance` pixels,
    /// neighbours (left to right) turn at most `maxTurn`, and no cluster turns more than 90°
    /// from the reading direction. The direction of travel is flipped when most of the name
    /// would point leftwards, so the name never reads upside down. The gentlest first (in steps
    /// of a third of `maxTurn`: a drawn arc's vertices alone make small turns), then nearest the
    /// middle. Empty when the line is shorter than the name.
    static func spots(_ line: [Coord], clusters: [GlyphClusters.Cluster], pad: Double, step: Double,
                      tolerance: Double, maxTurn: Double = maxTurn) -> [CurvedSpot] {
        guard line.count >= 2, !clusters.isEmpty else { return [] }
        let path = ArcPath(line)
        let left = clusters.map(\.x).min()!, width = clusters.map { $0.x + $0.width }.max()! - left
        let length = width + 2 * pad
        guard width > 0, path.total >= length else { return [] }
        let visual = clusters.indices.sorted { clusters[$0].x < clusters[$1].x }
        let slack = path.total - length
        let count = Int((slack / max(step, 1)).rounded(.down)) + 1
        let first = (slack - Double(count - 1) * step) / 2
        var out: [(spot: CurvedSpot, offMiddle: Double)] = []
        for k in 0..<count {
            let a = first + Double(k) * step
            // Arc distance of a point `u` pixels from the name's left end, in a direction of travel.
            func along(_ u: Double, forward: Bool) -> Double { forward ? a + pad + u : a + length - pad - u }
            func place(forward: Bool) -> [CurvedCluster]? {
                var placed: [CurvedCluster] = []
                for c in clusters {
                    let s = along(c.x - left, forward: forward), e = along(c.x - left + c.width, forward: forward)
                    let p = path.point(at: s), q = path.point(at: e)
                    guard path.deviation(from: s, to: e) <= tolerance else { return nil }
                    let angle = c.width > 0.5 ? atan2(q.y - p.y, q.x - p.x) : path.direction(at: s) + (forward ? 0 : Double.pi)
                    placed.append(CurvedCluster(origin: p, angle: angle, width: c.width))
                }
                return placed
            }
            guard var placed = place(forward: true) else { continue }
            var dx = 0.0, dy = 0.0
            for c in placed { dx += c.width * cos(c.angle); dy += c.width * sin(c.angle) }
            if dx < 0 || (dx == 0 && dy < 0) {
                guard let back = place(forward: false) else { continue }
                placed = back
                dx = 0; dy = 0
                for c in placed { dx += c.width * cos(c.angle); dy += c.width * sin(c.angle) }
            }
            let reading = atan2(dy, dx)
            guard placed.allSatisfy({ abs(turn(reading, $0.angle)) < Double.pi / 2 }) else { continue }
            var most = 0.0
            for (i, j) in zip(visual, visual.dropFirst()) { most = max(most, abs(turn(placed[i].angle, placed[j].angle))) }
            guard most <= maxTurn else { continue }
            out.append((CurvedSpot(clusters: placed, angle: reading, centre: path.point(at: a + length / 2), turn: most),
                        abs(a + length / 2 - path.total / 2)))
        }
        let bin = maxTurn / 3
        return out.sorted {
            let ta = ($0.spot.turn / bin).rounded(.down), tb = ($1.spot.turn / bin).rounded(.down)
            return ta != tb ? ta < tb : $0.offMiddle < $1.offMiddle
        }.map(\.spot)
    }

    /// The signed turn from direction `a` to `b`, radians in (-π, π].
    static func turn(_ a: Double, _ b: Double) -> Double {
        var d = (b - a).truncatingRemainder(dividingBy: 2 * Double.pi)
        if d > Double.pi { d -= 2 * Double.pi } else if d <= -Double.pi { d += 2 * Double.pi }
        return d
    }

    /// One bounding box per cluster: its `width` × `height` box, centred across the line and
    /// turned to the cluster's angle, grown by `pad`.
    static func boxes(_ spot: CurvedSpot, height: Double, pad: Double) -> [PixelRect] {
        spot.clusters.map { c in
            let co = cos(c.angle), si = sin(c.angle)
            let x = c.origin.x + c.width / 2 * co, y = c.origin.y + c.width / 2 * si
            let ex = c.width / 2 * abs(co) + height / 2 * abs(si) + pad, ey = c.width / 2 * abs(si) + height / 2 * abs(co) + pad
            return PixelRect(x: x - ex, y: y - ey, width: 2 * ex, height: 2 * ey)
        }
    }
}

/// A polyline measured along its arc (pixels).
struct ArcPath {
    let line: [Coord]
    /// Arc distance of each vertex from the first.
    let arc: [Double]
    var total: Double { arc[arc.count - 1] }

    init(_ line: [Coord]) {
        self.line = line
        var arc = [0.0]
        for i in line.indices.dropFirst() { arc.append(arc[i - 1] + hypot(line[i].x - line[i - 1].x, line[i].y - line[i - 1].y)) }
        self.arc = arc
    }

    /// The index of the vertex ending the edge that holds arc distance `d` (clamped to the line).
    private func edge(at d: Double) -> Int {
        var lo = 1, hi = arc.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if arc[mid] < d { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The point `d` pixels along the line (clamped to its ends).
    func point(at d: Double) -> Coord {
        let i = edge(at: d)
        let span = arc[i] - arc[i - 1]
        let t = span > 0 ? min(1, max(0, (d - arc[i - 1]) / span)) : 0
        return Coord(line[i - 1].x + t * (line[i].x - line[i - 1].x), line[i - 1].y + t * (line[i].y - line[i - 1].y))
    }

    /// The direction of the edge holding arc distance `d`, radians from +x (y down).
    func direction(at d: Double) -> Double {
        let i = edge(at: d)
        return atan2(line[i].y - line[i - 1].y, line[i].x - line[i - 1].x)
    }

    /// The largest distance of the line's vertices strictly between arc distances `s` and `e`
    /// (either order) from the chord joining the points there; 0 for a chord shorter than a pixel.
    func deviation(from s: Double, to e: Double) -> Double {
        let a = min(s, e), b = max(s, e)
        let p = point(at: a), q = point(at: b)
        let chord = hypot(q.x - p.x, q.y - p.y)
        guard chord >= 1 else { return 0 }
        var most = 0.0
        var i = edge(at: a)
        while i < arc.count - 1, arc[i] < b {
            if arc[i] > a {
                let cross = (q.x - p.x) * (line[i].y - p.y) - (q.y - p.y) * (line[i].x - p.x)
                most = max(most, abs(cross) / chord)
            }
            i += 1
        }
        return most
    }
}
