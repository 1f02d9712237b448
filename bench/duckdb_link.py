#!/usr/bin/env python3
"""The DuckDB (spatial) anchor for `make bench`: the job `flyr link` does, as geopandas_link.py
does it, in DuckDB SQL on all cores: read the three files, a covers join, then for the rest the
nearest footprint within 50 m in the UTM zone of the addresses, and the link table written as
CSV (address_id, building_id, method, distance_m). Both joins run as DuckDB's SPATIAL_JOIN
operator (an R-tree built over one side). Phase seconds go to stderr.
Usage: duckdb_link.py [--reader read_json|st_read|lines] BUILDINGS ADDRESSES SEGMENTS OUT.csv"""
import argparse, glob, os, sys, time
import duckdb

RADIUS_M = 50


def connect():
    """An in-memory database with the spatial extension loaded: from the PyPI package
    duckdb-extension-spatial when installed (no network), else one installed by `INSTALL spatial`."""
    con = duckdb.connect()
    try:
        import duckdb_extension_spatial
        root = os.path.dirname(duckdb_extension_spatial.__file__)
        found = glob.glob(os.path.join(root, "extensions", f"v{duckdb.__version__}", "spatial.duckdb_extension"))
        con.execute(f"LOAD {literal(found[0])}" if found else "LOAD spatial")
    except ImportError:
        con.execute("LOAD spatial")
    con.execute(f"SET threads = {os.cpu_count()}")
    return con


def literal(path):
    """A file path as an SQL string literal."""
    return "'" + os.path.abspath(path).replace("'", "''") + "'"


def collection(path, reader):
    """SQL for a GeoJSON FeatureCollection's (id, geom) rows.
    - read_json: the file parsed as one JSON value, on one thread; holds the whole document.
    - st_read: streamed through GDAL's GeoJSON driver, on one thread.
    - lines: read as lines in parallel (read_csv), each line that is a whole Feature once a
      trailing `,` or `]}` is cut; right only for files written one feature a line, as
      bench/scale.py writes them, so a bound on what DuckDB can do rather than a general reader."""
    if reader == "st_read":
        return f"SELECT id, geom::GEOMETRY AS geom FROM ST_Read({literal(path)})"
    if reader == "lines":
        return f"""SELECT f->>'id' AS id, ST_GeomFromGeoJSON(f->'geometry') AS geom FROM (
                       SELECT regexp_replace(line, '(,|\\]\\}})\\s*$', '') AS f
                       FROM read_csv({literal(path)}, columns = {{'line': 'VARCHAR'}}, header = false,
                                     delim = '\\x01', quote = '', escape = '', max_line_size = 1 << 30))
                   WHERE CASE WHEN json_valid(f) THEN json_extract_string(f, '$.type') = 'Feature' ELSE false END"""
    return f"""SELECT f.id, ST_GeomFromGeoJSON(f.geometry) AS geom FROM (
                   SELECT unnest(features) AS f FROM read_json({literal(path)}, format = 'unstructured',
                       maximum_object_size = {max(os.path.getsize(path) + 1, 16 << 20)},
                       columns = {{'features': 'STRUCT(id VARCHAR, geometry JSON)[]'}}))"""


def read(con, b_path, a_path, s_path, reader):
    """Buildings and segments (FeatureCollections) by `collection`; addresses (GeoJSONSeq) by
    DuckDB's parallel newline-delimited JSON reader, ten times faster here than ST_Read."""
    con.execute(f"CREATE TABLE b AS SELECT id AS building_id, geom FROM ({collection(b_path, reader)})")
    con.execute(f"""CREATE TABLE a AS SELECT id AS address_id, ST_GeomFromGeoJSON(geometry) AS geom
                    FROM read_json({literal(a_path)}, format = 'newline_delimited',
                                   columns = {{'id': 'VARCHAR', 'geometry': 'JSON'}})""")
    # Read, as flyr does; plain nearest does not use them.
    con.execute(f"CREATE TABLE s AS SELECT id AS segment_id, geom FROM ({collection(s_path, reader)})")


def link(con):
    """COVERS: the footprint covers the point in degrees, the smallest id among several (as
    geopandas_link.py); NEAREST: for the rest, the nearest footprint within 50 m in metres of
    the UTM zone of the addresses' mean point, ties to the smaller id; NONE: nothing within 50 m."""
    con.execute("""CREATE TABLE covered AS
                   SELECT a.address_id, min(b.building_id) AS building_id
                   FROM a JOIN b ON ST_Covers(b.geom, a.geom) GROUP BY a.address_id""")
    lon, lat = con.execute("SELECT avg(ST_X(geom)), avg(ST_Y(geom)) FROM a").fetchone()
    utm = f"EPSG:{(32600 if lat >= 0 else 32700) + int((lon + 180) // 6) % 60 + 1}"
    to_utm = f"ST_Transform(geom, 'EPSG:4326', '{utm}', always_xy := true)"
    con.execute(f"""CREATE TABLE rest AS SELECT address_id, {to_utm} AS geom FROM a
                    WHERE address_id NOT IN (SELECT address_id FROM covered)""")
    con.execute(f"CREATE TABLE bm AS SELECT building_id, {to_utm} AS geom FROM b")
    con.execute(f"""CREATE TABLE near AS
                    SELECT r.address_id, bm.building_id, ST_Distance(bm.geom, r.geom) AS distance_m
                    FROM rest r JOIN bm ON ST_DWithin(bm.geom, r.geom, {RADIUS_M})
                    QUALIFY row_number() OVER (PARTITION BY r.address_id ORDER BY distance_m, bm.building_id) = 1""")
    return utm


def write(con, out):
    """The links as CSV in address-id order; distances in metres to 2 decimals, 0 for COVERS."""
    con.execute(f"""COPY (
        SELECT address_id, building_id, 'COVERS' AS method, 0.0 AS distance_m FROM covered
        UNION ALL
        SELECT r.address_id, n.building_id, CASE WHEN n.building_id IS NULL THEN 'NONE' ELSE 'NEAREST' END,
               round(n.distance_m, 2)
        FROM rest r LEFT JOIN near n USING (address_id)
        ORDER BY address_id) TO {literal(out)} (FORMAT csv, HEADER)""")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("buildings"); ap.add_argument("addresses"); ap.add_argument("segments"); ap.add_argument("out")
    ap.add_argument("--reader", choices=("read_json", "st_read", "lines"), default="read_json",
                    help="how the FeatureCollections are read (default read_json, the faster general reader)")
    args = ap.parse_args()
    con = connect()
    t0 = time.perf_counter()
    read(con, args.buildings, args.addresses, args.segments, args.reader)
    t1 = time.perf_counter()
    utm = link(con)
    t2 = time.perf_counter()
    write(con, args.out)
    t3 = time.perf_counter()
    counts = con.execute("""SELECT (SELECT count(*) FROM covered), (SELECT count(*) FROM near),
                                   (SELECT count(*) FROM rest) - (SELECT count(*) FROM near)""").fetchone()
    print(f"duckdb {duckdb.__version__} ({os.cpu_count()} threads, {args.reader}, {utm}): read {t1 - t0:.2f} s, link {t2 - t1:.2f} s, "
          f"write {t3 - t2:.2f} s; "
          f"COVERS {counts[0]}, NEAREST {counts[1]}, NONE {counts[2]}", file=sys.stderr)


if __name__ == "__main__":
    main()
