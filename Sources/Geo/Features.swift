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

/// An Overture `building` feature.
public struct Building: Sendable, Equatable {
    public var id: String
    /// Parts of the footprint (one for a Polygon, several for a MultiPolygon).
    public var polygons: [PolygonCoords]
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
        self.id = id; self.polygons = polygons; self.height = height; self.numFloors = numFloors
        self.subtype = subtype; self.buildingClass = buildingClass
        self.namesJSON = namesJSON; self.sourcesJSON = sourcesJSON
        self.bbox = BBox(covering: polygons.lazy.flatMap { $0.rings.first ?? [] })
    }

    /// Outbuildings (subtype `outbuilding`, or a class such as garage, shed, carport) are
    /// poor address targets when a main building is also a candidate.
    public var isOutbuilding: Bool {
        if subtype == "outbuilding" { return true }
        guard let c = buildingClass else { return false }
        return Building.outbuildingClasses.contains(c)
    }
    public static let outbuildingClasses: Set<String> = [
        "garage", "garages", "shed", "carport", "hut", "cabin", "barn", "greenhouse",
        "outbuilding", "storage_tank", "container", "kiosk", "toilets", "hangar",
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
    public var bbox: BBox { BBox(minX: point.x, minY: point.y, maxX: point.x, maxY: point.y) }
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
