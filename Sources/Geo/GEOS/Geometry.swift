import CGEOS

/// One GEOS geometry, owned; destroyed with this object. Bound to the context it was made in.
public final class Geometry {
    public let context: GEOSContext
    let ptr: OpaquePointer

    init(_ context: GEOSContext, owning ptr: OpaquePointer) {
        self.context = context
        self.ptr = ptr
    }

    deinit { GEOSGeom_destroy_r(context.handle, ptr) }

    private static func wrap(_ context: GEOSContext, _ p: OpaquePointer?, _ op: String) throws(GEOSError) -> Geometry {
        guard let p else { throw context.error(op) }
        return Geometry(context, owning: p)
    }

    // MARK: construction

    static func coordSeq(_ context: GEOSContext, _ coords: [Coord]) throws(GEOSError) -> OpaquePointer {
        let seq = coords.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: Double.self) { d in
                GEOSCoordSeq_copyFromBuffer_r(context.handle, d.baseAddress, UInt32(coords.count), 0, 0)
            }
        }
        guard let seq else { throw context.error("coordinate sequence") }
        return seq
    }

    public static func point(_ context: GEOSContext, _ c: Coord) throws(GEOSError) -> Geometry {
        try wrap(context, GEOSGeom_createPointFromXY_r(context.handle, c.x, c.y), "point")
    }

    public static func lineString(_ context: GEOSContext, _ coords: [Coord]) throws(GEOSError) -> Geometry {
        let seq = try coordSeq(context, coords)
        return try wrap(context, GEOSGeom_createLineString_r(context.handle, seq), "linestring")
    }

    public static func rectangle(_ context: GEOSContext, _ b: BBox) throws(GEOSError) -> Geometry {
        try wrap(context, GEOSGeom_createRectangle_r(context.handle, b.minX, b.minY, b.maxX, b.maxY), "rectangle")
    }

    static func makePolygon(_ context: GEOSContext, _ p: PolygonCoords) throws(GEOSError) -> OpaquePointer {
        guard let shellCoords = p.rings.first else { throw GEOSError(operation: "polygon", message: "no rings") }
        let shellSeq = try coordSeq(context, shellCoords)
        guard let shell = GEOSGeom_createLinearRing_r(context.handle, shellSeq) else { throw context.error("linear ring") }
        var holes: [OpaquePointer?] = []
        for r in p.rings.dropFirst() {
            let seq = try coordSeq(context, r)
            guard let h = GEOSGeom_createLinearRing_r(context.handle, seq) else {
                GEOSGeom_destroy_r(context.handle, shell)
                for h in holes { GEOSGeom_destroy_r(context.handle, h) }
                throw context.error("linear ring")
            }
            holes.append(h)
        }
        let poly = holes.withUnsafeMutableBufferPointer { hb in
            GEOSGeom_createPolygon_r(context.handle, shell, hb.baseAddress, UInt32(hb.count))
        }
        guard let poly else { throw context.error("polygon") }
        return poly
    }

    /// A Polygon for one part, a MultiPolygon for several.
    public static func polygon(_ context: GEOSContext, _ parts: [PolygonCoords]) throws(GEOSError) -> Geometry {
        if parts.count == 1 { return Geometry(context, owning: try makePolygon(context, parts[0])) }
        var polys: [OpaquePointer?] = []
        for p in parts {
            do { polys.append(try makePolygon(context, p)) } catch {
                for q in polys { GEOSGeom_destroy_r(context.handle, q) }
                throw error
            }
        }
        let multi = polys.withUnsafeMutableBufferPointer { pb in
            GEOSGeom_createCollection_r(context.handle, Int32(GEOS_MULTIPOLYGON.rawValue), pb.baseAddress, UInt32(pb.count))
        }
        return try wrap(context, multi, "multipolygon")
    }

    public static func fromWKT(_ context: GEOSContext, _ wkt: String) throws(GEOSError) -> Geometry {
        guard let reader = GEOSWKTReader_create_r(context.handle) else { throw context.error("WKT reader") }
        defer { GEOSWKTReader_destroy_r(context.handle, reader) }
        return try wrap(context, GEOSWKTReader_read_r(context.handle, reader, wkt), "WKT read of '\(wkt.prefix(80))'")
    }

    public var wkt: String {
        guard let w = GEOSWKTWriter_create_r(context.handle) else { return "" }
        defer { GEOSWKTWriter_destroy_r(context.handle, w) }
        GEOSWKTWriter_setTrim_r(context.handle, w, 1)
        guard let s = GEOSWKTWriter_write_r(context.handle, w, ptr) else { return "" }
        defer { GEOSFree_r(context.handle, s) }
        return String(cString: s)
    }

    // MARK: properties

    public var typeName: String {
        guard let s = GEOSGeomType_r(context.handle, ptr) else { return "" }
        defer { GEOSFree_r(context.handle, s) }
        return String(cString: s)
    }
    public var isEmpty: Bool { GEOSisEmpty_r(context.handle, ptr) == 1 }
    public var isValid: Bool { GEOSisValid_r(context.handle, ptr) == 1 }
    /// Why the geometry is invalid ("Valid Geometry" when it is valid).
    public var validityReason: String {
        guard let s = GEOSisValidReason_r(context.handle, ptr) else { return "" }
        defer { GEOSFree_r(context.handle, s) }
        return String(cString: s)
    }

    /// Area in square units of the coordinates (m² once projected); 0 for points and lines.
    public func area() throws(GEOSError) -> Double {
        var a = 0.0
        guard GEOSArea_r(context.handle, ptr, &a) == 1 else { throw context.error("area") }
        return a
    }

    public func envelope() -> BBox {
        var b = BBox.empty
        guard GEOSGeom_getXMin_r(context.handle, ptr, &b.minX) == 1,
              GEOSGeom_getYMin_r(context.handle, ptr, &b.minY) == 1,
              GEOSGeom_getXMax_r(context.handle, ptr, &b.maxX) == 1,
              GEOSGeom_getYMax_r(context.handle, ptr, &b.maxY) == 1 else { return .empty }
        return b
    }

    /// The coordinate of a Point geometry.
    public func pointCoord() throws(GEOSError) -> Coord {
        var c = Coord(0, 0)
        guard GEOSGeomGetX_r(context.handle, ptr, &c.x) == 1, GEOSGeomGetY_r(context.handle, ptr, &c.y) == 1 else {
            throw context.error("point coordinate")
        }
        return c
    }

    // MARK: constructive

    /// A valid geometry covering the same area (GEOS make-valid, structure method keeping
    /// polygons polygonal). A valid input comes back as a copy.
    public func makeValid() throws(GEOSError) -> Geometry {
        try Geometry.wrap(context, GEOSMakeValid_r(context.handle, ptr), "make-valid")
    }

    /// The polygonal part of a geometry (drops points and lines make-valid may leave).
    public func polygonalPart() throws(GEOSError) -> Geometry {
        let t = GEOSGeomTypeId_r(context.handle, ptr)
        if t == Int32(GEOS_POLYGON.rawValue) || t == Int32(GEOS_MULTIPOLYGON.rawValue) {
            return try Geometry.wrap(context, GEOSGeom_clone_r(context.handle, ptr), "clone")
        }
        guard t == Int32(GEOS_GEOMETRYCOLLECTION.rawValue) else {
            return try Geometry.wrap(context, GEOSGeom_createEmptyPolygon_r(context.handle), "empty polygon")
        }
        var polys: [OpaquePointer?] = []
        let n = GEOSGetNumGeometries_r(context.handle, ptr)
        for i in 0..<n {
            guard let g = GEOSGetGeometryN_r(context.handle, ptr, i) else { continue }
            let gt = GEOSGeomTypeId_r(context.handle, g)
            if gt == Int32(GEOS_POLYGON.rawValue) {
                polys.append(GEOSGeom_clone_r(context.handle, g))
            } else if gt == Int32(GEOS_MULTIPOLYGON.rawValue) {
                for j in 0..<GEOSGetNumGeometries_r(context.handle, g) {
                    polys.append(GEOSGeom_clone_r(context.handle, GEOSGetGeometryN_r(context.handle, g, j)))
                }
            }
        }
        let multi = polys.withUnsafeMutableBufferPointer { pb in
            GEOSGeom_createCollection_r(context.handle, Int32(GEOS_MULTIPOLYGON.rawValue), pb.baseAddress, UInt32(pb.count))
        }
        return try Geometry.wrap(context, multi, "multipolygon")
    }

    /// A point guaranteed to lie in the interior of an areal geometry.
    public func pointOnSurface() throws(GEOSError) -> Geometry {
        try Geometry.wrap(context, GEOSPointOnSurface_r(context.handle, ptr), "point on surface")
    }

    public func centroid() throws(GEOSError) -> Geometry {
        try Geometry.wrap(context, GEOSGetCentroid_r(context.handle, ptr), "centroid")
    }

    // MARK: measures and predicates

    /// Minimum Cartesian distance (units of the coordinates); 0 when they intersect.
    public func distance(to other: Geometry) throws(GEOSError) -> Double {
        var d = 0.0
        guard GEOSDistance_r(context.handle, ptr, other.ptr, &d) == 1 else { throw context.error("distance") }
        return d
    }

    /// The closest pair of points: (on self, on other).
    public func nearestPoints(to other: Geometry) throws(GEOSError) -> (Coord, Coord) {
        guard let seq = GEOSNearestPoints_r(context.handle, ptr, other.ptr) else { throw context.error("nearest points") }
        defer { GEOSCoordSeq_destroy_r(context.handle, seq) }
        var a = Coord(0, 0), b = Coord(0, 0)
        GEOSCoordSeq_getXY_r(context.handle, seq, 0, &a.x, &a.y)
        GEOSCoordSeq_getXY_r(context.handle, seq, 1, &b.x, &b.y)
        return (a, b)
    }

    /// No point of `other` lies outside self (boundary points count, unlike `contains`).
    public func covers(_ other: Geometry) throws(GEOSError) -> Bool {
        let r = GEOSCovers_r(context.handle, ptr, other.ptr)
        guard r != 2 else { throw context.error("covers") }
        return r == 1
    }

    public func intersects(_ other: Geometry) throws(GEOSError) -> Bool {
        let r = GEOSIntersects_r(context.handle, ptr, other.ptr)
        guard r != 2 else { throw context.error("intersects") }
        return r == 1
    }

    /// Distance along a line to the point on it closest to `point` (units of the coordinates).
    public func project(_ point: Geometry) -> Double {
        GEOSProject_r(context.handle, ptr, point.ptr)
    }
}

extension Geometry {
    private func coords(of seqOwner: OpaquePointer) -> [Coord] {
        guard let seq = GEOSGeom_getCoordSeq_r(context.handle, seqOwner) else { return [] }
        var n: UInt32 = 0
        GEOSCoordSeq_getSize_r(context.handle, seq, &n)
        var out: [Coord] = []
        out.reserveCapacity(Int(n))
        for i in 0..<n {
            var x = 0.0, y = 0.0
            GEOSCoordSeq_getXY_r(context.handle, seq, i, &x, &y)
            out.append(Coord(x, y))
        }
        return out
    }

    private func polygonCoords(_ g: OpaquePointer) -> PolygonCoords {
        var rings: [[Coord]] = []
        if let shell = GEOSGetExteriorRing_r(context.handle, g) { rings.append(coords(of: shell)) }
        let holes = GEOSGetNumInteriorRings_r(context.handle, g)
        if holes > 0 {
            for i in 0..<holes { if let h = GEOSGetInteriorRingN_r(context.handle, g, i) { rings.append(coords(of: h)) } }
        }
        return PolygonCoords(rings: rings)
    }

    /// The parts of a Polygon or MultiPolygon (empty parts left out); [] for other types.
    public func polygons() -> [PolygonCoords] {
        let t = GEOSGeomTypeId_r(context.handle, ptr)
        if t == Int32(GEOS_POLYGON.rawValue) { return isEmpty ? [] : [polygonCoords(ptr)] }
        guard t == Int32(GEOS_MULTIPOLYGON.rawValue) else { return [] }
        return (0..<GEOSGetNumGeometries_r(context.handle, ptr)).compactMap { i in
            guard let g = GEOSGetGeometryN_r(context.handle, ptr, i), GEOSisEmpty_r(context.handle, g) == 0 else { return nil }
            return polygonCoords(g)
        }
    }

    /// The vertices of a LineString or Point; [] for other types.
    public func lineCoords() -> [Coord] {
        let t = GEOSGeomTypeId_r(context.handle, ptr)
        guard t == Int32(GEOS_LINESTRING.rawValue) || t == Int32(GEOS_POINT.rawValue) else { return [] }
        return coords(of: ptr)
    }
}
