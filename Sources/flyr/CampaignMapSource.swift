import Campaign
import Geo
import Render

/// A campaign GeoPackage as a map: statuses from its building_stats, house numbers from its
/// addresses, roads from its segments, titled with the campaign's name.
struct CampaignMapSource: MapSource {
    var path: String

    func loadMapData() throws -> MapData {
        let store = try CampaignStore(path: path, readOnly: true)
        let layers = try store.mapLayers()
        try store.close()
        return mapData(layers)
    }
}

/// A campaign in the product's PostGIS database as a map, read straight from its tables.
struct PostGISMapSource: MapSource {
    var url: String
    var campaignID: String

    func loadMapData() throws -> MapData {
        let id = campaignID
        let layers = try withPostGIS(url) { store in
            let l = try await store.mapLayers(campaign: id)
            return CampaignLayers(name: l.name, buildings: l.buildings, roads: l.roads.map { RoadRow(line: $0.line, roadClass: $0.roadClass, name: $0.name) })
        }
        return mapData((layers.name, layers.buildings, layers.roads.map { ($0.line, $0.roadClass, $0.name) }))
    }
}

/// What the map sources read, in a form that crosses tasks.
private struct CampaignLayers: Sendable {
    var name: String
    var buildings: [CampaignStore.MapBuildingRow]
    var roads: [RoadRow]
}
private struct RoadRow: Sendable { var line: [Coord]; var roadClass: String?; var name: String? }

/// Map data from a campaign's layers: statuses, house numbers, roads, the name as title.
private func mapData(_ layers: (name: String, buildings: [CampaignStore.MapBuildingRow], roads: [(line: [Coord], roadClass: String?, name: String?)])) -> MapData {
    let buildings = layers.buildings.map { b in
        MapBuilding(id: b.gersID, polygons: b.polygons, status: b.status, scansTotal: b.scansTotal,
                    qrScanned: b.scansTotal > 0, featureStatus: b.featureStatus, label: b.houseNumber,
                    isOrphan: b.featureStatus == "orphan_building")
    }
    return MapData(buildings: buildings, roads: layers.roads.map { MapRoad(line: $0.line, roadClass: $0.roadClass, name: $0.name) },
                   title: layers.name.isEmpty ? nil : layers.name)
}
