import CGEOS

/// A GEOS prepared geometry: indexed for many predicate calls against one geometry.
/// Keeps its base geometry alive.
public final class PreparedGeometry {
    public let base: Geometry
    let ptr: OpaquePointer

    public init(_ base: Geometry) throws(GEOSError) {
        guard let p = GEOSPrepare_r(base.context.handle, base.ptr) else { throw base.context.error("prepare") }
        self.base = base
        self.ptr = p
    }

    deinit { GEOSPreparedGeom_destroy_r(base.context.handle, ptr) }

    /// True when no point of `other` lies outside the base (a point on the boundary is covered).
    public func covers(_ other: Geometry) throws(GEOSError) -> Bool {
        let r = GEOSPreparedCovers_r(base.context.handle, ptr, other.ptr)
        guard r != 2 else { throw base.context.error("prepared covers") }
        return r == 1
    }

    public func intersects(_ other: Geometry) throws(GEOSError) -> Bool {
        let r = GEOSPreparedIntersects_r(base.context.handle, ptr, other.ptr)
        guard r != 2 else { throw base.context.error("prepared intersects") }
        return r == 1
    }

    /// Minimum distance to `other` (units of the coordinates); 0 when they intersect.
    public func distance(to other: Geometry) throws(GEOSError) -> Double {
        var d = 0.0
        guard GEOSPreparedDistance_r(base.context.handle, ptr, other.ptr, &d) == 1 else {
            throw base.context.error("prepared distance")
        }
        return d
    }
}
