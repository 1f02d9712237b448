import GRDB

/// The campaign GeoPackage's schema: named, ordered migrations of plain SQL. A released
/// migration is never edited; changes come as new migrations.
enum CampaignSchema {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("001 geopackage core") { db in
            try GeoPackage.createCore(db)
        }
        m.registerMigration("002 campaign layers") { db in
            try db.execute(sql: """
                CREATE TABLE campaigns (
                  id TEXT NOT NULL PRIMARY KEY,
                  name TEXT NOT NULL,
                  type TEXT NOT NULL DEFAULT 'flyer',
                  status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','active','completed','paused')),
                  provision_status TEXT NOT NULL DEFAULT 'pending' CHECK (provision_status IN ('pending','ready','failed')),
                  provision_error TEXT,
                  bbox_west DOUBLE, bbox_south DOUBLE, bbox_east DOUBLE, bbox_north DOUBLE,
                  source_files TEXT NOT NULL DEFAULT '[]',
                  inputs_sha256 TEXT,
                  overture_release TEXT,
                  created_at TEXT NOT NULL,
                  provisioned_at TEXT);
                CREATE TABLE buildings (
                  fid INTEGER PRIMARY KEY AUTOINCREMENT,
                  geom MULTIPOLYGON,
                  gers_id TEXT NOT NULL UNIQUE,
                  height_m DOUBLE, levels INTEGER, subtype TEXT, class TEXT,
                  feature_status TEXT NOT NULL CHECK (feature_status IN ('matched','orphan_building')),
                  address_count INTEGER NOT NULL DEFAULT 0,
                  is_multi_unit BOOLEAN NOT NULL DEFAULT 0,
                  names TEXT, sources TEXT);
                CREATE TABLE campaign_addresses (
                  fid INTEGER PRIMARY KEY AUTOINCREMENT,
                  geom POINT,
                  gers_id TEXT NOT NULL UNIQUE,
                  campaign_id TEXT NOT NULL REFERENCES campaigns(id),
                  number TEXT, street TEXT, unit TEXT, postcode TEXT, postal_city TEXT, country TEXT,
                  address_levels TEXT, sources TEXT,
                  formatted TEXT NOT NULL,
                  building_gers_id TEXT,
                  match_method TEXT NOT NULL CHECK (match_method IN ('COVERS','BUFFER','NEAREST','NONE')),
                  confidence DOUBLE NOT NULL, distance_m DOUBLE NOT NULL, street_match BOOLEAN NOT NULL,
                  segment_gers_id TEXT, road_bearing DOUBLE, house_bearing DOUBLE,
                  is_oriented BOOLEAN NOT NULL DEFAULT 0,
                  visited BOOLEAN NOT NULL DEFAULT 0,
                  scans INTEGER NOT NULL DEFAULT 0,
                  seq INTEGER NOT NULL,
                  qr_slug TEXT UNIQUE);
                CREATE INDEX campaign_addresses_building ON campaign_addresses(building_gers_id);
                CREATE TABLE segments (
                  fid INTEGER PRIMARY KEY AUTOINCREMENT,
                  geom LINESTRING,
                  gers_id TEXT NOT NULL UNIQUE,
                  subtype TEXT, class TEXT, subclass TEXT, name TEXT, names TEXT, sources TEXT);
                CREATE TABLE building_address_links (
                  campaign_id TEXT NOT NULL REFERENCES campaigns(id),
                  address_id TEXT NOT NULL,
                  building_id TEXT NOT NULL,
                  method TEXT NOT NULL CHECK (method IN ('COVERS','BUFFER','NEAREST')),
                  confidence DOUBLE NOT NULL, distance_m DOUBLE NOT NULL, street_match BOOLEAN NOT NULL,
                  PRIMARY KEY (campaign_id, address_id));
                CREATE INDEX building_address_links_building ON building_address_links(building_id);
                CREATE TABLE building_stats (
                  gers_id TEXT NOT NULL PRIMARY KEY,
                  status TEXT NOT NULL DEFAULT 'not_visited' CHECK (status IN ('not_visited','visited','hot')),
                  scans_total INTEGER NOT NULL DEFAULT 0,
                  scans_today INTEGER NOT NULL DEFAULT 0,
                  scans_day TEXT,
                  last_scan_at TEXT);
                CREATE TABLE scan_events (
                  event_id TEXT NOT NULL PRIMARY KEY,
                  gers_id TEXT NOT NULL,
                  address_id TEXT,
                  qr_slug TEXT,
                  scanned_at TEXT NOT NULL,
                  user_agent TEXT,
                  ingested_at TEXT NOT NULL);
                """)
            try GeoPackage.registerFeatureTable(db, table: "buildings", geometryType: "MULTIPOLYGON",
                                                description: "Building footprints with their link status")
            try GeoPackage.registerFeatureTable(db, table: "campaign_addresses", geometryType: "POINT",
                                                description: "The campaign's addresses with their building link and orientation")
            try GeoPackage.registerFeatureTable(db, table: "segments", geometryType: "LINESTRING",
                                                description: "Road segments")
            for (t, d) in [("campaigns", "Campaign records"), ("building_address_links", "Address-to-building links"),
                           ("building_stats", "Field status and scan counters per building"), ("scan_events", "QR scan events")] {
                try GeoPackage.registerAttributeTable(db, table: t, description: d)
            }
            for t in ["buildings", "campaign_addresses", "segments"] { try GeoPackage.createSpatialIndex(db, table: t) }
        }
        m.registerMigration("003 layer styles") { db in
            try db.execute(sql: """
                CREATE TABLE layer_styles (
                  id INTEGER PRIMARY KEY AUTOINCREMENT, f_table_catalog TEXT(256), f_table_schema TEXT(256),
                  f_table_name TEXT(256), f_geometry_column TEXT(256), styleName TEXT(30), styleQML TEXT,
                  styleSLD TEXT, useAsDefault BOOLEAN, description TEXT, owner TEXT(30), ui TEXT(30),
                  update_time DATETIME DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))
                """)
            try GeoPackage.registerAttributeTable(db, table: "layer_styles", description: "QGIS layer styles")
            for (table, qml) in LayerStyles.all {
                try db.execute(sql: """
                    INSERT INTO layer_styles (f_table_catalog, f_table_schema, f_table_name, f_geometry_column,
                      styleName, styleQML, styleSLD, useAsDefault, description, owner)
                    VALUES ('', '', ?, 'geom', ?, ?, '', 1, 'flyr status colours', 'flyr')
                    """, arguments: [table, "flyr \(table)", qml])
            }
        }
        // The QR slugs' uniqueness as a named index instead of an inline UNIQUE, so that a
        // provision can drop it and build it once after the rows are in (slugs are random: kept
        // row by row, the index took a random insert per address). SQLite cannot drop an inline
        // constraint, so the table is rebuilt with the same columns, rows, indexes and triggers.
        m.registerMigration("004 qr_slug unique index") { db in
            try db.execute(sql: """
                CREATE TABLE campaign_addresses_004 (
                  fid INTEGER PRIMARY KEY AUTOINCREMENT,
                  geom POINT,
                  gers_id TEXT NOT NULL UNIQUE,
                  campaign_id TEXT NOT NULL REFERENCES campaigns(id),
                  number TEXT, street TEXT, unit TEXT, postcode TEXT, postal_city TEXT, country TEXT,
                  address_levels TEXT, sources TEXT,
                  formatted TEXT NOT NULL,
                  building_gers_id TEXT,
                  match_method TEXT NOT NULL CHECK (match_method IN ('COVERS','BUFFER','NEAREST','NONE')),
                  confidence DOUBLE NOT NULL, distance_m DOUBLE NOT NULL, street_match BOOLEAN NOT NULL,
                  segment_gers_id TEXT, road_bearing DOUBLE, house_bearing DOUBLE,
                  is_oriented BOOLEAN NOT NULL DEFAULT 0,
                  visited BOOLEAN NOT NULL DEFAULT 0,
                  scans INTEGER NOT NULL DEFAULT 0,
                  seq INTEGER NOT NULL,
                  qr_slug TEXT);
                INSERT INTO campaign_addresses_004 SELECT * FROM campaign_addresses;
                DROP TABLE campaign_addresses;
                ALTER TABLE campaign_addresses_004 RENAME TO campaign_addresses;
                CREATE INDEX campaign_addresses_building ON campaign_addresses(building_gers_id);
                CREATE UNIQUE INDEX campaign_addresses_qr_slug ON campaign_addresses(qr_slug);
                """)
            try GeoPackage.createSpatialIndexTriggers(db, table: "campaign_addresses")
        }
        m.registerMigration("005 geopackage 1.2", migrate: geoPackage12)
        // The base of the campaign's QR links (BASE/q/SLUG); NULL means the default.
        m.registerMigration("006 qr base url") { db in
            try db.execute(sql: "ALTER TABLE campaigns ADD COLUMN qr_base_url TEXT")
        }
        m.registerMigration("007 recipients") { db in
            try db.execute(sql: """
                CREATE TABLE campaign_recipients (
                  fid INTEGER PRIMARY KEY AUTOINCREMENT,
                  campaign_id TEXT NOT NULL REFERENCES campaigns(id),
                  address_gers_id TEXT NOT NULL,
                  line INTEGER NOT NULL,
                  fields TEXT NOT NULL);
                CREATE INDEX campaign_recipients_address ON campaign_recipients(address_gers_id);
                """)
            try GeoPackage.registerAttributeTable(db, table: "campaign_recipients",
                                                  description: "Rows of the recipient list, by the address each was matched to")
        }
        // Walkable turfs (flyr turf): their outlines, and each address's turf and place in its walk.
        m.registerMigration("008 turfs") { db in
            try db.execute(sql: """
                CREATE TABLE turfs (
                  fid INTEGER PRIMARY KEY AUTOINCREMENT,
                  geom MULTIPOLYGON,
                  turf_id INTEGER NOT NULL UNIQUE,
                  doors INTEGER NOT NULL,
                  block_faces INTEGER NOT NULL,
                  route_m DOUBLE NOT NULL,
                  target_doors INTEGER NOT NULL);
                ALTER TABLE campaign_addresses ADD COLUMN turf_id INTEGER;
                ALTER TABLE campaign_addresses ADD COLUMN turf_seq INTEGER;
                CREATE INDEX campaign_addresses_turf ON campaign_addresses(turf_id, turf_seq);
                """)
            try GeoPackage.registerFeatureTable(db, table: "turfs", geometryType: "MULTIPOLYGON",
                                                description: "Walkable turfs: outline, doors, route length")
            try GeoPackage.createSpatialIndex(db, table: "turfs")
        }
        return m
    }

    /// GeoPackage 1.2 instead of 1.4 (GDAL 3.6 warns on every open of a 1.4 file, and nothing
    /// here needs 1.4): the version, the R-tree triggers of 1.2, and an INTEGER PRIMARY KEY in
    /// every attribute table (requirement 119; the former keys become UNIQUE constraints, so
    /// their conflicts, upserts and look-ups stay as they were). Each table is rebuilt with the
    /// same columns and rows.
    static func geoPackage12(_ db: Database) throws {
        try db.execute(sql: "PRAGMA user_version = \(GeoPackage.userVersion)")
        for t in ["buildings", "campaign_addresses", "segments"] {
            try GeoPackage.dropSpatialIndexTriggers(db, table: t)
            try GeoPackage.createSpatialIndexTriggers(db, table: t)
        }
        let tables: [(name: String, columns: String, sql: String)] = [
            ("campaigns", "id, name, type, status, provision_status, provision_error, bbox_west, bbox_south, bbox_east, bbox_north, source_files, inputs_sha256, overture_release, created_at, provisioned_at", """
                id TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                type TEXT NOT NULL DEFAULT 'flyer',
                status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','active','completed','paused')),
                provision_status TEXT NOT NULL DEFAULT 'pending' CHECK (provision_status IN ('pending','ready','failed')),
                provision_error TEXT,
                bbox_west DOUBLE, bbox_south DOUBLE, bbox_east DOUBLE, bbox_north DOUBLE,
                source_files TEXT NOT NULL DEFAULT '[]',
                inputs_sha256 TEXT,
                overture_release TEXT,
                created_at TEXT NOT NULL,
                provisioned_at TEXT
                """),
            ("building_address_links", "campaign_id, address_id, building_id, method, confidence, distance_m, street_match", """
                campaign_id TEXT NOT NULL REFERENCES campaigns(id),
                address_id TEXT NOT NULL,
                building_id TEXT NOT NULL,
                method TEXT NOT NULL CHECK (method IN ('COVERS','BUFFER','NEAREST')),
                confidence DOUBLE NOT NULL, distance_m DOUBLE NOT NULL, street_match BOOLEAN NOT NULL,
                UNIQUE (campaign_id, address_id)
                """),
            ("building_stats", "gers_id, status, scans_total, scans_today, scans_day, last_scan_at", """
                gers_id TEXT NOT NULL UNIQUE,
                status TEXT NOT NULL DEFAULT 'not_visited' CHECK (status IN ('not_visited','visited','hot')),
                scans_total INTEGER NOT NULL DEFAULT 0,
                scans_today INTEGER NOT NULL DEFAULT 0,
                scans_day TEXT,
                last_scan_at TEXT
                """),
            ("scan_events", "event_id, gers_id, address_id, qr_slug, scanned_at, user_agent, ingested_at", """
                event_id TEXT NOT NULL UNIQUE,
                gers_id TEXT NOT NULL,
                address_id TEXT,
                qr_slug TEXT,
                scanned_at TEXT NOT NULL,
                user_agent TEXT,
                ingested_at TEXT NOT NULL
                """),
        ]
        for t in tables {
            try db.execute(sql: """
                CREATE TABLE \(t.name)_005 (fid INTEGER PRIMARY KEY AUTOINCREMENT, \(t.sql));
                INSERT INTO \(t.name)_005 (\(t.columns)) SELECT \(t.columns) FROM \(t.name);
                DROP TABLE \(t.name);
                ALTER TABLE \(t.name)_005 RENAME TO \(t.name);
                """)
        }
        try db.execute(sql: "CREATE INDEX building_address_links_building ON building_address_links(building_id)")
    }
}
