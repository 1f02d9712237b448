/// The point on surface GIS tools give a polygon of one ring (GEOS's `GEOSPointOnSurface`, JTS's
/// `InteriorPointArea`), worked out here without making a GEOS geometry: a horizontal line is
/// laid between the two vertex heights nearest the middle of the ring's height (so it meets no
/// vertex), the ring's edges crossing it are cut, and the point is the middle of the widest
/// stretch of that line inside the ring. The same arithmetic in the same order, so the same
/// point to the bit (`ScanLinePointTests` holds it to GEOS on random and real rings).
enum ScanLinePoint {
    /// The point for the ring `ring`; nil for a ring not closed or of fewer than four positions
    /// (GEOS refuses them), and where the line meets no edge or an odd count of them (a ring of
    /// no area or one that crosses itself), for the caller to ask GEOS.
    static func of<Ring: CoordRing>(ring: Ring) -> Coord? {
        guard ring.count >= 4, ring.first == ring.last else { return nil }
        var low = Double.infinity, high = -Double.infinity
        for i in 0..<ring.count {
            low = Swift.min(low, ring[i].y); high = Swift.max(high, ring[i].y)
        }
        // The heights of the vertices nearest the middle, below (or at) it and above it.
        let middle = (low + high) / 2
        for i in 0..<ring.count {
            let y = ring[i].y
            if y <= middle {
                if y > low { low = y }
            } else if y < high {
                high = y
            }
        }
        let scanY = (high + low) / 2
        var crossings: [Double] = []
        for i in 1..<ring.count {
            let p = ring[i - 1], q = ring[i]
            // Edges wholly above or below the line, level edges, and the end of an edge at the line
            // that the next edge leaves on the same side, cross nothing.
            if (p.y > scanY && q.y > scanY) || (p.y < scanY && q.y < scanY) || p.y == q.y { continue }
            if (p.y == scanY && q.y < scanY) || (q.y == scanY && p.y < scanY) { continue }
            if p.x == q.x {
                crossings.append(p.x)
            } else {
                let slope = (q.y - p.y) / (q.x - p.x)
                crossings.append(p.x + (scanY - p.y) / slope)
            }
        }
        guard !crossings.isEmpty, crossings.count % 2 == 0 else { return nil }
        crossings.sort()
        var widest = 0.0, point: Coord? = nil
        for k in stride(from: 0, to: crossings.count, by: 2) {
            let width = crossings[k + 1] - crossings[k]
            if width > widest {
                widest = width
                point = Coord((crossings[k] + crossings[k + 1]) / 2, scanY)
            }
        }
        // No stretch wider than nothing: GEOS keeps the ring's first vertex; left to it.
        return point
    }
}
