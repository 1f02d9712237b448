import Foundation

/// Directions in degrees clockwise from true north.
public enum Bearing {
    /// `degrees` brought into [0, 360). Not finite gives nil.
    public static func normalized(_ degrees: Double) -> Double? {
        guard degrees.isFinite else { return nil }
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        return d >= 360 ? 0 : d
    }

    /// The axis of a direction, folded to [0, 180): a line and its reverse share one axis.
    public static func axial(_ degrees: Double) -> Double? {
        guard let d = normalized(degrees) else { return nil }
        let a = d >= 180 ? d - 180 : d
        return a >= 180 ? 0 : a
    }

    /// The smallest angle in degrees between two bearings taken modulo `period` (360 for
    /// directions, 180 for axes); in [0, period / 2].
    public static func difference(_ a: Double, _ b: Double, period: Double = 360) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: period)
        return min(d, period - d)
    }

    /// Grid azimuth of the vector `from → to` in projected metres (x east, y north): degrees
    /// clockwise from the projection's grid north in [0, 360). Equal points give nil.
    public static func grid(from a: Coord, to b: Coord) -> Double? {
        let dx = b.x - a.x, dy = b.y - a.y
        guard dx != 0 || dy != 0 else { return nil }
        return normalized(atan2(dx, dy) * 180 / .pi)
    }

    /// Geodesic azimuth on WGS84 from `a` to `b` (lon, lat in degrees), degrees clockwise from
    /// true north in [0, 360). Equal points give nil.
    public static func geodesic(from a: Coord, to b: Coord) -> Double? {
        Geodesic.inverse(a, b).azimuth
    }
}

extension Projection {
    /// Meridian convergence at `lonLat` (degrees): the grid azimuth of true north there,
    /// in degrees clockwise from grid north, in (-180, 180]. A true bearing is a grid
    /// bearing minus this angle. 0 on the central meridian of a transverse Mercator.
    /// Measured by projecting a step of 1e-6° of latitude (about 0.1 m) northward; the step
    /// goes south within 1e-6° of the north pole.
    public func convergence(at lonLat: Coord) throws(ProjError) -> Double {
        let step = lonLat.y > 90 - 2e-6 ? -1e-6 : 1e-6
        var pair = [lonLat, Coord(lonLat.x, lonLat.y + step)]
        try forward(&pair)
        guard let g = Bearing.grid(from: pair[0], to: pair[1]) else { return 0 }
        let north = step > 0 ? g : g + 180
        let n = Bearing.normalized(north) ?? 0
        return n > 180 ? n - 360 : n
    }

    /// True bearing (degrees clockwise from true north, [0, 360)) of the projected vector
    /// `from → to`, corrected for the meridian convergence at `from`. Equal points give nil.
    public func trueBearing(from a: Coord, to b: Coord) throws(ProjError) -> Double? {
        guard let g = Bearing.grid(from: a, to: b) else { return nil }
        return Bearing.normalized(g - (try convergence(at: try inverse(a))))
    }
}
