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
        let buildings = layers.buildings.map { b in
            MapBuilding(id: b.gersID, polygons: b.polygons, status: b.status, scansTotal: b.scansTotal,
                        qrScanned: b.scansTotal > 0, featureStatus: b.featureStatus, label: b.houseNumber,
                        isOrphan: b.featureStatus == "orphan_building")
        }
        return MapData(buildings: buildings, roads: layers.roads.map { MapRoad(line: $0.line, roadClass: $0.roadClass) },
                       title: layers.name.isEmpty ? nil : layers.name)
    }
}
