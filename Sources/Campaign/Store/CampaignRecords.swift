import Foundation
import GRDB
import Geo

// One record type per campaign table, shared by the GeoPackage and PostGIS stores. Times are
// UTC ISO 8601 text; geometries are in degrees (EPSG:4326).

/// A `campaigns` row.
public struct CampaignRecord: Sendable, Equatable {
    public var id: String
    public var name: String
    public var type: String
    /// draft, active, completed or paused.
    public var status: String
    /// pending, ready or failed.
    public var provisionStatus: String
    public var provisionError: String?
    /// The campaign's box in degrees; nil when it has none.
    public var bbox: BBox?
    /// JSON array of the input files with their SHA-256.
    public var sourceFiles: String
    public var inputsSHA256: String?
    public var overtureRelease: String?
    public var createdAt: String
    public var provisionedAt: String?

    /// What identifies one provision of the campaign: the inputs' fingerprint and the time it
    /// was written. Two pushes of the same provision carry the same version.
    public var provisionVersion: String { "\(inputsSHA256 ?? "-")@\(provisionedAt ?? "-")" }
}

/// A `buildings` row: a footprint with its link status.
public struct BuildingRecord: Sendable, Equatable {
    public var gersID: String
    public var polygons: [PolygonCoords]
    public var heightM: Double?
    public var levels: Int?
    public var subtype: String?
    public var buildingClass: String?
    /// matched or orphan_building.
    public var featureStatus: String
    public var addressCount: Int
    public var isMultiUnit: Bool
    public var names: String?
    public var sources: String?

    /// The Overture feature (height as stored, names and sources as JSON text).
    public var feature: Building {
        Building(id: gersID, polygons: polygons, height: heightM, numFloors: levels, subtype: subtype,
                 buildingClass: buildingClass, namesJSON: names, sourcesJSON: sources)
    }
}

/// A `campaign_addresses` row: an address with its link, orientation and field data.
public struct AddressRecord: Sendable, Equatable {
    public var gersID: String
    public var point: Coord
    public var number: String?
    public var street: String?
    public var unit: String?
    public var postcode: String?
    public var postalCity: String?
    public var country: String?
    public var addressLevels: String?
    public var sources: String?
    public var formatted: String
    public var buildingGersID: String?
    /// COVERS, BUFFER, NEAREST or NONE.
    public var matchMethod: String
    public var confidence: Double
    /// Metres.
    public var distanceM: Double
    public var streetMatch: Bool
    public var segmentGersID: String?
    /// Degrees clockwise from north in [0, 360).
    public var roadBearing: Double?
    public var houseBearing: Double?
    public var isOriented: Bool
    public var visited: Bool
    public var scans: Int
    /// Walking order, from 1.
    public var seq: Int
    public var qrSlug: String?

    public var feature: Address {
        Address(id: gersID, point: point, number: number, street: street, unit: unit, postcode: postcode,
                postalCity: postalCity, country: country, addressLevelsJSON: addressLevels, sourcesJSON: sources)
    }
}

/// A `segments` row: a road.
public struct SegmentRecord: Sendable, Equatable {
    public var gersID: String
    public var line: [Coord]
    public var subtype: String?
    public var segmentClass: String?
    public var subclass: String?
    public var name: String?
    public var names: String?
    public var sources: String?

    public var feature: Segment {
        Segment(id: gersID, line: line, subtype: subtype, segmentClass: segmentClass, subclass: subclass,
                name: name, namesJSON: names, sourcesJSON: sources)
    }
}

/// A `building_address_links` row; `buildingID` is the building's GERS id.
public struct LinkRecord: Sendable, Equatable {
    public var addressID: String
    public var buildingID: String
    public var method: String
    public var confidence: Double
    public var distanceM: Double
    public var streetMatch: Bool
}

/// A `building_stats` row: a building's field status and scan counters.
public struct BuildingStatsRecord: Sendable, Equatable {
    public var gersID: String
    /// not_visited, visited or hot.
    public var status: String
    public var scansTotal: Int
    public var scansToday: Int
    /// The UTC day (yyyy-MM-dd) `scansToday` counts.
    public var scansDay: String?
    public var lastScanAt: String?
}

/// A `scan_events` row.
public struct ScanEventRecord: Sendable, Equatable {
    public var eventID: String
    public var gersID: String
    public var addressID: String?
    public var qrSlug: String?
    public var scannedAt: String
    public var userAgent: String?
    public var ingestedAt: String
}

/// A whole campaign as rows: what `flyr push` sends and `flyr pull` brings back.
public struct CampaignSnapshot: Sendable, Equatable {
    public var campaign: CampaignRecord
    public var buildings: [BuildingRecord]
    public var addresses: [AddressRecord]
    public var segments: [SegmentRecord]
    public var links: [LinkRecord]
    public var stats: [BuildingStatsRecord]
    public var events: [ScanEventRecord]

    public init(campaign: CampaignRecord, buildings: [BuildingRecord] = [], addresses: [AddressRecord] = [],
                segments: [SegmentRecord] = [], links: [LinkRecord] = [], stats: [BuildingStatsRecord] = [],
                events: [ScanEventRecord] = []) {
        self.campaign = campaign; self.buildings = buildings; self.addresses = addresses; self.segments = segments
        self.links = links; self.stats = stats; self.events = events
    }
}

// MARK: GeoPackage

extension CampaignStore {
    /// Every row of the campaign, each table sorted by its key.
    public func snapshot() throws -> CampaignSnapshot {
        try db.read { db in
            guard let c = try Row.fetchOne(db, sql: "SELECT * FROM campaigns WHERE id = ?", arguments: [campaignID]) else {
                throw GeoPackageError.notACampaign(path)
            }
            let west: Double? = c["bbox_west"], south: Double? = c["bbox_south"], east: Double? = c["bbox_east"], north: Double? = c["bbox_north"]
            var bbox: BBox? = nil
            if let west, let south, let east, let north { bbox = BBox(minX: west, minY: south, maxX: east, maxY: north) }
            let campaign = CampaignRecord(
                id: c["id"], name: c["name"], type: c["type"], status: c["status"], provisionStatus: c["provision_status"],
                provisionError: c["provision_error"], bbox: bbox, sourceFiles: c["source_files"], inputsSHA256: c["inputs_sha256"],
                overtureRelease: c["overture_release"], createdAt: c["created_at"], provisionedAt: c["provisioned_at"])
            var s = CampaignSnapshot(campaign: campaign)
            for r in try Row.fetchAll(db, sql: "SELECT * FROM buildings ORDER BY gers_id") {
                guard case .multiPolygon(let ps) = try GeoPackageGeometry.decode(r["geom"]) else {
                    throw GeoPackageError.badGeometry("building \(r["gers_id"] as String) is not a polygon")
                }
                s.buildings.append(BuildingRecord(
                    gersID: r["gers_id"], polygons: ps, heightM: r["height_m"], levels: r["levels"], subtype: r["subtype"],
                    buildingClass: r["class"], featureStatus: r["feature_status"], addressCount: r["address_count"],
                    isMultiUnit: r["is_multi_unit"], names: r["names"], sources: r["sources"]))
            }
            for r in try Row.fetchAll(db, sql: "SELECT * FROM campaign_addresses ORDER BY gers_id") {
                guard case .point(let p) = try GeoPackageGeometry.decode(r["geom"]) else {
                    throw GeoPackageError.badGeometry("address \(r["gers_id"] as String) is not a point")
                }
                s.addresses.append(AddressRecord(
                    gersID: r["gers_id"], point: p, number: r["number"], street: r["street"], unit: r["unit"],
                    postcode: r["postcode"], postalCity: r["postal_city"], country: r["country"],
                    addressLevels: r["address_levels"], sources: r["sources"], formatted: r["formatted"],
                    buildingGersID: r["building_gers_id"], matchMethod: r["match_method"], confidence: r["confidence"],
                    distanceM: r["distance_m"], streetMatch: r["street_match"], segmentGersID: r["segment_gers_id"],
                    roadBearing: r["road_bearing"], houseBearing: r["house_bearing"], isOriented: r["is_oriented"],
                    visited: r["visited"], scans: r["scans"], seq: r["seq"], qrSlug: r["qr_slug"]))
            }
            for r in try Row.fetchAll(db, sql: "SELECT * FROM segments ORDER BY gers_id") {
                guard case .lineString(let l) = try GeoPackageGeometry.decode(r["geom"]) else {
                    throw GeoPackageError.badGeometry("segment \(r["gers_id"] as String) is not a line")
                }
                s.segments.append(SegmentRecord(gersID: r["gers_id"], line: l, subtype: r["subtype"], segmentClass: r["class"],
                                                subclass: r["subclass"], name: r["name"], names: r["names"], sources: r["sources"]))
            }
            for r in try Row.fetchAll(db, sql: "SELECT * FROM building_address_links WHERE campaign_id = ? ORDER BY address_id",
                                      arguments: [campaignID]) {
                s.links.append(LinkRecord(addressID: r["address_id"], buildingID: r["building_id"], method: r["method"],
                                          confidence: r["confidence"], distanceM: r["distance_m"], streetMatch: r["street_match"]))
            }
            for r in try Row.fetchAll(db, sql: "SELECT * FROM building_stats ORDER BY gers_id") {
                s.stats.append(BuildingStatsRecord(gersID: r["gers_id"], status: r["status"], scansTotal: r["scans_total"],
                                                   scansToday: r["scans_today"], scansDay: r["scans_day"], lastScanAt: r["last_scan_at"]))
            }
            for r in try Row.fetchAll(db, sql: "SELECT * FROM scan_events ORDER BY event_id") {
                s.events.append(ScanEventRecord(eventID: r["event_id"], gersID: r["gers_id"], addressID: r["address_id"],
                                                qrSlug: r["qr_slug"], scannedAt: r["scanned_at"], userAgent: r["user_agent"],
                                                ingestedAt: r["ingested_at"]))
            }
            return s
        }
    }

    /// Ids of the buildings, addresses and segments whose geometry intersects the box (touching
    /// its edge counts): candidates from the layers' R-trees, then an exact GEOS test, as
    /// `FeatureIndex` does for the extracts. Each layer sorted by id, the first `limit` kept.
    public func features(in box: BBox, limit: Int? = nil) throws -> (buildings: [Building], addresses: [Address], segments: [Segment]) {
        let rows = try db.read { db -> ([Building], [Address], [Segment]) in
            func candidates(_ table: String) throws -> [Row] {
                try Row.fetchAll(db, sql: """
                    SELECT t.* FROM \(table) t JOIN rtree_\(table)_geom r ON r.id = t.fid
                    WHERE r.minx <= ? AND r.maxx >= ? AND r.miny <= ? AND r.maxy >= ?
                    """, arguments: [box.maxX, box.minX, box.maxY, box.minY])
            }
            var b: [Building] = [], a: [Address] = [], s: [Segment] = []
            for r in try candidates("buildings") {
                if case .multiPolygon(let ps) = try GeoPackageGeometry.decode(r["geom"]) {
                    b.append(Building(id: r["gers_id"], polygons: ps, height: r["height_m"], numFloors: r["levels"], subtype: r["subtype"],
                                      buildingClass: r["class"], namesJSON: r["names"], sourcesJSON: r["sources"]))
                }
            }
            for r in try candidates("campaign_addresses") {
                if case .point(let p) = try GeoPackageGeometry.decode(r["geom"]) {
                    a.append(Address(id: r["gers_id"], point: p, number: r["number"], street: r["street"], unit: r["unit"],
                                     postcode: r["postcode"], postalCity: r["postal_city"], country: r["country"],
                                     addressLevelsJSON: r["address_levels"], sourcesJSON: r["sources"]))
                }
            }
            for r in try candidates("segments") {
                if case .lineString(let l) = try GeoPackageGeometry.decode(r["geom"]) {
                    s.append(Segment(id: r["gers_id"], line: l, subtype: r["subtype"], segmentClass: r["class"], subclass: r["subclass"],
                                     name: r["name"], namesJSON: r["names"], sourcesJSON: r["sources"]))
                }
            }
            return (b, a, s)
        }
        let index = try FeatureIndex(buildings: rows.0, addresses: rows.1, segments: rows.2)
        return (try index.buildings(in: box, limit: limit), try index.addresses(in: box, limit: limit),
                try index.segments(in: box, limit: limit))
    }
}

extension Provisioner {
    /// Writes a campaign from its rows (as `flyr pull` brings them) into a new GeoPackage at
    /// `path`, built beside it and renamed into place: an existing file is replaced whole, and a
    /// failure leaves the previous file. The caller decides whether `path` may be replaced.
    public static func write(_ s: CampaignSnapshot, at path: String) throws {
        try buildNewFile(at: path) { db, _ in
            let c = s.campaign
            try db.execute(sql: """
                INSERT INTO campaigns (id, name, type, status, provision_status, provision_error, bbox_west, bbox_south,
                  bbox_east, bbox_north, source_files, inputs_sha256, overture_release, created_at, provisioned_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [c.id, c.name, c.type, c.status, c.provisionStatus, c.provisionError, c.bbox?.minX, c.bbox?.minY,
                                 c.bbox?.maxX, c.bbox?.maxY, c.sourceFiles, c.inputsSHA256, c.overtureRelease, c.createdAt, c.provisionedAt])
            let tables = ["buildings", "campaign_addresses", "segments"]
            for t in tables { try GeoPackage.dropSpatialIndexTriggers(db, table: t) }
            let b = try db.makeStatement(sql: """
                INSERT INTO buildings (geom, gers_id, height_m, levels, subtype, class, feature_status, address_count, is_multi_unit, names, sources)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for r in s.buildings.sorted(by: { $0.gersID < $1.gersID }) {
                try b.execute(arguments: [GeoPackageGeometry.multiPolygon(r.polygons).encode(), r.gersID, r.heightM, r.levels, r.subtype,
                                          r.buildingClass, r.featureStatus, r.addressCount, r.isMultiUnit, r.names, r.sources])
            }
            let a = try db.makeStatement(sql: """
                INSERT INTO campaign_addresses (geom, gers_id, campaign_id, number, street, unit, postcode, postal_city, country,
                  address_levels, sources, formatted, building_gers_id, match_method, confidence, distance_m, street_match,
                  segment_gers_id, road_bearing, house_bearing, is_oriented, visited, scans, seq, qr_slug)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for r in s.addresses.sorted(by: { $0.gersID < $1.gersID }) {
                let values: [(any DatabaseValueConvertible)?] = [
                    GeoPackageGeometry.point(r.point).encode(), r.gersID, c.id, r.number, r.street, r.unit, r.postcode, r.postalCity,
                    r.country, r.addressLevels, r.sources, r.formatted, r.buildingGersID, r.matchMethod, r.confidence, r.distanceM,
                    r.streetMatch, r.segmentGersID, r.roadBearing, r.houseBearing, r.isOriented, r.visited, r.scans, r.seq, r.qrSlug,
                ]
                try a.execute(arguments: StatementArguments(values))
            }
            let sg = try db.makeStatement(sql: """
                INSERT INTO segments (geom, gers_id, subtype, class, subclass, name, names, sources) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for r in s.segments.sorted(by: { $0.gersID < $1.gersID }) {
                try sg.execute(arguments: [GeoPackageGeometry.lineString(r.line).encode(), r.gersID, r.subtype, r.segmentClass,
                                           r.subclass, r.name, r.names, r.sources])
            }
            let l = try db.makeStatement(sql: """
                INSERT INTO building_address_links (campaign_id, address_id, building_id, method, confidence, distance_m, street_match)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            for r in s.links { try l.execute(arguments: [c.id, r.addressID, r.buildingID, r.method, r.confidence, r.distanceM, r.streetMatch]) }
            let st = try db.makeStatement(sql: """
                INSERT INTO building_stats (gers_id, status, scans_total, scans_today, scans_day, last_scan_at) VALUES (?, ?, ?, ?, ?, ?)
                """)
            for r in s.stats { try st.execute(arguments: [r.gersID, r.status, r.scansTotal, r.scansToday, r.scansDay, r.lastScanAt]) }
            let e = try db.makeStatement(sql: """
                INSERT INTO scan_events (event_id, gers_id, address_id, qr_slug, scanned_at, user_agent, ingested_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            for r in s.events { try e.execute(arguments: [r.eventID, r.gersID, r.addressID, r.qrSlug, r.scannedAt, r.userAgent, r.ingestedAt]) }
            for t in tables {
                try GeoPackage.fillSpatialIndex(db, table: t)
                try GeoPackage.createSpatialIndexTriggers(db, table: t)
                try GeoPackage.updateExtent(db, table: t)
            }
        }
    }
}
