import Foundation
import GRDB
import Geo

/// GeoPackage 1.2 plumbing over GRDB: the core tables, feature and attribute table
/// registration, and the R-tree spatial index extension with the SQL functions its triggers call.
public enum GeoPackage {
    /// `PRAGMA application_id` of a GeoPackage ("GPKG").
    public static let applicationID: Int32 = 0x4750_4B47
    /// `PRAGMA user_version` of GeoPackage 1.2.0, the oldest version with everything a
    /// campaign uses (the "GPKG" application id, attribute tables, the R-tree extension); GDAL
    /// writes it too, and GDAL 3.6 warns on every open of a 1.4 file.
    public static let userVersion = 10200

    /// Opens (creating if needed) a GeoPackage file for writing: WAL, a busy timeout so
    /// concurrent writers wait instead of failing, and the ST_* functions registered.
    /// `bulkBuild`: the file is new and private to one writer until it is renamed into place,
    /// so it is written without a journal (a failure discards the whole file anyway).
    public static func open(_ path: String, readOnly: Bool = false, bulkBuild: Bool = false) throws -> DatabaseQueue {
        var config = Configuration()
        config.readonly = readOnly
        config.busyMode = .timeout(30)
        // A new file is filled by flyr alone, in one go, every reference made from the rows it
        // has just written: the per-row foreign key look-ups are left out there.
        config.foreignKeysEnabled = !bulkBuild
        config.prepareDatabase { db in
            registerFunctions(db)
            if bulkBuild {
                // Pages of 64 KiB, SQLite's largest: a sixteenth of the pages (page writes, B-tree
                // splits) of its default 4 KiB for a file of a million rows; set before the
                // first table exists. (x20 provision against 16 KiB, four alternated pairs:
                // 13.6-14.6 s against 14.2-15.0 s, less system time. Later small edits write
                // whole 64 KiB pages to the WAL; a campaign's edits are few and small.)
                try db.execute(sql: "PRAGMA page_size = 65536")
                try db.execute(sql: "PRAGMA journal_mode = OFF")
                // A 32 MiB page cache: rows go in in rowid order and the indexes are built
                // after the load, so a larger cache only raised a provision's peak (64 MiB:
                // about 10 MiB more at x20, and no faster).
                try db.execute(sql: "PRAGMA cache_size = -32768")
            } else if !readOnly {
                // WAL stays set in the file. Setting it again needs a lock that several writers
                // opening the file at once can meet without SQLite's busy wait, so it is set only
                // when the file is not in WAL yet.
                if try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() != "wal" {
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                }
                try db.execute(sql: "PRAGMA cache_size = -65536")
            }
        }
        return try DatabaseQueue(path: path, configuration: config)
    }

    /// ST_IsEmpty, ST_MinX, ST_MaxX, ST_MinY, ST_MaxY over GeoPackage geometry blobs, as the
    /// R-tree triggers of the standard call them.
    static func registerFunctions(_ db: Database) {
        func envelopeFunction(_ name: String, _ pick: @escaping @Sendable (BBox) -> Double) -> DatabaseFunction {
            DatabaseFunction(name, argumentCount: 1, pure: true) { values in
                guard let data = Data.fromDatabaseValue(values[0]), let e = GeoPackageGeometry.envelope(ofBlob: data) else { return nil }
                return pick(e)
            }
        }
        db.add(function: envelopeFunction("ST_MinX") { $0.minX })
        db.add(function: envelopeFunction("ST_MaxX") { $0.maxX })
        db.add(function: envelopeFunction("ST_MinY") { $0.minY })
        db.add(function: envelopeFunction("ST_MaxY") { $0.maxY })
        db.add(function: DatabaseFunction("ST_IsEmpty", argumentCount: 1, pure: true) { values in
            guard let data = Data.fromDatabaseValue(values[0]) else { return 1 }
            return GeoPackageGeometry.isEmpty(blob: data) ? 1 : 0
        })
    }

    /// The core tables and their required rows (clause 1.1), and the GeoPackage pragmas.
    static func createCore(_ db: Database) throws {
        try db.execute(sql: "PRAGMA application_id = \(applicationID)")
        try db.execute(sql: "PRAGMA user_version = \(userVersion)")
        try db.execute(sql: """
            CREATE TABLE gpkg_spatial_ref_sys (
              srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY, organization TEXT NOT NULL,
              organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
            CREATE TABLE gpkg_contents (
              table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
              description TEXT DEFAULT '',
              last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
              min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
              CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
            CREATE TABLE gpkg_geometry_columns (
              table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
              srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
              CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
              CONSTRAINT uk_gc_table_name UNIQUE (table_name),
              CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
              CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
            CREATE TABLE gpkg_extensions (
              table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL, definition TEXT NOT NULL,
              scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
            CREATE TABLE gpkg_tile_matrix_set (
              table_name TEXT NOT NULL PRIMARY KEY, srs_id INTEGER NOT NULL,
              min_x DOUBLE NOT NULL, min_y DOUBLE NOT NULL, max_x DOUBLE NOT NULL, max_y DOUBLE NOT NULL,
              CONSTRAINT fk_gtms_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
              CONSTRAINT fk_gtms_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
            CREATE TABLE gpkg_tile_matrix (
              table_name TEXT NOT NULL, zoom_level INTEGER NOT NULL, matrix_width INTEGER NOT NULL,
              matrix_height INTEGER NOT NULL, tile_width INTEGER NOT NULL, tile_height INTEGER NOT NULL,
              pixel_x_size DOUBLE NOT NULL, pixel_y_size DOUBLE NOT NULL,
              CONSTRAINT pk_ttm PRIMARY KEY (table_name, zoom_level),
              CONSTRAINT fk_tmm_table_name FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name));
            """)
        try db.execute(sql: """
            INSERT INTO gpkg_spatial_ref_sys VALUES
              ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
              ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system'),
              ('WGS 84 geodetic', 4326, 'EPSG', 4326, ?, 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid')
            """, arguments: [wgs84WKT])
    }

    static let wgs84WKT = """
        GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],\
        AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,\
        AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]
        """

    /// Registers a feature table (already created) in gpkg_contents and gpkg_geometry_columns.
    static func registerFeatureTable(_ db: Database, table: String, geometryColumn: String = "geom",
                                     geometryType: String, description: String) throws {
        try db.execute(sql: "INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id) VALUES (?, 'features', ?, ?, 4326)",
                       arguments: [table, table, description])
        try db.execute(sql: "INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, 4326, 0, 0)",
                       arguments: [table, geometryColumn, geometryType])
    }

    /// Registers an attribute table (no geometry) in gpkg_contents.
    static func registerAttributeTable(_ db: Database, table: String, description: String) throws {
        try db.execute(sql: "INSERT INTO gpkg_contents (table_name, data_type, identifier, description) VALUES (?, 'attributes', ?, ?)",
                       arguments: [table, table, description])
    }

    /// Sets a feature table's extent (NULL when empty) and last_change in gpkg_contents.
    static func setExtent(_ db: Database, table: String, _ e: BBox) throws {
        try db.execute(sql: """
            UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ?,
              last_change = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE table_name = ?
            """, arguments: e.isEmpty ? [nil, nil, nil, nil, table] : [e.minX, e.minY, e.maxX, e.maxY, table])
    }

    /// Sets a feature table's extent and last_change in gpkg_contents, exactly from its
    /// geometries (the R-tree holds 32-bit floats rounded outward).
    static func updateExtent(_ db: Database, table: String, geometryColumn c: String = "geom") throws {
        try db.execute(sql: """
            UPDATE gpkg_contents SET
              (min_x, min_y, max_x, max_y) = (SELECT min(ST_MinX(\(c))), min(ST_MinY(\(c))), max(ST_MaxX(\(c))), max(ST_MaxY(\(c))) FROM \(table)),
              last_change = strftime('%Y-%m-%dT%H:%M:%fZ','now')
            WHERE table_name = ?
            """, arguments: [table])
    }

    /// Creates the R-tree index of a feature table (extension gpkg_rtree_index) and fills it
    /// from the rows present.
    static func createSpatialIndex(_ db: Database, table t: String, geometryColumn c: String = "geom", idColumn i: String = "fid") throws {
        let r = "rtree_\(t)_\(c)"
        try db.execute(sql: "CREATE VIRTUAL TABLE \(r) USING rtree(id, minx, maxx, miny, maxy)")
        try db.execute(sql: "INSERT INTO gpkg_extensions VALUES (?, ?, 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')",
                       arguments: [t, c])
        try fillSpatialIndex(db, table: t, geometryColumn: c, idColumn: i)
        try createSpatialIndexTriggers(db, table: t, geometryColumn: c, idColumn: i)
    }

    /// Rebuilds the R-tree rows in one statement (after a bulk load, with the triggers off).
    static func fillSpatialIndex(_ db: Database, table t: String, geometryColumn c: String = "geom", idColumn i: String = "fid") throws {
        let r = "rtree_\(t)_\(c)"
        try db.execute(sql: "DELETE FROM \(r)")
        try db.execute(sql: """
            INSERT INTO \(r) SELECT \(i), ST_MinX(\(c)), ST_MaxX(\(c)), ST_MinY(\(c)), ST_MaxY(\(c))
            FROM \(t) WHERE \(c) NOT NULL AND NOT ST_IsEmpty(\(c))
            """)
    }

    /// The R-tree triggers' names: those of GeoPackage 1.2 (F.3), and `update5`-`update7`,
    /// which 1.4 has instead of `update1` and `update3` (dropped too, for older campaigns).
    static let triggerSuffixes = ["insert", "update1", "update2", "update3", "update4", "update5", "update6", "update7", "delete"]

    static func dropSpatialIndexTriggers(_ db: Database, table t: String, geometryColumn c: String = "geom") throws {
        for s in triggerSuffixes { try db.execute(sql: "DROP TRIGGER IF EXISTS rtree_\(t)_\(c)_\(s)") }
    }

    /// The six triggers of GeoPackage 1.2 (F.3) that keep the R-tree in step with the table.
    static func createSpatialIndexTriggers(_ db: Database, table t: String, geometryColumn c: String = "geom", idColumn i: String = "fid") throws {
        let r = "rtree_\(t)_\(c)"
        let box = "ST_MinX(NEW.\(c)), ST_MaxX(NEW.\(c)), ST_MinY(NEW.\(c)), ST_MaxY(NEW.\(c))"
        try db.execute(sql: """
            CREATE TRIGGER \(r)_insert AFTER INSERT ON \(t)
            WHEN (new.\(c) NOT NULL AND NOT ST_IsEmpty(NEW.\(c)))
            BEGIN INSERT OR REPLACE INTO \(r) VALUES (NEW.\(i), \(box)); END;
            CREATE TRIGGER \(r)_update1 AFTER UPDATE OF \(c) ON \(t)
            WHEN OLD.\(i) = NEW.\(i) AND (NEW.\(c) NOTNULL AND NOT ST_IsEmpty(NEW.\(c)))
            BEGIN INSERT OR REPLACE INTO \(r) VALUES (NEW.\(i), \(box)); END;
            CREATE TRIGGER \(r)_update2 AFTER UPDATE OF \(c) ON \(t)
            WHEN OLD.\(i) = NEW.\(i) AND (NEW.\(c) ISNULL OR ST_IsEmpty(NEW.\(c)))
            BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); END;
            CREATE TRIGGER \(r)_update3 AFTER UPDATE ON \(t)
            WHEN OLD.\(i) != NEW.\(i) AND (NEW.\(c) NOTNULL AND NOT ST_IsEmpty(NEW.\(c)))
            BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); INSERT OR REPLACE INTO \(r) VALUES (NEW.\(i), \(box)); END;
            CREATE TRIGGER \(r)_update4 AFTER UPDATE ON \(t)
            WHEN OLD.\(i) != NEW.\(i) AND (NEW.\(c) ISNULL OR ST_IsEmpty(NEW.\(c)))
            BEGIN DELETE FROM \(r) WHERE id IN (OLD.\(i), NEW.\(i)); END;
            CREATE TRIGGER \(r)_delete AFTER DELETE ON \(t)
            WHEN old.\(c) NOT NULL
            BEGIN DELETE FROM \(r) WHERE id = OLD.\(i); END;
            """)
    }
}
