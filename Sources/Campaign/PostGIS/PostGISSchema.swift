/// The product database's schema in PostgreSQL + PostGIS: named, ordered migrations of plain
/// SQL, each recorded in `flyr_migrations` (id, name, applied_at) when applied. A released
/// migration is never edited; changes come as new migrations appended to `migrations`.
/// Geometries are SRID 4326 (degrees); several campaigns share the tables, keyed by campaign id.
public enum PostGISSchema {
    public struct Migration: Sendable, Equatable {
        /// 1, 2, 3…: the order they run in.
        public var id: Int
        public var name: String
        public var sql: String
    }

    public static let migrations: [Migration] = coreMigrations + productMigrations

    static let coreMigrations: [Migration] = [
        Migration(id: 1, name: "001 campaign tables", sql: """
            CREATE TABLE campaigns (
              id text PRIMARY KEY,
              name text NOT NULL,
              type text NOT NULL DEFAULT 'flyer',
              status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','active','completed','paused')),
              provision_status text NOT NULL DEFAULT 'pending' CHECK (provision_status IN ('pending','ready','failed')),
              provision_error text,
              bbox geometry(Polygon, 4326),
              source_files jsonb NOT NULL DEFAULT '[]',
              inputs_sha256 text,
              overture_release text,
              created_at timestamptz NOT NULL,
              provisioned_at timestamptz,
              provision_version text,
              pushed_at timestamptz);
            CREATE TABLE buildings (
              campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
              gers_id text NOT NULL,
              geom geometry(MultiPolygon, 4326) NOT NULL,
              height_m double precision, levels integer, subtype text, class text,
              feature_status text NOT NULL CHECK (feature_status IN ('matched','orphan_building')),
              address_count integer NOT NULL DEFAULT 0,
              is_multi_unit boolean NOT NULL DEFAULT false,
              names jsonb, sources jsonb,
              PRIMARY KEY (campaign_id, gers_id));
            CREATE TABLE campaign_addresses (
              campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
              gers_id text NOT NULL,
              geom geometry(Point, 4326) NOT NULL,
              number text, street text, unit text, postcode text, postal_city text, country text,
              address_levels jsonb, sources jsonb,
              formatted text NOT NULL,
              building_gers_id text,
              match_method text NOT NULL CHECK (match_method IN ('COVERS','BUFFER','NEAREST','NONE')),
              confidence double precision NOT NULL, distance_m double precision NOT NULL, street_match boolean NOT NULL,
              segment_gers_id text, road_bearing double precision, house_bearing double precision,
              is_oriented boolean NOT NULL DEFAULT false,
              visited boolean NOT NULL DEFAULT false,
              scans integer NOT NULL DEFAULT 0,
              seq integer NOT NULL,
              qr_slug text,
              PRIMARY KEY (campaign_id, gers_id),
              UNIQUE (campaign_id, qr_slug));
            CREATE INDEX campaign_addresses_building ON campaign_addresses (campaign_id, building_gers_id);
            CREATE TABLE segments (
              campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
              gers_id text NOT NULL,
              geom geometry(LineString, 4326) NOT NULL,
              subtype text, class text, subclass text, name text, names jsonb, sources jsonb,
              PRIMARY KEY (campaign_id, gers_id));
            CREATE TABLE building_address_links (
              campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
              address_id text NOT NULL,
              building_id text NOT NULL,
              method text NOT NULL CHECK (method IN ('COVERS','BUFFER','NEAREST')),
              confidence double precision NOT NULL, distance_m double precision NOT NULL, street_match boolean NOT NULL,
              PRIMARY KEY (campaign_id, address_id));
            CREATE INDEX building_address_links_building ON building_address_links (campaign_id, building_id);
            CREATE TABLE building_stats (
              campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
              gers_id text NOT NULL,
              status text NOT NULL DEFAULT 'not_visited' CHECK (status IN ('not_visited','visited','hot')),
              scans_total integer NOT NULL DEFAULT 0,
              scans_today integer NOT NULL DEFAULT 0,
              scans_day date,
              last_scan_at timestamptz,
              PRIMARY KEY (campaign_id, gers_id));
            CREATE TABLE scan_events (
              event_id text PRIMARY KEY,
              campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
              gers_id text NOT NULL,
              address_id text,
              qr_slug text,
              scanned_at timestamptz NOT NULL,
              user_agent text,
              ingested_at timestamptz NOT NULL DEFAULT now());
            CREATE INDEX scan_events_building ON scan_events (campaign_id, gers_id);
            """),
        Migration(id: 2, name: "002 spatial indexes", sql: """
            CREATE INDEX buildings_geom ON buildings USING gist (geom);
            CREATE INDEX campaign_addresses_geom ON campaign_addresses USING gist (geom);
            CREATE INDEX segments_geom ON segments USING gist (geom);
            CREATE INDEX campaigns_bbox ON campaigns USING gist (bbox);
            """),
    ]

    /// Where a database's applied migrations stand against this flyr's list.
    public enum State: Sendable, Equatable {
        /// Every migration applied, none unknown.
        case current
        /// The first `applied` migrations are there; the rest are missing (an older flyr, or none).
        case behind(applied: Int)
        /// The database has migrations this flyr does not know: a newer flyr wrote it.
        case ahead(unknown: [String])
        /// Migration `id` has another name in the database: not this flyr's schema.
        case diverged(id: Int, database: String, expected: String)
    }

    /// Compares the applied migrations (id, name, in id order) with `migrations`.
    public static func state(applied: [(id: Int, name: String)]) -> State {
        for a in applied {
            guard let m = migrations.first(where: { $0.id == a.id }) else { continue }
            if m.name != a.name { return .diverged(id: a.id, database: a.name, expected: m.name) }
        }
        let known = Set(migrations.map(\.id))
        let unknown = applied.filter { !known.contains($0.id) }
        if !unknown.isEmpty { return .ahead(unknown: unknown.map(\.name)) }
        let ids = Set(applied.map(\.id))
        var n = 0
        for m in migrations { if ids.contains(m.id) { n += 1 } else { break } }
        return n == migrations.count ? .current : .behind(applied: n)
    }
}
