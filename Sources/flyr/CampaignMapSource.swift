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

/// A campaign GeoPackage drawn per view: its name and roads loaded, its buildings read
/// through the R-tree by each drawing thread as it draws.
struct CampaignStreamSource: StreamingMapSource {
    var path: String

    func loadOverlay() throws -> MapData {
        let store = try CampaignStore(path: path, readOnly: true)
        let overlay = try store.mapOverlay()
        try store.close()
        return MapData(roads: overlay.roads.map { MapRoad(line: $0.line, roadClass: $0.roadClass, name: $0.name) },
                       title: overlay.name.isEmpty ? nil : overlay.name)
    }

    func buildingExtent() throws -> BBox {
        let reader = try CampaignMapReader(path: path)
        let extent = try reader.buildingExtent()
        try reader.close()
        return extent
    }

    func openReader() throws -> BuildingReader { CampaignBuildingReader(try CampaignMapReader(path: path)) }
}

/// The campaign file's rows as the renderer's batches (`hand`).
private final class CampaignBuildingReader: BuildingReader {
    private let reader: CampaignMapReader
    private var batch = BuildingBatch()
    init(_ reader: CampaignMapReader) { self.reader = reader }

    var buildingsRead: Int { reader.rowsRead }

    func read(area: BBox, sortFirst: Bool, _ body: (inout BuildingBatch) throws -> Void) throws {
        do {
            try reader.buildings(in: area, sortFirst: sortFirst) { rows in try hand(&rows, as: &batch, to: body) }
        } catch let e as CampaignMapReader.NotInIDOrder {
            throw BuildingOrderError(e.description)
        }
    }

    func labels(keys: [Int64]) throws -> [Int64: String] { try reader.houseNumbers(fids: keys) }

    func close() throws { try reader.close() }
}

/// Hands a campaign reader's rows to `body` as the renderer's batch: the same arrays lent
/// (swapped in and back), each row made a `MapBuilding` as `mapData` makes it (orphan when
/// `orphan_building`, scanned when scans > 0), keyed by its `fid`.
func hand(_ rows: inout CampaignMapReader.Batch, as batch: inout BuildingBatch, to body: (inout BuildingBatch) throws -> Void) throws {
    swap(&batch.coords, &rows.coords)
    swap(&batch.rings, &rows.rings)
    defer { swap(&batch.coords, &rows.coords); swap(&batch.rings, &rows.rings) }
    batch.members.removeAll(keepingCapacity: true)
    for r in rows.rows {
        batch.members.append(BuildingBatch.Member(key: r.fid, rings: r.rings, building: MapBuilding(
            id: r.gersID, polygons: [], status: r.status, scansTotal: r.scansTotal, qrScanned: r.scansTotal > 0,
            featureStatus: r.featureStatus, label: nil, isOrphan: r.featureStatus == "orphan_building")))
    }
    try body(&batch)
}
