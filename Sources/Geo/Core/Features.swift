/// A position: longitude/latitude in degrees (EPSG:4326) as read, or metres once projected.
public struct Coord: Hashable, Sendable {
    public var x: Double
    public var y: Double
    @inlinable public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// A polygon: `rings[0]` is the shell, the rest are holes. Each ring is closed (first == last).
public struct PolygonCoords: Hashable, Sendable {
    public var rings: [[Coord]]
    public init(rings: [[Coord]]) { self.rings = rings }
}

/// A building's footprint: the rings of all its parts one after another in one coordinate
/// array. A single ring, the common house, keeps no offsets, so it costs one allocation
/// instead of three nested arrays.
public struct Footprint: Sendable, Equatable {
    /// Every ring of every part, in order.
    public private(set) var coords: [Coord]
    /// Where each ring ends in `coords`; empty for one part of one non-empty ring.
    private var ringEnds: [Int32]
    /// Where each part ends, counted in rings; empty when `ringEnds` is.
    private var partEnds: [Int32]

    public init(_ polygons: [PolygonCoords]) {
        var coords: [Coord] = [], ringEnds: [Int32] = [], partEnds: [Int32] = []
        coords.reserveCapacity(polygons.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } })
        for p in polygons {
            for r in p.rings { coords.append(contentsOf: r); ringEnds.append(Int32(coords.count)) }
            partEnds.append(Int32(ringEnds.count))
        }
        self.init(coords: coords, ringEnds: ringEnds, partEnds: partEnds)
    }

    /// `ringEnds` and `partEnds` as defined above, but always given in full.
    init(coords: [Coord], ringEnds: [Int32], partEnds: [Int32]) {
        self.coords = coords
        let single = partEnds.count == 1 && ringEnds.count == 1 && !coords.isEmpty
        self.ringEnds = single ? [] : ringEnds
        self.partEnds = single ? [] : partEnds
    }

    /// How many rings, all parts together.
    public var ringCount: Int { ringEnds.isEmpty && !coords.isEmpty ? 1 : ringEnds.count }
    /// How many parts (polygons).
    public var partCount: Int { ringEnds.isEmpty && !coords.isEmpty ? 1 : partEnds.count }
    /// Where ring `k` lies in `coords`.
    public func ringRange(_ k: Int) -> Range<Int> {
        ringEnds.isEmpty ? coords.indices : (k == 0 ? 0 : Int(ringEnds[k - 1]))..<Int(ringEnds[k])
    }
    /// The rings of part `p`, by ring number.
    public func partRings(_ p: Int) -> Range<Int> {
        partEnds.isEmpty ? 0..<ringCount : (p == 0 ? 0 : Int(partEnds[p - 1]))..<Int(partEnds[p])
    }

    /// How many rings each part has.
    public var partSizes: [Int] { (0..<partCount).map { partRings($0).count } }

    /// The parts as nested arrays.
    public var polygons: [PolygonCoords] {
        (0..<partCount).map { p in PolygonCoords(rings: partRings(p).map { Array(coords[ringRange($0)]) }) }
    }

    /// The envelope of the parts' shells.
    public var shellBox: BBox {
        var b = BBox.empty
        for p in 0..<partCount {
            let rings = partRings(p)
            if let shell = rings.first { for c in coords[ringRange(shell)] { b.expand(c) } }
        }
        return b
    }
}

/// An Overture `building` feature.
public struct Building: Sendable, Equatable {
    public var id: String
    public var footprint: Footprint
    /// Parts of the footprint (one for a Polygon, several for a MultiPolygon), as nested
    /// arrays made on each read; hot paths read `footprint`.
    public var polygons: [PolygonCoords] {
        get { footprint.polygons }
        set { footprint = Footprint(newValue) }
    }
    /// Height in metres, when known.
    public var height: Double?
    public var numFloors: Int?
    public var subtype: String?
    public var buildingClass: String?
    /// Raw JSON text of `names` and `sources`, kept as read (nil when absent).
    public var namesJSON: String?
    public var sourcesJSON: String?
    public var bbox: BBox

    public init(id: String, polygons: [PolygonCoords], height: Double? = nil, numFloors: Int? = nil,
                subtype: String? = nil, buildingClass: String? = nil,
                namesJSON: String? = nil, sourcesJSON: String? = nil) {
        self.init(id: id, footprint: Footprint(polygons), height: height, numFloors: numFloors, subtype: subtype,
                  buildingClass: buildingClass, namesJSON: namesJSON, sourcesJSON: sourcesJSON)
    }

    public init(id: String, footprint: Footprint, height: Double? = nil, numFloors: Int? = nil,
                subtype: String? = nil, buildingClass: String? = nil,
                namesJSON: String? = nil, sourcesJSON: String? = nil) {
        self.id = id; self.footprint = footprint; self.height = height; self.numFloors = numFloors
        self.subtype = subtype; self.buildingClass = buildingClass
        self.namesJSON = namesJSON; self.sourcesJSON = sourcesJSON
        self.bbox = footprint.shellBox
    }

    /// Outbuildings (subtype `outbuilding`, or a class such as garage, shed, carport) are
    /// poor address targets when a main building is also a candidate. By its tags only: the
    /// linker also takes a footprint too small or too low for a home as one
    /// (`LinkWeights.smallFootprint`, `LinkWeights.lowHeight`).
    public var isOutbuilding: Bool {
        if subtype == "outbuilding" { return true }
        guard let c = buildingClass else { return false }
        return Building.outbuildingClasses.contains(c)
    }
    /// A roof with no walls (Overture's `roof`, `carport`, `bridge_structure`): a point under it
    /// is not in it, so it never covers an address; it stays an outbuilding for BUFFER and
    /// NEAREST.
    public var isOpenStructure: Bool { buildingClass.map(Building.openClasses.contains) ?? false }
    public static let openClasses: Set<String> = ["roof", "carport", "bridge_structure"]
    public static let outbuildingClasses: Set<String> = [
        "garage", "garages", "shed", "carport", "hut", "cabin", "barn", "greenhouse",
        "outbuilding", "storage_tank", "container", "kiosk", "toilets", "hangar",
        // Overture's classes of structures that are not someone's address: roofs over a
        // platform or a yard, farm and utility structures, small shelters.
        "roof", "bridge_structure", "digester", "silo", "slurry_tank", "transformer_tower", "glasshouse",
        "sty", "cowshed", "stable", "farm_auxiliary", "boathouse", "beach_hut", "allotment_house",
        "wayside_shrine", "shrine", "guardhouse", "grandstand", "bunker",
    ]
}

/// An Overture `address` feature.
public struct Address: Sendable, Equatable {
    public var id: String
    public var point: Coord
    public var number: String?
    public var street: String?
    public var unit: String?
    public var postcode: String?
    public var postalCity: String?
    public var country: String?
    /// Raw JSON text of `address_levels` and `sources`, kept as read.
    public var addressLevelsJSON: String?
    public var sourcesJSON: String?

    public init(id: String, point: Coord, number: String? = nil, street: String? = nil,
                unit: String? = nil, postcode: String? = nil, postalCity: String? = nil,
                country: String? = nil, addressLevelsJSON: String? = nil, sourcesJSON: String? = nil) {
        self.id = id; self.point = point; self.number = number; self.street = street
        self.unit = unit; self.postcode = postcode; self.postalCity = postalCity
        self.country = country; self.addressLevelsJSON = addressLevelsJSON; self.sourcesJSON = sourcesJSON
    }
    public var bbox: BBox { BBox(around: point, radius: 0) }
}

/// An Overture transportation `segment` feature.
public struct Segment: Sendable, Equatable {
    public var id: String
    public var line: [Coord]
    public var subtype: String?
    public var segmentClass: String?
    public var subclass: String?
    /// `names.primary`.
    public var name: String?
    public var namesJSON: String?
    public var sourcesJSON: String?
    public var bbox: BBox

    public init(id: String, line: [Coord], subtype: String? = nil, segmentClass: String? = nil,
                subclass: String? = nil, name: String? = nil, namesJSON: String? = nil, sourcesJSON: String? = nil) {
        self.id = id; self.line = line; self.subtype = subtype; self.segmentClass = segmentClass
        self.subclass = subclass; self.name = name; self.namesJSON = namesJSON; self.sourcesJSON = sourcesJSON
        self.bbox = BBox(covering: line)
    }
}
