import Foundation
import Geo
import PostgresNIO

/// What `push` did.
public struct PushSummary: Sendable, Equatable {
    public var campaignID: String
    public var buildings: Int
    public var addresses: Int
    public var segments: Int
    public var links: Int
    public var scanEvents: Int
    /// The database already held this provision of the campaign: nothing was written.
    public var unchanged: Bool
    /// Names of the migrations this push applied.
    public var migrationsApplied: [String]
}

/// Row counts of one campaign in the database.
public struct CampaignCounts: Sendable, Equatable {
    public var buildings = 0, addresses = 0, segments = 0, links = 0, stats = 0, scanEvents = 0
}

/// Campaigns in the product's PostgreSQL + PostGIS database: the same tables and semantics as
/// the GeoPackage store (`PostGISSchema`), several campaigns per database keyed by campaign id.
public final class PostGISStore: Sendable {
    public let db: PostGISConnection

    public init(_ db: PostGISConnection) { self.db = db }

    /// Connects; `close()` must follow.
    public static func connect(_ url: PostGISURL) async throws -> PostGISStore {
        PostGISStore(try await PostGISConnection.connect(url))
    }

    public func close() async throws { try await db.close() }

    /// Connects, runs `body`, and closes: explicitly after success, best effort after a failure
    /// (whose error is the one thrown).
    public static func using<T: Sendable>(_ url: PostGISURL, _ body: (PostGISStore) async throws -> T) async throws -> T {
        let store = try await connect(url)
        do {
            let v = try await body(store)
            try await store.close()
            return v
        } catch {
            try? await store.close()
            throw error
        }
    }

    // MARK: schema

    /// Makes sure PostGIS is there: creates the extension when `create` and the role may;
    /// throws `.noPostGIS` saying what to do otherwise.
    public func requirePostGIS(create: Bool) async throws {
        let have = try await db.rows("SELECT extversion FROM pg_extension WHERE extname = 'postgis'", "looking for PostGIS")
        if !have.isEmpty { return }
        let available = try await db.rows("SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'", "looking for PostGIS")
        let where_ = "database \(db.url.database) on \(db.url.host):\(db.url.port)"
        guard !available.isEmpty else {
            throw PostGISError.noPostGIS("\(where_) has no PostGIS: the server does not have it installed (Debian: apt-get install postgresql-15-postgis-3)")
        }
        guard create else {
            throw PostGISError.noPostGIS("\(where_) has no PostGIS extension: run CREATE EXTENSION postgis; in it (or flyr push, as a role allowed to)")
        }
        do {
            try await db.rows("CREATE EXTENSION IF NOT EXISTS postgis", "creating the PostGIS extension")
        } catch {
            throw PostGISError.noPostGIS("\(where_) has no PostGIS extension and role \(db.url.user) may not create it: as a superuser run CREATE EXTENSION postgis; in it (\(error))")
        }
    }

    /// The applied migrations, in id order; empty when flyr_migrations does not exist.
    public func appliedMigrations() async throws -> [(id: Int, name: String)] {
        let exists = try await db.rows("SELECT to_regclass('flyr_migrations') IS NOT NULL", "reading the schema version")
        guard try exists.first?.decode(Bool.self) == true else { return [] }
        var out: [(Int, String)] = []
        for r in try await db.rows("SELECT id, name FROM flyr_migrations ORDER BY id", "reading flyr_migrations") {
            let (id, name) = try r.decode((Int, String).self)
            out.append((id, name))
        }
        return out
    }

    /// Applies the missing migrations in order, in one transaction under an advisory lock (so
    /// two pushes never migrate at once). Refuses a schema that is ahead or different.
    /// Returns the names applied.
    @discardableResult
    public func migrate() async throws -> [String] {
        try await requirePostGIS(create: true)
        return try await db.transaction {
            try await db.rows("SELECT pg_advisory_xact_lock(7306001)", "locking the schema")
            try await db.rows("""
                CREATE TABLE IF NOT EXISTS flyr_migrations (
                  id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """, "creating flyr_migrations")
            let state = PostGISSchema.state(applied: try await appliedMigrations())
            switch state {
            case .current: return []
            case .behind: break
            case .ahead, .diverged: throw PostGISError.schema(Self.explain(state, url: db.url))
            }
            let applied = Set(try await appliedMigrations().map(\.id))
            var names: [String] = []
            for m in PostGISSchema.migrations where !applied.contains(m.id) {
                for statement in Self.statements(m.sql) {
                    try await db.rows(PostgresQuery(unsafeSQL: statement), "applying migration '\(m.name)'")
                }
                try await db.rows("INSERT INTO flyr_migrations (id, name) VALUES (\(m.id), \(m.name))", "recording migration '\(m.name)'")
                names.append(m.name)
            }
            return names
        }
    }

    /// Checks, without changing anything, that the database holds this flyr's schema.
    public func requireCurrentSchema() async throws {
        try await requirePostGIS(create: false)
        let state = PostGISSchema.state(applied: try await appliedMigrations())
        if state != .current { throw PostGISError.schema(Self.explain(state, url: db.url)) }
    }

    static func explain(_ state: PostGISSchema.State, url: PostGISURL) -> String {
        let total = PostGISSchema.migrations.count
        switch state {
        case .current: return "the schema is current"
        case .behind(0): return "\(url) holds no flyr schema yet (no flyr_migrations): flyr push campaign.gpkg --postgres URL creates it"
        case .behind(let n):
            return "\(url) has \(n) of this flyr's \(total) migrations (an older flyr wrote it): flyr push campaign.gpkg --postgres URL applies the rest"
        case .ahead(let unknown):
            return "\(url) has migrations this flyr does not know (\(unknown.joined(separator: ", "))): a newer flyr wrote it; use that flyr or a newer one"
        case .diverged(let id, let found, let expected):
            return "\(url) has migration \(id) named '\(found)' where this flyr expects '\(expected)': not this flyr's schema; use another database"
        }
    }

    /// A migration's statements: its SQL split at semicolons that end a line (or the text),
    /// except inside a dollar-quoted body (`$$ … $$`, `$tag$ … $tag$`: a function's code).
    static func statements(_ sql: String) -> [String] {
        let text = Array(sql.unicodeScalars)
        var out: [String] = [], current = String.UnicodeScalarView(), quote: [Unicode.Scalar]? = nil
        func flush() {
            let s = String(current).trimmingCharacters(in: .whitespacesAndNewlines)
            if !s.isEmpty { out.append(s) }
            current = String.UnicodeScalarView()
        }
        var i = 0
        while i < text.count {
            if text[i] == "$", let end = dollarTagEnd(text, from: i) {
                let tag = Array(text[i...end])
                if quote == nil { quote = tag } else if quote == tag { quote = nil }
                current.append(contentsOf: tag)
                i = end + 1
                continue
            }
            if quote == nil, text[i] == ";", i + 1 == text.count || text[i + 1] == "\n" {
                flush()
            } else {
                current.append(text[i])
            }
            i += 1
        }
        flush()
        return out
    }

    /// Where the dollar-quote tag starting at `start` ends (its closing `$`): `$` then letters or
    /// underscores then `$`; nil when `$` starts no tag (as in `$1`).
    private static func dollarTagEnd(_ text: [Unicode.Scalar], from start: Int) -> Int? {
        var j = start + 1
        while j < text.count, text[j] == "_" || text[j].properties.isAlphabetic { j += 1 }
        return j < text.count && text[j] == "$" ? j : nil
    }

    // MARK: push

    /// Writes the campaign in one transaction (after bringing the schema up to date). The same
    /// provision twice changes nothing. After a re-provision the features and links follow the
    /// snapshot; statuses, counters and visits already in the database are kept for the
    /// buildings and addresses that still exist (the snapshot's apply to new ones only), stats
    /// of buildings that are gone are dropped, and scan events are added once each by id.
    public func push(_ s: CampaignSnapshot) async throws -> PushSummary {
        let migrations = try await migrate()
        let c = s.campaign
        let unchanged: Bool = try await db.transaction {
            let old = try await db.rows("SELECT provision_version FROM campaigns WHERE id = \(c.id) FOR UPDATE", "reading the campaign")
            if let row = old.first, try row.decode(String?.self) == c.provisionVersion { return true }
            try await writeCampaign(s)
            return false
        }
        let n = try await counts(campaign: c.id)
        return PushSummary(campaignID: c.id, buildings: n.buildings, addresses: n.addresses, segments: n.segments, links: n.links,
                           scanEvents: n.scanEvents, unchanged: unchanged, migrationsApplied: migrations)
    }

    private func writeCampaign(_ s: CampaignSnapshot) async throws {
        let c = s.campaign
        try await db.rows("""
            INSERT INTO campaigns (id, name, type, status, provision_status, provision_error, bbox, source_files, inputs_sha256,
              overture_release, created_at, provisioned_at, provision_version, pushed_at)
            VALUES (\(c.id), \(c.name), \(c.type), \(c.status), \(c.provisionStatus), \(c.provisionError),
              ST_MakeEnvelope(\(c.bbox?.minX), \(c.bbox?.minY), \(c.bbox?.maxX), \(c.bbox?.maxY), 4326),
              \(c.sourceFiles)::jsonb, \(c.inputsSHA256), \(c.overtureRelease), \(c.createdAt)::timestamptz,
              \(c.provisionedAt)::timestamptz, \(c.provisionVersion), now())
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, type = excluded.type, provision_status = excluded.provision_status,
              provision_error = excluded.provision_error, bbox = excluded.bbox, source_files = excluded.source_files,
              inputs_sha256 = excluded.inputs_sha256, overture_release = excluded.overture_release,
              provisioned_at = excluded.provisioned_at, provision_version = excluded.provision_version, pushed_at = now()
            """, "writing the campaign record")

        // Features: upserted (field columns untouched on conflict), then the ones gone deleted.
        try await insertBatches(s.buildings, into: "buildings", columns: "campaign_id, gers_id, geom, height_m, levels, subtype, class, feature_status, address_count, is_multi_unit, names, sources",
                                row: "($::text, $::text, ST_Multi(ST_CollectionExtract(ST_MakeValid(ST_GeomFromWKB($::bytea, 4326)), 3)), $::float8, $::int, $::text, $::text, $::text, $::int, $::bool, $::jsonb, $::jsonb)",
                                conflict: """
                                    ON CONFLICT (campaign_id, gers_id) DO UPDATE SET geom = excluded.geom, height_m = excluded.height_m,
                                      levels = excluded.levels, subtype = excluded.subtype, class = excluded.class,
                                      feature_status = excluded.feature_status, address_count = excluded.address_count,
                                      is_multi_unit = excluded.is_multi_unit, names = excluded.names, sources = excluded.sources
                                    """, what: "writing buildings") { r, b in
            b.append(c.id); b.append(r.gersID); try b.append(GeoPackageGeometry.multiPolygon(r.polygons).wkb)
            b.append(r.heightM); b.append(r.levels); b.append(r.subtype); b.append(r.buildingClass)
            b.append(r.featureStatus); b.append(r.addressCount); b.append(r.isMultiUnit); b.append(r.names); b.append(r.sources)
        }
        try await db.rows("""
            DELETE FROM buildings t WHERE t.campaign_id = \(c.id)
              AND NOT EXISTS (SELECT 1 FROM unnest(\(s.buildings.map(\.gersID))::text[]) AS k(id) WHERE k.id = t.gers_id)
            """,
                          "removing buildings that are gone")

        try await writeAddresses(s)

        try await insertBatches(s.segments, into: "segments", columns: "campaign_id, gers_id, geom, subtype, class, subclass, name, names, sources",
                                row: "($::text, $::text, ST_GeomFromWKB($::bytea, 4326), $::text, $::text, $::text, $::text, $::jsonb, $::jsonb)",
                                conflict: """
                                    ON CONFLICT (campaign_id, gers_id) DO UPDATE SET geom = excluded.geom, subtype = excluded.subtype,
                                      class = excluded.class, subclass = excluded.subclass, name = excluded.name, names = excluded.names,
                                      sources = excluded.sources
                                    """, what: "writing segments") { r, b in
            b.append(c.id); b.append(r.gersID); try b.append(GeoPackageGeometry.lineString(r.line).wkb)
            b.append(r.subtype); b.append(r.segmentClass); b.append(r.subclass); b.append(r.name)
            b.append(r.names); b.append(r.sources)
        }
        try await db.rows("""
            DELETE FROM segments t WHERE t.campaign_id = \(c.id)
              AND NOT EXISTS (SELECT 1 FROM unnest(\(s.segments.map(\.gersID))::text[]) AS k(id) WHERE k.id = t.gers_id)
            """,
                          "removing segments that are gone")

        try await writeLinksAndFieldData(s)
    }

    /// The campaign's addresses: upserted (a slug already printed stays), those gone deleted.
    private func writeAddresses(_ s: CampaignSnapshot) async throws {
        let c = s.campaign
        try await requireSlugsFree(s)
        // A slug already printed (in the database) stays.
        try await insertBatches(s.addresses, into: "campaign_addresses", columns: """
            campaign_id, gers_id, geom, number, street, unit, postcode, postal_city, country, address_levels, sources, formatted,
            building_gers_id, match_method, confidence, distance_m, street_match, segment_gers_id, road_bearing, house_bearing,
            is_oriented, visited, scans, seq, qr_slug
            """,
                                row: "($::text, $::text, ST_GeomFromWKB($::bytea, 4326), $::text, $::text, $::text, $::text, $::text, $::text, $::jsonb, $::jsonb, $::text, $::text, $::text, $::float8, $::float8, $::bool, $::text, $::float8, $::float8, $::bool, $::bool, $::int, $::int, $::text)",
                                conflict: """
                                    ON CONFLICT (campaign_id, gers_id) DO UPDATE SET geom = excluded.geom, number = excluded.number,
                                      street = excluded.street, unit = excluded.unit, postcode = excluded.postcode,
                                      postal_city = excluded.postal_city, country = excluded.country, address_levels = excluded.address_levels,
                                      sources = excluded.sources, formatted = excluded.formatted, building_gers_id = excluded.building_gers_id,
                                      match_method = excluded.match_method, confidence = excluded.confidence, distance_m = excluded.distance_m,
                                      street_match = excluded.street_match, segment_gers_id = excluded.segment_gers_id,
                                      road_bearing = excluded.road_bearing, house_bearing = excluded.house_bearing,
                                      is_oriented = excluded.is_oriented, seq = excluded.seq,
                                      qr_slug = coalesce(campaign_addresses.qr_slug, excluded.qr_slug)
                                    """, what: "writing addresses") { r, b in
            b.append(c.id); b.append(r.gersID); try b.append(GeoPackageGeometry.point(r.point).wkb)
            b.append(r.number); b.append(r.street); b.append(r.unit); b.append(r.postcode); b.append(r.postalCity)
            b.append(r.country); b.append(r.addressLevels); b.append(r.sources); b.append(r.formatted)
            b.append(r.buildingGersID); b.append(r.matchMethod); b.append(r.confidence); b.append(r.distanceM)
            b.append(r.streetMatch); b.append(r.segmentGersID); b.append(r.roadBearing); b.append(r.houseBearing)
            b.append(r.isOriented); b.append(r.visited); b.append(r.scans); b.append(r.seq); b.append(r.qrSlug)
        }
        try await db.rows("""
            DELETE FROM campaign_addresses t WHERE t.campaign_id = \(c.id)
              AND NOT EXISTS (SELECT 1 FROM unnest(\(s.addresses.map(\.gersID))::text[]) AS k(id) WHERE k.id = t.gers_id)
            """,
                          "removing addresses that are gone")
    }

    /// Refuses a campaign holding a QR slug that another campaign in the database holds: a slug
    /// is the product's key for one printed code.
    private func requireSlugsFree(_ s: CampaignSnapshot) async throws {
        let slugs = s.addresses.compactMap(\.qrSlug)
        guard let clash = try await db.rows("""
            SELECT qr_slug, campaign_id FROM campaign_addresses WHERE qr_slug = ANY(\(slugs)::text[]) AND campaign_id <> \(s.campaign.id) LIMIT 1
            """, "checking the QR slugs").first else { return }
        let (slug, other) = try clash.decode((String, String).self)
        throw PostGISError.conflictingData("""
            QR slug '\(slug)' of campaign \(s.campaign.id) is already campaign \(other)'s in \(db.url): a slug names one printed \
            code in the whole database; provision this campaign again into a new file to draw new slugs
            """)
    }

    /// Links (replaced whole), building stats (the database's rows win), scan events (once each
    /// by id), and what follows from the events: addresses' last scans, QR code scans.
    private func writeLinksAndFieldData(_ s: CampaignSnapshot) async throws {
        let c = s.campaign
        // Links carry no field data: replaced whole.
        try await db.rows("DELETE FROM building_address_links WHERE campaign_id = \(c.id)", "replacing links")
        try await insertBatches(s.links, into: "building_address_links", columns: "campaign_id, address_id, building_id, method, confidence, distance_m, street_match",
                                row: "($::text, $::text, $::text, $::text, $::float8, $::float8, $::bool)", conflict: "", what: "writing links") { r, b in
            b.append(c.id); b.append(r.addressID); b.append(r.buildingID); b.append(r.method)
            b.append(r.confidence); b.append(r.distanceM); b.append(r.streetMatch)
        }

        // Field data: the database's rows win; new buildings take the file's, or start blank.
        try await insertBatches(s.stats, into: "building_stats", columns: "campaign_id, gers_id, status, scans_total, scans_today, scans_day, last_scan_at",
                                row: "($::text, $::text, $::text, $::int, $::int, $::date, $::timestamptz)",
                                conflict: "ON CONFLICT (campaign_id, gers_id) DO NOTHING", what: "writing building stats") { r, b in
            b.append(c.id); b.append(r.gersID); b.append(r.status); b.append(r.scansTotal); b.append(r.scansToday)
            b.append(r.scansDay); b.append(r.lastScanAt)
        }
        try await db.rows("""
            INSERT INTO building_stats (campaign_id, gers_id) SELECT campaign_id, gers_id FROM buildings WHERE campaign_id = \(c.id)
            ON CONFLICT (campaign_id, gers_id) DO NOTHING
            """, "adding building stats")
        try await db.rows("""
            DELETE FROM building_stats s WHERE s.campaign_id = \(c.id)
              AND NOT EXISTS (SELECT 1 FROM buildings b WHERE b.campaign_id = s.campaign_id AND b.gers_id = s.gers_id)
            """, "removing stats of buildings that are gone")
        try await insertBatches(s.events, into: "scan_events", columns: "event_id, campaign_id, gers_id, address_id, qr_slug, scanned_at, user_agent, ingested_at",
                                row: "($::text, $::text, $::text, $::text, $::text, $::timestamptz, $::text, $::timestamptz)",
                                conflict: "ON CONFLICT (event_id) DO NOTHING", what: "writing scan events") { r, b in
            b.append(r.eventID); b.append(c.id); b.append(r.gersID); b.append(r.addressID); b.append(r.qrSlug)
            b.append(r.scannedAt); b.append(r.userAgent); b.append(r.ingestedAt)
        }
        for (sql, what) in [(PostGISSchema.lastScannedFromEvents(oneCampaign: true), "setting the addresses' last scans"),
                            (PostGISSchema.qrScansFromEvents(oneCampaign: true), "writing QR code scans")] {
            var binds = PostgresBindings(capacity: 1)
            binds.append(c.id)
            try await db.rows(PostgresQuery(unsafeSQL: sql, binds: binds), what)
        }
    }

    /// Inserts rows in batches of multi-row VALUES: `row` is one row's SQL with `$` for each
    /// parameter (numbered here), `bind` appends that row's values in the same order.
    private func insertBatches<R>(_ rows: [R], into table: String, columns: String, row: String, conflict: String, what: String,
                                  bind: (R, inout PostgresBindings) throws -> Void) async throws {
        let perRow = row.filter { $0 == "$" }.count
        let batch = max(1, min(1000, 30_000 / perRow))
        var start = 0
        while start < rows.count {
            let part = rows[start..<min(rows.count, start + batch)]
            var binds = PostgresBindings(capacity: part.count * perRow)
            var sql = "INSERT INTO \(table) (\(columns)) VALUES "
            var n = 0
            for (i, r) in part.enumerated() {
                if i > 0 { sql += ", " }
                for ch in row {
                    if ch == "$" { n += 1; sql += "$\(n)" } else { sql.append(ch) }
                }
                try bind(r, &binds)
            }
            sql += " " + conflict
            try await db.rows(PostgresQuery(unsafeSQL: sql, binds: binds), what)
            start += batch
        }
    }

    /// Row counts of one campaign.
    public func counts(campaign id: String) async throws -> CampaignCounts {
        let r = try await db.rows("""
            SELECT (SELECT count(*) FROM buildings WHERE campaign_id = \(id)), (SELECT count(*) FROM campaign_addresses WHERE campaign_id = \(id)),
                   (SELECT count(*) FROM segments WHERE campaign_id = \(id)), (SELECT count(*) FROM building_address_links WHERE campaign_id = \(id)),
                   (SELECT count(*) FROM building_stats WHERE campaign_id = \(id)), (SELECT count(*) FROM scan_events WHERE campaign_id = \(id))
            """, "counting rows")
        let (b, a, s, l, st, e) = try r[0].decode((Int, Int, Int, Int, Int, Int).self)
        return CampaignCounts(buildings: b, addresses: a, segments: s, links: l, stats: st, scanEvents: e)
    }

    /// Throws `.campaignNotFound` unless the campaign is in the database.
    public func requireCampaign(_ id: String) async throws {
        let r = try await db.rows("SELECT 1 FROM campaigns WHERE id = \(id)", "looking for the campaign")
        if r.isEmpty { throw PostGISError.campaignNotFound(id) }
    }
}

extension GeoPackageGeometry {
    /// The geometry as ISO WKB (little-endian), without the GeoPackage header.
    public var wkb: Data {
        var w = ByteWriter()
        writeWKB(&w)
        return w.data
    }

    /// Decodes ISO WKB (as `ST_AsBinary` gives it) of a Point, LineString, Polygon or MultiPolygon.
    public static func decode(wkb data: Data) throws -> GeoPackageGeometry {
        try data.withUnsafeBytes { bytes in
            var r = ByteReader(bytes: bytes, offset: 0)
            return try r.geometry()
        }
    }
}
