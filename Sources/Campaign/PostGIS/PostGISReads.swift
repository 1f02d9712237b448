import Foundation
import Geo
import PostgresNIO

extension PostGISStore {
    /// Every row of a campaign, each table sorted by its key: what `flyr pull` writes.
    public func snapshot(campaign id: String) async throws -> CampaignSnapshot {
        try await requireCurrentSchema()
        let c = try await db.rows("""
            SELECT id, name, type, status, provision_status, provision_error,
                   ST_XMin(bbox), ST_YMin(bbox), ST_XMax(bbox), ST_YMax(bbox), source_files::text, inputs_sha256, overture_release,
                   \(unescaped: Self.utc("created_at", ms: false)), \(unescaped: Self.utc("provisioned_at", ms: false))
            FROM campaigns WHERE id = \(id)
            """, "reading the campaign")
        guard let row = c.first else { throw PostGISError.campaignNotFound(id) }
        let r = row.makeRandomAccess()
        var bbox: BBox? = nil
        if let w = try r[6].decode(Double?.self), let s = try r[7].decode(Double?.self), let e = try r[8].decode(Double?.self),
           let n = try r[9].decode(Double?.self) { bbox = BBox(minX: w, minY: s, maxX: e, maxY: n) }
        var snap = CampaignSnapshot(campaign: CampaignRecord(
            id: try r[0].decode(String.self), name: try r[1].decode(String.self), type: try r[2].decode(String.self),
            status: try r[3].decode(String.self), provisionStatus: try r[4].decode(String.self), provisionError: try r[5].decode(String?.self),
            bbox: bbox, sourceFiles: try r[10].decode(String.self), inputsSHA256: try r[11].decode(String?.self),
            overtureRelease: try r[12].decode(String?.self), createdAt: try r[13].decode(String.self), provisionedAt: try r[14].decode(String?.self)))

        snap.buildings = try await buildingRecords(campaign: id)
        snap.addresses = try await addressRecords(campaign: id)
        for row in try await db.rows("""
            SELECT gers_id, ST_AsBinary(geom), subtype, class, subclass, name, names::text, sources::text
            FROM segments WHERE campaign_id = \(id) ORDER BY gers_id
            """, "reading segments") {
            let r = row.makeRandomAccess()
            let gers = try r[0].decode(String.self)
            guard case .lineString(let l) = try GeoPackageGeometry.decode(wkb: try r[1].decode(Data.self)) else {
                throw GeoPackageError.badGeometry("segment \(gers) is not a line")
            }
            func s(_ i: Int) throws -> String? { try r[i].decode(String?.self) }
            snap.segments.append(SegmentRecord(gersID: gers, line: l, subtype: try s(2), segmentClass: try s(3), subclass: try s(4),
                                               name: try s(5), names: try s(6), sources: try s(7)))
        }
        for row in try await db.rows("""
            SELECT address_id, building_id, method, confidence, distance_m, street_match
            FROM building_address_links WHERE campaign_id = \(id) ORDER BY address_id
            """, "reading links") {
            let (a, b, m, conf, d, sm) = try row.decode((String, String, String, Double, Double, Bool).self)
            snap.links.append(LinkRecord(addressID: a, buildingID: b, method: m, confidence: conf, distanceM: d, streetMatch: sm))
        }
        for row in try await db.rows("""
            SELECT gers_id, status, scans_total, scans_today, to_char(scans_day, 'YYYY-MM-DD'), \(unescaped: Self.utc("last_scan_at", ms: true))
            FROM building_stats WHERE campaign_id = \(id) ORDER BY gers_id
            """, "reading building stats") {
            let (g, st, total, today, day, last) = try row.decode((String, String, Int, Int, String?, String?).self)
            snap.stats.append(BuildingStatsRecord(gersID: g, status: st, scansTotal: total, scansToday: today, scansDay: day, lastScanAt: last))
        }
        for row in try await db.rows("""
            SELECT event_id, gers_id, address_id, qr_slug, \(unescaped: Self.utc("scanned_at", ms: true)), user_agent,
                   \(unescaped: Self.utc("ingested_at", ms: true))
            FROM scan_events WHERE campaign_id = \(id) ORDER BY event_id
            """, "reading scan events") {
            let (e, g, a, q, at, ua, ing) = try row.decode((String, String, String?, String?, String, String?, String).self)
            snap.events.append(ScanEventRecord(eventID: e, gersID: g, addressID: a, qrSlug: q, scannedAt: at, userAgent: ua, ingestedAt: ing))
        }
        return snap
    }

    /// The campaign's buildings, by GERS id.
    private func buildingRecords(campaign id: String) async throws -> [BuildingRecord] {
        var out: [BuildingRecord] = []
            for row in try await db.rows("""
                SELECT gers_id, ST_AsBinary(geom), height_m, levels, subtype, class, feature_status, address_count, is_multi_unit,
                       names::text, sources::text
                FROM buildings WHERE campaign_id = \(id) ORDER BY gers_id
                """, "reading buildings") {
                let r = row.makeRandomAccess()
                let gers = try r[0].decode(String.self)
                guard case .multiPolygon(let ps) = try GeoPackageGeometry.decode(wkb: try r[1].decode(Data.self)) else {
                    throw GeoPackageError.badGeometry("building \(gers) is not a polygon")
                }
                out.append(BuildingRecord(
                    gersID: gers, polygons: ps, heightM: try r[2].decode(Double?.self), levels: try r[3].decode(Int?.self),
                    subtype: try r[4].decode(String?.self), buildingClass: try r[5].decode(String?.self), featureStatus: try r[6].decode(String.self),
                    addressCount: try r[7].decode(Int.self), isMultiUnit: try r[8].decode(Bool.self), names: try r[9].decode(String?.self),
                    sources: try r[10].decode(String?.self)))
            }
        return out
    }

    /// The campaign's addresses, by GERS id.
    private func addressRecords(campaign id: String) async throws -> [AddressRecord] {
        var out: [AddressRecord] = []
            for row in try await db.rows("""
                SELECT gers_id, ST_AsBinary(geom), number, street, unit, postcode, postal_city, country, address_levels::text, sources::text,
                       formatted, building_gers_id, match_method, confidence, distance_m, street_match, segment_gers_id, road_bearing,
                       house_bearing, is_oriented, visited, scans, seq, qr_slug
                FROM campaign_addresses WHERE campaign_id = \(id) ORDER BY gers_id
                """, "reading addresses") {
                let r = row.makeRandomAccess()
                let gers = try r[0].decode(String.self)
                guard case .point(let p) = try GeoPackageGeometry.decode(wkb: try r[1].decode(Data.self)) else {
                    throw GeoPackageError.badGeometry("address \(gers) is not a point")
                }
                func s(_ i: Int) throws -> String? { try r[i].decode(String?.self) }
                out.append(AddressRecord(
                    gersID: gers, point: p, number: try s(2), street: try s(3), unit: try s(4), postcode: try s(5), postalCity: try s(6),
                    country: try s(7), addressLevels: try s(8), sources: try s(9), formatted: try r[10].decode(String.self),
                    buildingGersID: try s(11), matchMethod: try r[12].decode(String.self), confidence: try r[13].decode(Double.self),
                    distanceM: try r[14].decode(Double.self), streetMatch: try r[15].decode(Bool.self), segmentGersID: try s(16),
                    roadBearing: try r[17].decode(Double?.self), houseBearing: try r[18].decode(Double?.self),
                    isOriented: try r[19].decode(Bool.self), visited: try r[20].decode(Bool.self), scans: try r[21].decode(Int.self),
                    seq: try r[22].decode(Int.self), qrSlug: try s(23)))
            }
        return out
    }

    /// SQL for a timestamptz column as UTC ISO 8601 text (with milliseconds when `ms`).
    static func utc(_ column: String, ms: Bool) -> String {
        "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\(ms ? ".MS" : "")\"Z\"')"
    }

    /// The box as PostGIS builds it: a polygon, or a line or point when it has no width or height.
    static let region = "ST_Envelope(ST_MakeLine(ST_MakePoint($2, $3), ST_MakePoint($4, $5))::geometry)"

    /// The campaign's buildings, addresses and segments whose geometry intersects the box
    /// (touching its edge counts): `&&` on the GiST index, then an exact `ST_Intersects`.
    /// Each layer sorted by id; the first `limit` of each when given.
    public func features(campaign id: String, in box: BBox, limit: Int? = nil) async throws
        -> (buildings: [Building], addresses: [Address], segments: [Segment]) {
        try await requireCurrentSchema()
        try await requireCampaign(id)
        func query(_ select: String, _ table: String) throws -> PostgresQuery {
            var binds = PostgresBindings(capacity: 6)
            binds.append(id); binds.append(box.minX); binds.append(box.minY); binds.append(box.maxX)
            binds.append(box.maxY); binds.append(limit)
            let env = "ST_SetSRID(\(Self.region), 4326)"
            return PostgresQuery(unsafeSQL: """
                SELECT \(select) FROM \(table) WHERE campaign_id = $1 AND geom && \(env) AND ST_Intersects(geom, \(env))
                ORDER BY gers_id LIMIT $6::bigint
                """, binds: binds)
        }
        var b: [Building] = [], a: [Address] = [], s: [Segment] = []
        for row in try await db.rows(try query("gers_id, ST_AsBinary(geom), height_m, levels, subtype, class, names::text, sources::text", "buildings"),
                                     "querying buildings") {
            let (g, wkb, h, l, st, cl, n, src) = try row.decode((String, Data, Double?, Int?, String?, String?, String?, String?).self)
            guard case .multiPolygon(let ps) = try GeoPackageGeometry.decode(wkb: wkb) else { continue }
            b.append(Building(id: g, polygons: ps, height: h, numFloors: l, subtype: st, buildingClass: cl, namesJSON: n, sourcesJSON: src))
        }
        for row in try await db.rows(try query("gers_id, ST_AsBinary(geom), number, street, unit, postcode, postal_city, country, address_levels::text, sources::text",
                                           "campaign_addresses"), "querying addresses") {
            let r = row.makeRandomAccess()
            guard case .point(let p) = try GeoPackageGeometry.decode(wkb: try r[1].decode(Data.self)) else { continue }
            func t(_ i: Int) throws -> String? { try r[i].decode(String?.self) }
            a.append(Address(id: try r[0].decode(String.self), point: p, number: try t(2), street: try t(3), unit: try t(4), postcode: try t(5),
                             postalCity: try t(6), country: try t(7), addressLevelsJSON: try t(8), sourcesJSON: try t(9)))
        }
        for row in try await db.rows(try query("gers_id, ST_AsBinary(geom), subtype, class, subclass, name, names::text, sources::text", "segments"),
                                     "querying segments") {
            let (g, wkb, st, cl, sc, n, ns, src) = try row.decode((String, Data, String?, String?, String?, String?, String?, String?).self)
            guard case .lineString(let l) = try GeoPackageGeometry.decode(wkb: wkb) else { continue }
            s.append(Segment(id: g, line: l, subtype: st, segmentClass: cl, subclass: sc, name: n, namesJSON: ns, sourcesJSON: src))
        }
        return (b, a, s)
    }

    /// The campaign's name, its buildings (in draw order: by id, bytewise, with status and first
    /// house number) and its roads, for rendering.
    public func mapLayers(campaign id: String) async throws
        -> (name: String, buildings: [CampaignStore.MapBuildingRow], roads: [(line: [Coord], roadClass: String?, name: String?)]) {
        let (name, roads) = try await mapOverlay(campaign: id)
        var buildings: [CampaignStore.MapBuildingRow] = []
        for row in try await db.rows("""
            SELECT b.gers_id, ST_AsBinary(b.geom), b.feature_status, coalesce(s.status, 'not_visited'), coalesce(s.scans_total, 0),
                   (SELECT a.number FROM campaign_addresses a WHERE a.campaign_id = b.campaign_id AND a.building_gers_id = b.gers_id
                    ORDER BY a.seq LIMIT 1)
            FROM buildings b LEFT JOIN building_stats s ON s.campaign_id = b.campaign_id AND s.gers_id = b.gers_id
            WHERE b.campaign_id = \(id) ORDER BY b.gers_id COLLATE "C"
            """, "reading buildings") {
            let (g, wkb, fs, st, scans, number) = try row.decode((String, Data, String, String, Int, String?).self)
            guard case .multiPolygon(let ps) = try GeoPackageGeometry.decode(wkb: wkb) else { continue }
            buildings.append(CampaignStore.MapBuildingRow(gersID: g, polygons: ps, status: st, scansTotal: scans, featureStatus: fs, houseNumber: number))
        }
        return (name, buildings, roads)
    }
}
