extension BBox {
    /// The smallest box holding every address point, in degrees: the campaign's bbox.
    /// No addresses give `.empty`.
    public static func extent<C: Collection>(of addresses: C) -> BBox where C.Element == Address {
        var b = BBox.empty
        for a in addresses { b.expand(a.point) }
        return b
    }

    /// The box's centre; nil when it is empty.
    public var center: Coord? { isEmpty ? nil : Coord((minX + maxX) / 2, (minY + maxY) / 2) }
}

/// Spatial lookups over the three layers in degrees (lon/lat), an STRtree per layer. A
/// feature is selected by an exact GEOS test of its geometry (not its bbox). Results are
/// sorted by id. Footprints are built on first use; invalid ones are repaired (make-valid).
/// Confine it to one task.
public final class FeatureIndex {
    /// Build query geometries (territories) in this context.
    public let context: GEOSContext
    public let buildings: [Building]
    public let addresses: [Address]
    public let segments: [Segment]
    private let buildingTree: SpatialIndex
    private let addressTree: SpatialIndex
    private let segmentTree: SpatialIndex
    private var footprints: [Geometry?]
    private var lines: [Geometry?]

    public init(buildings: [Building] = [], addresses: [Address] = [], segments: [Segment] = [],
                context: GEOSContext = GEOSContext()) throws(GEOSError) {
        self.context = context
        self.buildings = buildings
        self.addresses = addresses
        self.segments = segments
        footprints = Array(repeating: nil, count: buildings.count)
        lines = Array(repeating: nil, count: segments.count)
        buildingTree = try SpatialIndex(context)
        for (i, b) in buildings.enumerated() { try buildingTree.insert(i, b.bbox) }
        addressTree = try SpatialIndex(context)
        for (i, a) in addresses.enumerated() { try addressTree.insert(i, a.bbox) }
        segmentTree = try SpatialIndex(context)
        for (i, s) in segments.enumerated() { try segmentTree.insert(i, s.bbox) }
    }

    /// Buildings whose footprint intersects the box (touching its edge counts), by id;
    /// the first `limit` of them when given.
    public func buildings(in box: BBox, limit: Int? = nil) throws(GEOSError) -> [Building] {
        let r = try PreparedGeometry(try region(box))
        return try buildings(matching: box, limit: limit) { g throws(GEOSError) in try r.intersects(g) }
    }

    /// Addresses whose point lies in the box or on its edge, by id. For a point, the STRtree's
    /// envelope test is already exact.
    public func addresses(in box: BBox, limit: Int? = nil) throws(GEOSError) -> [Address] {
        let found = try addressTree.query(box).map { addresses[$0] }
        return Self.sortedByID(found, limit: limit)
    }

    /// Segments whose line intersects the box, by id.
    public func segments(in box: BBox, limit: Int? = nil) throws(GEOSError) -> [Segment] {
        let r = try PreparedGeometry(try region(box))
        var found: [Segment] = []
        for i in try segmentTree.query(box) where try r.intersects(try line(i)) { found.append(segments[i]) }
        return Self.sortedByID(found, limit: limit)
    }

    /// Addresses whose point the territory covers (its boundary included), by id.
    /// `territory` is in degrees, built in `context`.
    public func addresses(coveredBy territory: Geometry) throws(GEOSError) -> [Address] {
        let t = try PreparedGeometry(territory)
        var found: [Address] = []
        for i in try addressTree.query(territory.envelope()) {
            if try t.covers(try Geometry.point(context, addresses[i].point)) { found.append(addresses[i]) }
        }
        return Self.sortedByID(found, limit: nil)
    }

    /// Buildings whose footprint intersects the territory, by id.
    public func buildings(intersecting territory: Geometry) throws(GEOSError) -> [Building] {
        let t = try PreparedGeometry(territory)
        return try buildings(matching: territory.envelope(), limit: nil) { g throws(GEOSError) in try t.intersects(g) }
    }

    /// The box as a geometry: a rectangle, or a line or point when it has no width or height
    /// (GEOS would make a zero-area polygon, which intersects nothing).
    public func region(_ box: BBox) throws(GEOSError) -> Geometry {
        let sw = Coord(box.minX, box.minY), ne = Coord(box.maxX, box.maxY)
        if sw == ne { return try Geometry.point(context, sw) }
        if box.minX == box.maxX || box.minY == box.maxY { return try Geometry.lineString(context, [sw, ne]) }
        return try Geometry.rectangle(context, box)
    }

    /// The footprint of building `i` in degrees, repaired when invalid.
    func footprint(_ i: Int) throws(GEOSError) -> Geometry {
        if let g = footprints[i] { return g }
        var g = try Geometry.polygon(context, buildings[i].polygons)
        if !g.isValid { g = try g.makeValid().polygonalPart() }
        footprints[i] = g
        return g
    }

    func line(_ i: Int) throws(GEOSError) -> Geometry {
        if let g = lines[i] { return g }
        let l = segments[i].line
        let g = l.count == 1 ? try Geometry.point(context, l[0]) : try Geometry.lineString(context, l)
        lines[i] = g
        return g
    }

    private func buildings(matching box: BBox, limit: Int?,
                           _ test: (Geometry) throws(GEOSError) -> Bool) throws(GEOSError) -> [Building] {
        var found: [Building] = []
        for i in try buildingTree.query(box) where try test(try footprint(i)) { found.append(buildings[i]) }
        return Self.sortedByID(found, limit: limit)
    }

    private static func sortedByID<F: OvertureFeature>(_ features: [F], limit: Int?) -> [F] {
        let sorted = features.sorted { $0.id < $1.id }
        guard let limit else { return sorted }
        return Array(sorted.prefix(max(0, limit)))
    }
}
