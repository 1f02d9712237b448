import Foundation

/// Web Mercator (EPSG:3857) forward, computed in place the way PROJ's pipeline
/// `unitconvert deg→rad | webmerc` computes it (degrees times PROJ's degree factor, then
/// x = a·λ and y = a·asinh(tan φ) on the sphere a = 6378137 m, through the same C library
/// functions), so its metres are `Projection.webMercator()`'s to the bit, without a PROJ call
/// per point. Defined for longitudes within ±180° and latitudes within ±90° (open): with any
/// coordinate outside them `forward` returns false and projects nothing.
public enum WebMercator {
    /// PROJ's factor from degrees to radians.
    static let radiansPerDegree = 0.017453292519943296

    /// Projects `coords` (lon, lat degrees) to metres in place; false, with nothing changed,
    /// when one is out of range (PROJ wraps longitudes; use it there).
    public static func forward(_ coords: UnsafeMutableBufferPointer<Coord>) -> Bool {
        guard coords.allSatisfy({ abs($0.x) <= 180 && abs($0.y) < 90 }) else { return false }
        let a = MapRadius.metres
        for i in coords.indices {
            let c = coords[i]
            let lam = c.x * radiansPerDegree, phi = c.y * radiansPerDegree
            // PROJ adds the false easting and northing (0): -0 comes out as +0.
            coords[i] = Coord(a * lam + 0, a * asinh(tan(phi)) + 0)
        }
        return true
    }
}

/// The sphere of Web Mercator.
enum MapRadius {
    static let metres = 6378137.0
}
