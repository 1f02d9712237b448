import Foundation
import Geo
import PostgresNIO

extension PostGISStore {
    /// The campaign's name and roads (segments by id) for a map: everything but its buildings.
    public func mapOverlay(campaign id: String) async throws -> (name: String, roads: [(line: [Coord], roadClass: String?, name: String?)]) {
        try await requireCurrentSchema()
        let c = try await db.rows("SELECT name FROM campaigns WHERE id = \(id)", "reading the campaign")
        guard let nameRow = c.first else { throw PostGISError.campaignNotFound(id) }
        let name = try nameRow.decode(String.self)
        var roads: [(line: [Coord], roadClass: String?, name: String?)] = []
        for row in try await db.rows("SELECT ST_AsBinary(geom), class, name FROM segments WHERE campaign_id = \(id) ORDER BY gers_id", "reading segments") {
            let (wkb, cl, nm) = try row.decode((Data, String?, String?).self)
            if case .lineString(let l) = try GeoPackageGeometry.decode(wkb: wkb) { roads.append((l, cl, nm)) }
        }
        return (name, roads)
    }

    /// The campaign's buildings' extent in degrees, from their vertices (exact, not the index's
    /// rounded boxes); empty when it has none.
    public func buildingExtent(campaign id: String) async throws -> BBox {
        let r = try await db.rows("""
            SELECT min(ST_XMin(geom::box3d)), min(ST_YMin(geom::box3d)), max(ST_XMax(geom::box3d)), max(ST_YMax(geom::box3d))
            FROM buildings WHERE campaign_id = \(id)
            """, "reading the extent of the buildings of campaign '\(id)'")
        guard let row = r.first else { return .empty }
        let (w, s, e, n) = try row.decode((Double?, Double?, Double?, Double?).self)
        guard let w, let s, let e, let n else { return .empty }
        return BBox(minX: w, minY: s, maxX: e, maxY: n)
    }
}

/// A campaign's buildings for one map view, read from PostGIS through a server-side cursor in a
/// read-only transaction: the rows whose geometry's box meets the area (`&&`, so the GiST index
/// picks them), in draw order (id, bytewise), each with its status, scans and first house
/// number. The server sorts; the client holds one fetch at a time. Uses the store's connection,
/// which must run nothing else until `close()` or `abandon()`.
public final class PostGISBuildingCursor: Sendable {
    public let store: PostGISStore
    public let campaign: String
    static let name = "flyr_map_buildings"

    public init(store: PostGISStore, campaign: String) { self.store = store; self.campaign = campaign }

    /// Begins the transaction and declares the cursor over `area` (degrees).
    public func open(area: BBox) async throws {
        try await store.db.rows("BEGIN READ ONLY", "starting to read the buildings of campaign '\(campaign)'")
        // Every row is fetched: plan for the whole result, not the first tenth (the default).
        try await store.db.rows("SET LOCAL cursor_tuple_fraction = 1", "starting to read the buildings of campaign '\(campaign)'")
        var binds = PostgresBindings(capacity: 5)
        binds.append(campaign); binds.append(area.minX); binds.append(area.minY); binds.append(area.maxX); binds.append(area.maxY)
        try await store.db.rows(PostgresQuery(unsafeSQL: """
            DECLARE \(Self.name) NO SCROLL CURSOR FOR
            SELECT b.gers_id, ST_AsBinary(b.geom), b.feature_status, coalesce(s.status, 'not_visited'), coalesce(s.scans_total, 0),
                   (SELECT a.number FROM campaign_addresses a WHERE a.campaign_id = b.campaign_id AND a.building_gers_id = b.gers_id
                    ORDER BY a.seq LIMIT 1)
            FROM buildings b LEFT JOIN building_stats s ON s.campaign_id = b.campaign_id AND s.gers_id = b.gers_id
            WHERE b.campaign_id = $1 AND b.geom && ST_SetSRID(\(PostGISStore.region), 4326)
            ORDER BY b.gers_id COLLATE "C"
            """, binds: binds), "reading the buildings of campaign '\(campaign)'")
    }

    /// The next `count` rows (fewer at the end, none past it). `after`: the last building
    /// read, named in the error when the connection is lost.
    public func fetch(_ count: Int, after: String?) async throws -> [PostgresRow] {
        try await store.db.rows("FETCH FORWARD \(unescaped: String(count)) FROM \(unescaped: Self.name)",
                                "reading the buildings of campaign '\(campaign)' " + (after.map { "after building \($0)" } ?? "(none read yet)"))
    }

    /// Closes the cursor and ends the transaction.
    public func close() async throws {
        try await store.db.rows("CLOSE \(unescaped: Self.name)", "closing the buildings of campaign '\(campaign)'")
        try await store.db.rows("COMMIT", "ending the read of campaign '\(campaign)'")
    }

    /// Rolls the transaction back after a failure, best effort (the connection may be gone).
    public func abandon() async {
        _ = try? await store.db.rows("ROLLBACK", "abandoning the read of campaign '\(campaign)'")
    }
}

extension CampaignMapReader.Batch {
    /// Appends the cursor's rows as `buildings(in:)` makes them (a row's `fid` is its index in
    /// `rows`), and each appended row's house number to `labels`. A cell that cannot be read
    /// (no geometry, WKB that does not decode, a column of another type) is
    /// `PostGISError.badData` naming the campaign, the building and what is wrong; a point or
    /// line is left off, as when drawn from memory. Returns the last building's id.
    public mutating func append(postGISRows rows: [PostgresRow], campaign: String, labels: inout [String?]) throws -> String? {
        var last: String?
        for (i, row) in rows.enumerated() {
            let r = row.makeRandomAccess()
            var id = "at row \(i + 1) of a fetch"
            func bad(_ what: String) -> PostGISError { .badData("campaign '\(campaign)': building \(id): \(what)") }
            func cell<T: PostgresDecodable>(_ k: Int, _ type: T.Type) throws -> T {
                do { return try r[k].decode(T.self) } catch { throw bad("\(r[k].columnName) cannot be read as \(T.self)") }
            }
            id = try cell(0, String.self)
            last = id
            guard let wkb = r[1].bytes else { throw bad("no geometry") }
            let span: Range<Int>?
            do {
                span = try wkb.withUnsafeReadableBytes { try GeoPackageGeometry.appendRings(wkb: $0, coords: &coords, rings: &rings) }
            } catch let GeoPackageError.badGeometry(detail) {
                throw bad("bad geometry: \(detail)")
            }
            guard let span else { continue }
            self.rows.append(Row(fid: Int64(i), gersID: id, rings: span, status: try cell(3, String.self), scansTotal: try cell(4, Int.self),
                                 featureStatus: try cell(2, String.self)))
            labels.append(try cell(5, String?.self))
        }
        return last
    }
}
