import CGEOS

/// A GEOS STRtree over item envelopes; items are integer indexes into the caller's array.
/// Build it with `insert`, then query (the first query freezes the tree).
public final class SpatialIndex {
    public let context: GEOSContext
    let tree: OpaquePointer
    /// Envelope geometries, kept alive as long as the tree refers to them.
    private var envelopes: [Geometry] = []

    public init(_ context: GEOSContext, nodeCapacity: Int = 10) throws(GEOSError) {
        guard let t = GEOSSTRtree_create_r(context.handle, nodeCapacity) else { throw context.error("STRtree") }
        self.context = context
        self.tree = t
    }

    deinit { GEOSSTRtree_destroy_r(context.handle, tree) }

    public func insert(_ item: Int, _ box: BBox) throws(GEOSError) {
        let g = try Geometry.rectangle(context, box)
        envelopes.append(g)
        GEOSSTRtree_insert_r(context.handle, tree, g.ptr, UnsafeMutableRawPointer(bitPattern: item + 1))
    }

    /// Indexes `item` by the envelope of a geometry the caller keeps (no copy is made).
    public func insert(_ item: Int, geometry: Geometry) {
        envelopes.append(geometry)
        GEOSSTRtree_insert_r(context.handle, tree, geometry.ptr, UnsafeMutableRawPointer(bitPattern: item + 1))
    }

    /// The items whose envelope intersects `box`, sorted ascending.
    public func query(_ box: BBox) throws(GEOSError) -> [Int] {
        let q = try Geometry.rectangle(context, box)
        var found: [Int] = []
        withUnsafeMutablePointer(to: &found) { fp in
            GEOSSTRtree_query_r(context.handle, tree, q.ptr, { item, userdata in
                guard let userdata else { return }
                let list = userdata.assumingMemoryBound(to: [Int].self)
                list.pointee.append(Int(bitPattern: item) - 1)
            }, fp)
        }
        found.sort()
        return found
    }
}
