import Geo

/// An axis-aligned rectangle in pixels (y down).
public struct PixelRect: Equatable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }
    public func intersects(_ o: PixelRect) -> Bool {
        x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
    }
    public func inset(by d: Double) -> PixelRect { PixelRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
}

/// Collision boxes for labels and map furniture: a label is placed only where its box
/// (with padding) overlaps no box placed before it. A uniform grid keeps lookups local.
public struct LabelPlacer: Sendable {
    private let cell: Double
    private var grid: [Int: [PixelRect]] = [:]
    public private(set) var placed = 0

    /// `cellSize`: grid spacing in pixels, about a label's size.
    public init(cellSize: Double = 64) { cell = max(cellSize, 1) }

    private func cells(_ r: PixelRect) -> [Int] {
        let x0 = Int((r.x / cell).rounded(.down)), x1 = Int(((r.x + r.width) / cell).rounded(.down))
        let y0 = Int((r.y / cell).rounded(.down)), y1 = Int(((r.y + r.height) / cell).rounded(.down))
        var out: [Int] = []
        for y in y0...max(y0, y1) { for x in x0...max(x0, x1) { out.append(y &* 100_003 &+ x) } }
        return out
    }

    /// True when `r` overlaps nothing placed.
    public func isFree(_ r: PixelRect) -> Bool {
        for c in cells(r) { if let list = grid[c], list.contains(where: { $0.intersects(r) }) { return false } }
        return true
    }

    /// Reserves `r` without checking (map furniture: title, legend, scale bar).
    public mutating func reserve(_ r: PixelRect) {
        for c in cells(r) { grid[c, default: []].append(r) }
    }

    /// Places `r` when free; returns whether it was placed.
    public mutating func place(_ r: PixelRect) -> Bool {
        guard isFree(r) else { return false }
        reserve(r)
        placed += 1
        return true
    }
}

public enum InteriorPoint {
    /// A point strictly inside a polygon (`rings[0]` shell, the rest holes) in planar
    /// coordinates: the middle of the widest inside span on the horizontal line through the
    /// middle of the shell's box. Nil for a degenerate polygon (no area on that line).
    public static func of(_ rings: [[Coord]]) -> Coord? {
        guard let shell = rings.first, shell.count >= 4 else { return nil }
        let box = BBox(covering: shell)
        // Nudge off the exact middle so the line rarely passes through a vertex.
        let y = box.minY + (box.maxY - box.minY) * 0.5001
        var xs: [Double] = []
        for ring in rings {
            guard ring.count >= 2 else { continue }
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                if (a.y <= y) != (b.y <= y) {
                    xs.append(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x))
                }
            }
        }
        xs.sort()
        var best: (Double, Double)?
        var i = 0
        while i + 1 < xs.count {
            let w = xs[i + 1] - xs[i]
            if w > 0, w > (best.map { $0.1 - $0.0 } ?? 0) { best = (xs[i], xs[i + 1]) }
            i += 2
        }
        guard let (l, r) = best else { return nil }
        return Coord((l + r) / 2, y)
    }
}
