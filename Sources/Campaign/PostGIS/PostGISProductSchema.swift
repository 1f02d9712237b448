/// The product's names in flyr's PostGIS schema: the columns, the QR lookup and the SQL functions
/// its web and iOS apps call. Campaign ids are text in flyr's tables (a provision makes them
/// lowercase UUIDs); the functions take `uuid` and match `uuid::text`, PostgreSQL's canonical
/// lowercase form. Each statement is idempotent (IF NOT EXISTS, CREATE OR REPLACE), and each
/// function is defined through `flyr_define_function`, which replaces it in place (same oid,
/// grants kept) and drops it first only when PostgreSQL refuses the replacement (another
/// parameter name, default or return type, as a hand-made or product-made version may have).
extension PostGISSchema {
    static let productMigrations: [Migration] = [
        Migration(id: 3, name: "003 product columns and QR codes", sql: """
            ALTER TABLE campaigns ADD COLUMN IF NOT EXISTS qr_destination_url text;
            ALTER TABLE campaign_addresses ADD COLUMN IF NOT EXISTS last_scanned_at timestamptz;
            \(lastScannedFromEvents(oneCampaign: false))
            CREATE UNIQUE INDEX IF NOT EXISTS campaign_addresses_slug ON campaign_addresses (qr_slug);
            CREATE OR REPLACE FUNCTION flyr_uuid(id text) RETURNS uuid LANGUAGE sql IMMUTABLE STRICT AS $$
              SELECT CASE WHEN $1 ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN $1::uuid END
            $$;
            CREATE OR REPLACE VIEW qr_codes AS
              SELECT a.qr_slug AS slug, flyr_uuid(a.campaign_id) AS campaign_id, a.gers_id AS address_id,
                     a.building_gers_id, a.formatted AS address_text, c.qr_destination_url AS destination_url,
                     a.scans, a.last_scanned_at
              FROM campaign_addresses a JOIN campaigns c ON c.id = a.campaign_id
              WHERE a.qr_slug IS NOT NULL;
            CREATE TABLE IF NOT EXISTS qr_code_scans (
              event_id text PRIMARY KEY,
              campaign_id text NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
              slug text NOT NULL,
              address_id text NOT NULL,
              gers_id text NOT NULL,
              scanned_at timestamptz NOT NULL,
              user_agent text,
              ingested_at timestamptz NOT NULL DEFAULT now());
            CREATE INDEX IF NOT EXISTS qr_code_scans_slug ON qr_code_scans (slug, scanned_at);
            CREATE INDEX IF NOT EXISTS qr_code_scans_address ON qr_code_scans (campaign_id, address_id);
            \(qrScansFromEvents(oneCampaign: false))
            """),
        Migration(id: 4, name: "004 product functions", sql: """
            CREATE OR REPLACE FUNCTION flyr_define_function(signature text, definition text) RETURNS void LANGUAGE plpgsql AS $$
            BEGIN
              EXECUTE definition;
            EXCEPTION WHEN invalid_function_definition THEN
              IF to_regprocedure(signature) IS NULL THEN RAISE; END IF;
              EXECUTE format('DROP FUNCTION %s', to_regprocedure(signature));
              EXECUTE definition;
            END
            $$;
            CREATE OR REPLACE FUNCTION flyr_campaign(campaign uuid) RETURNS text LANGUAGE plpgsql STABLE AS $$
            BEGIN
              IF campaign IS NULL THEN
                RAISE EXCEPTION 'campaign_id is null' USING ERRCODE = 'null_value_not_allowed';
              END IF;
              PERFORM 1 FROM campaigns c WHERE c.id = campaign::text;
              IF NOT FOUND THEN
                RAISE EXCEPTION 'no campaign ''%'' in this database', campaign USING ERRCODE = 'no_data_found',
                  HINT = 'flyr push campaign.gpkg --postgres URL puts one there';
              END IF;
              RETURN campaign::text;
            END
            $$;
            CREATE OR REPLACE VIEW flyr_building_features AS
              SELECT b.campaign_id, b.gers_id, b.geom, jsonb_build_object(
                'type', 'Feature', 'id', b.gers_id, 'geometry', ST_AsGeoJSON(b.geom, 17)::jsonb,
                'properties', jsonb_build_object(
                  'gers_id', b.gers_id, 'height_m', b.height_m, 'levels', b.levels,
                  'status', coalesce(s.status, 'not_visited'), 'scans_total', coalesce(s.scans_total, 0),
                  'qr_scanned', coalesce(s.scans_total, 0) > 0,
                  'address_text', (SELECT string_agg(a.formatted, '; ' ORDER BY a.seq) FROM campaign_addresses a
                                   WHERE a.campaign_id = b.campaign_id AND a.building_gers_id = b.gers_id),
                  'house_number', (SELECT a.number FROM campaign_addresses a
                                   WHERE a.campaign_id = b.campaign_id AND a.building_gers_id = b.gers_id ORDER BY a.seq LIMIT 1),
                  'address_count', b.address_count, 'feature_status', b.feature_status)) AS feature
              FROM buildings b LEFT JOIN building_stats s ON s.campaign_id = b.campaign_id AND s.gers_id = b.gers_id;
            SELECT flyr_define_function('rpc_get_campaign_full_features(uuid)', $fn$
            CREATE OR REPLACE FUNCTION rpc_get_campaign_full_features(campaign_id uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
              SELECT jsonb_build_object('type', 'FeatureCollection',
                                        'features', coalesce(jsonb_agg(f.feature ORDER BY f.gers_id COLLATE "C"), '[]'::jsonb))
              FROM flyr_building_features f WHERE f.campaign_id = flyr_campaign($1)
            $$
            $fn$);
            SELECT flyr_define_function('rpc_get_buildings_in_bbox(double precision, double precision, double precision, double precision, uuid)', $fn$
            CREATE OR REPLACE FUNCTION rpc_get_buildings_in_bbox(min_lon double precision, min_lat double precision,
                max_lon double precision, max_lat double precision, campaign_id uuid DEFAULT NULL) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
            DECLARE
              only_campaign text := CASE WHEN $5 IS NULL THEN NULL ELSE flyr_campaign($5) END;
              region geometry := ST_SetSRID(ST_Envelope(ST_MakeLine(ST_MakePoint($1, $2), ST_MakePoint($3, $4))), 4326);
            BEGIN
              RETURN (SELECT jsonb_build_object('type', 'FeatureCollection',
                        'features', coalesce(jsonb_agg(f.feature ORDER BY f.gers_id COLLATE "C", f.campaign_id COLLATE "C"), '[]'::jsonb))
                      FROM flyr_building_features f
                      WHERE f.geom && region AND ST_Intersects(f.geom, region) AND (only_campaign IS NULL OR f.campaign_id = only_campaign));
            END
            $$
            $fn$);
            SELECT flyr_define_function('increment_building_scans(text, uuid)', $fn$
            CREATE OR REPLACE FUNCTION increment_building_scans(p_gers_id text, p_campaign_id uuid) RETURNS void LANGUAGE plpgsql AS $$
            DECLARE
              key text := flyr_campaign(p_campaign_id);
              today date := (now() AT TIME ZONE 'UTC')::date;
            BEGIN
              INSERT INTO building_stats AS s (campaign_id, gers_id, status, scans_total, scans_today, scans_day, last_scan_at)
                SELECT b.campaign_id, b.gers_id, 'visited', 1, 1, today, now() FROM buildings b
                WHERE b.campaign_id = key AND b.gers_id = p_gers_id
              ON CONFLICT (campaign_id, gers_id) DO UPDATE SET
                scans_total = s.scans_total + 1,
                scans_today = CASE WHEN s.scans_day IS NULL OR excluded.scans_day > s.scans_day THEN 1
                                   WHEN excluded.scans_day = s.scans_day THEN s.scans_today + 1 ELSE s.scans_today END,
                scans_day = greatest(s.scans_day, excluded.scans_day),
                last_scan_at = greatest(s.last_scan_at, excluded.last_scan_at),
                status = CASE WHEN s.status = 'not_visited' THEN 'visited' ELSE s.status END;
              IF NOT FOUND THEN
                RAISE EXCEPTION 'no building ''%'' in campaign %', p_gers_id, p_campaign_id USING ERRCODE = 'no_data_found';
              END IF;
            END
            $$
            $fn$);
            SELECT flyr_define_function('get_campaign_stats(uuid)', $fn$
            CREATE OR REPLACE FUNCTION get_campaign_stats(campaign_id uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
              WITH k AS (SELECT flyr_campaign($1) AS id),
              targets AS (SELECT b.gers_id, s.status, s.scans_total FROM k, buildings b
                          LEFT JOIN building_stats s ON s.campaign_id = b.campaign_id AND s.gers_id = b.gers_id
                          WHERE b.campaign_id = k.id AND b.feature_status = 'matched'),
              n AS (SELECT
                (SELECT count(*) FROM k, campaign_addresses a WHERE a.campaign_id = k.id) AS addresses,
                (SELECT count(*) FROM k, buildings b WHERE b.campaign_id = k.id) AS buildings,
                (SELECT count(*) FROM targets) AS targets,
                (SELECT count(*) FROM targets t WHERE t.status IN ('visited', 'hot') OR t.scans_total > 0) AS visited,
                (SELECT count(*) FROM targets t WHERE t.scans_total > 0) AS scanned,
                (SELECT count(*) FROM k, campaign_addresses a
                   LEFT JOIN building_stats s ON s.campaign_id = a.campaign_id AND s.gers_id = a.building_gers_id
                   WHERE a.campaign_id = k.id AND (a.visited OR s.status IN ('visited', 'hot') OR coalesce(s.scans_total, 0) > 0))
                  AS addresses_visited)
              SELECT jsonb_build_object('campaign_id', k.id, 'addresses', n.addresses, 'buildings', n.buildings,
                'target_buildings', n.targets, 'visited', n.visited, 'scanned', n.scanned, 'addresses_visited', n.addresses_visited,
                'scan_rate', to_char(CASE WHEN n.targets = 0 THEN 0 ELSE n.scanned::float8 / n.targets END, 'FM990.0000')::numeric,
                'progress_pct', to_char(CASE WHEN n.targets = 0 THEN 0 ELSE 100 * n.visited::float8 / n.targets END, 'FM990.00')::numeric)
              FROM k, n
            $$
            $fn$);
            SELECT flyr_define_function('get_campaign_bbox(uuid)', $fn$
            CREATE OR REPLACE FUNCTION get_campaign_bbox(campaign_id uuid) RETURNS double precision[] LANGUAGE sql STABLE AS $$
              WITH k AS (SELECT flyr_campaign($1) AS id),
              e AS (SELECT ST_XMin(b.geom) AS x0, ST_YMin(b.geom) AS y0, ST_XMax(b.geom) AS x1, ST_YMax(b.geom) AS y1
                    FROM k, buildings b WHERE b.campaign_id = k.id
                    UNION ALL
                    SELECT ST_X(a.geom), ST_Y(a.geom), ST_X(a.geom), ST_Y(a.geom) FROM k, campaign_addresses a WHERE a.campaign_id = k.id)
              SELECT CASE WHEN count(*) = 0 THEN NULL ELSE ARRAY[min(e.x0), min(e.y0), max(e.x1), max(e.y1)] END FROM e
            $$
            $fn$);
            """),
    ]

    // The two statements below are part of migration 003's text: never edit them; a change is a
    // new function used by a new migration.

    /// SQL that sets each address's `last_scanned_at` to its latest scan event (in the campaign
    /// bound as $1 when `oneCampaign`, else in all).
    static func lastScannedFromEvents(oneCampaign: Bool) -> String {
        """
        UPDATE campaign_addresses a SET last_scanned_at = greatest(a.last_scanned_at, m.last)
          FROM (SELECT campaign_id, address_id, max(scanned_at) AS last FROM scan_events
                WHERE address_id IS NOT NULL\(oneCampaign ? " AND campaign_id = $1" : "") GROUP BY campaign_id, address_id) m
          WHERE a.campaign_id = m.campaign_id AND a.gers_id = m.address_id
            AND a.last_scanned_at IS DISTINCT FROM greatest(a.last_scanned_at, m.last);
        """
    }

    /// SQL that adds a `qr_code_scans` row for each scan event whose address has a QR slug, once
    /// per event id (in the campaign bound as $1 when `oneCampaign`, else in all).
    static func qrScansFromEvents(oneCampaign: Bool) -> String {
        """
        INSERT INTO qr_code_scans (event_id, campaign_id, slug, address_id, gers_id, scanned_at, user_agent, ingested_at)
          SELECT e.event_id, e.campaign_id, a.qr_slug, a.gers_id, e.gers_id, e.scanned_at, e.user_agent, e.ingested_at
          FROM scan_events e JOIN campaign_addresses a ON a.campaign_id = e.campaign_id AND a.gers_id = e.address_id
          WHERE a.qr_slug IS NOT NULL\(oneCampaign ? " AND e.campaign_id = $1" : "")
        ON CONFLICT (event_id) DO NOTHING;
        """
    }
}
