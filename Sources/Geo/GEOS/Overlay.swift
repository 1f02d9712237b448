import CGEOS

extension Geometry {
    /// A collection of these parts (copies; points, lines and polygons may mix). Empty parts
    /// give an empty collection.
    public static func collection(_ context: GEOSContext, _ parts: [Geometry]) throws(GEOSError) -> Geometry {
        var copies: [OpaquePointer?] = []
        for p in parts {
            guard let c = GEOSGeom_clone_r(context.handle, p.ptr) else {
                for q in copies { GEOSGeom_destroy_r(context.handle, q) }
                throw context.error("clone")
            }
            copies.append(c)
        }
        let made = copies.withUnsafeMutableBufferPointer { pb in
            GEOSGeom_createCollection_r(context.handle, Int32(GEOS_GEOMETRYCOLLECTION.rawValue), pb.baseAddress, UInt32(pb.count))
        }
        guard let made else { throw context.error("geometry collection") }
        return Geometry(context, owning: made)
    }

    /// Every point within `width` (units of the coordinates) of the geometry, one valid
    /// polygonal area (overlapping parts dissolved); a round cap and join drawn with
    /// `quadrantSegments` segments a quarter circle. Width 0 or less of a line or point: empty.
    public func buffer(_ width: Double, quadrantSegments: Int = 8) throws(GEOSError) -> Geometry {
        guard let g = GEOSBuffer_r(context.handle, ptr, width, Int32(quadrantSegments)) else { throw context.error("buffer \(width)") }
        return Geometry(context, owning: g)
    }

    /// The area both geometries cover (GEOS overlay); empty when they do not meet.
    public func intersection(_ other: Geometry) throws(GEOSError) -> Geometry {
        guard let g = GEOSIntersection_r(context.handle, ptr, other.ptr) else { throw context.error("intersection") }
        return Geometry(context, owning: g)
    }

    /// The union of a collection's parts, dissolved. For polygons that only share edges (a
    /// coverage, such as Voronoi cells) the faster coverage union is used.
    public func union(coverage: Bool = false) throws(GEOSError) -> Geometry {
        let g = coverage ? GEOSCoverageUnion_r(context.handle, ptr) : GEOSUnaryUnion_r(context.handle, ptr)
        guard let g else { throw context.error(coverage ? "coverage union" : "union") }
        return Geometry(context, owning: g)
    }

    /// The Voronoi cells of the geometry's vertices (duplicates count once), each a polygon,
    /// clipped to `envelope` grown to cover the vertices; in no stated order (GEOS 3.11).
    public func voronoiCells(envelope: BBox) throws(GEOSError) -> [Geometry] {
        let env = try Geometry.rectangle(context, envelope)
        guard let g = GEOSVoronoiDiagram_r(context.handle, ptr, env.ptr, 0, 0) else { throw context.error("Voronoi diagram") }
        let all = Geometry(context, owning: g)
        return try all.parts()
    }

    /// Copies of a collection's parts; [self's copy] for a single geometry.
    public func parts() throws(GEOSError) -> [Geometry] {
        let n = GEOSGetNumGeometries_r(context.handle, ptr)
        guard n >= 0 else { throw context.error("number of parts") }
        var out: [Geometry] = []
        for i in 0..<n {
            guard let part = GEOSGetGeometryN_r(context.handle, ptr, i), let copy = GEOSGeom_clone_r(context.handle, part) else {
                throw context.error("part \(i)")
            }
            out.append(Geometry(context, owning: copy))
        }
        return out
    }
}
