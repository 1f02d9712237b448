import Geo

/// A building as the map draws it: footprint in degrees plus campaign state.
public struct MapBuilding: Sendable, Equatable {
    /// GERS id.
    public var id: String
    public var polygons: [PolygonCoords]
    /// Campaign status as recorded (`hot`, `visited`, …); nil when none.
    public var status: String?
    public var scansTotal: Int
    public var qrScanned: Bool
    /// The web map's `feature_status`, kept as read.
    public var featureStatus: String?
    /// House number (or short address) drawn inside the footprint; nil draws none.
    public var label: String?
    /// No address is linked to the building.
    public var isOrphan: Bool

    public init(id: String, polygons: [PolygonCoords], status: String? = nil, scansTotal: Int = 0,
                qrScanned: Bool = false, featureStatus: String? = nil, label: String? = nil, isOrphan: Bool = false) {
        self.id = id; self.polygons = polygons; self.status = status; self.scansTotal = scansTotal
        self.qrScanned = qrScanned; self.featureStatus = featureStatus; self.label = label; self.isOrphan = isOrphan
    }
}

/// A road centreline in degrees with its Overture segment class.
public struct MapRoad: Sendable, Equatable {
    public var line: [Coord]
    public var roadClass: String?
    public var name: String?
    public init(line: [Coord], roadClass: String? = nil, name: String? = nil) {
        self.line = line; self.roadClass = roadClass; self.name = name
    }
}

/// The part of a map drawn normally (a turf), the rest dimmed, with its walk.
public struct MapFocus: Sendable, Equatable {
    /// GERS ids of the buildings drawn normally; every other building is dimmed.
    public var buildingIDs: Set<String>
    /// The walk from door to door in order, degrees; drawn as a line over the map.
    public var route: [Coord]
    public init(buildingIDs: Set<String>, route: [Coord]) { self.buildingIDs = buildingIDs; self.route = route }
}

/// Everything a map shows, independent of where it was read from.
public struct MapData: Sendable, Equatable {
    public var buildings: [MapBuilding]
    public var roads: [MapRoad]
    public var title: String?
    /// Mandatory credit; a style may append to it.
    public var attribution: String
    /// When set, only this part is drawn normally and the view fits it.
    public var focus: MapFocus?

    public static let baseAttribution = "© OpenStreetMap contributors, Overture Maps Foundation"

    public init(buildings: [MapBuilding] = [], roads: [MapRoad] = [], title: String? = nil,
                attribution: String = MapData.baseAttribution) {
        self.buildings = buildings; self.roads = roads; self.title = title; self.attribution = attribution
    }

    /// Bounding box of the buildings in degrees (of the roads when there are no buildings:
    /// road segments run on far past the campaign); empty when there is nothing. With a focus,
    /// the box of its buildings and route.
    public var extent: BBox {
        var b = BBox.empty
        if let focus {
            for c in focus.route { b.expand(c) }
            for building in buildings where focus.buildingIDs.contains(building.id) {
                for p in building.polygons { for c in p.rings.first ?? [] { b.expand(c) } }
            }
            if !b.isEmpty { return b }
        }
        for building in buildings { for p in building.polygons { for c in p.rings.first ?? [] { b.expand(c) } } }
        if b.isEmpty { for r in roads { for c in r.line { b.expand(c) } } }
        return b
    }
}
