#!/usr/bin/env python3
"""The mapnik anchor of `flyr render`: draws a campaign GeoPackage's buildings and roads to a
PNG with mapnik (Python bindings: `pip install mapnik`), in the view flyr fits to the same
file (the buildings' extent, 24 px of padding, Web Mercator) and in flyr's default style:
background, road casings then roads by class width, footprints filled by status (scanned,
hot, visited, not visited, no address) with a 0.5 px outline. No labels, legend, scale bar
or title. Usage: bench/mapnik_render.py campaign.gpkg out.png [--size 4096]"""
import argparse, math, sqlite3, sys

import mapnik

STATUS_FILL = {"scanned": "#facc15", "hot": "#3b82f6", "visited": "#22c55e", "other": "#ef4444", "orphan": "#cbd5e1"}
ROAD_WIDTHS = {"motorway": 10, "trunk": 9, "primary": 8, "secondary": 7, "tertiary": 6, "residential": 5, "unclassified": 5,
               "living_street": 4, "service": 3, "pedestrian": 2, "footway": 1.5, "path": 1.5, "cycleway": 1.5,
               "steps": 1.5, "track": 2}
DEFAULT_ROAD = 3
R = 6378137.0

# flyr's status rule (StatusColor): scanned over hot over visited; no status and no address: orphan.
BUILDINGS_SQL = """SELECT b.geom, CASE WHEN coalesce(s.scans_total, 0) > 0 THEN 'scanned'
  WHEN s.status = 'hot' THEN 'hot' WHEN s.status = 'visited' THEN 'visited'
  WHEN b.feature_status = 'orphan_building' THEN 'orphan' ELSE 'other' END AS paint
FROM buildings b LEFT JOIN building_stats s ON s.gers_id = b.gers_id ORDER BY b.fid"""


def mercator(lon, lat):
    return R * math.radians(lon), R * math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


def view_box(path, size, padding=24.0):
    """flyr's fitted view (MapView): the buildings' extent with `padding` pixels around it."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        w, s, e, n = db.execute("SELECT min_x, min_y, max_x, max_y FROM gpkg_contents WHERE table_name = 'buildings'").fetchone()
    (x0, y0), (x1, y1) = mercator(w, s), mercator(e, n)
    usable = max(size - 2 * padding, 1)
    mpp = max(max(x1 - x0, 1) / usable, max(y1 - y0, 1) / usable)
    cx, cy, half = (x0 + x1) / 2, (y0 + y1) / 2, size / 2 * mpp
    return mapnik.Box2d(cx - half, cy - half, cx + half, cy + half)


def style(rules):
    s = mapnik.Style()
    for r in rules:
        s.rules.append(r)
    return s


def rule(filter_text, *symbolizers):
    r = mapnik.Rule()
    if filter_text == "else":
        r.set_else(True)
    elif filter_text:
        r.filter = mapnik.Expression(filter_text)
    for sym in symbolizers:
        r.symbolizers.append(sym)
    return r


def line(color, width, round_=True):
    """A stroke; round caps and joins (roads) or flyr's footprint outline (miter, butt)."""
    sym = mapnik.LineSymbolizer()
    sym.stroke = mapnik.Color(color)
    sym.stroke_width = width
    sym.stroke_linecap = mapnik.stroke_linecap.ROUND_CAP if round_ else mapnik.stroke_linecap.BUTT_CAP
    sym.stroke_linejoin = mapnik.stroke_linejoin.ROUND_JOIN if round_ else mapnik.stroke_linejoin.MITER_JOIN
    return sym


def build_map(path, size):
    m = mapnik.Map(size, size, "epsg:3857")
    m.background = mapnik.Color("#f1f5f9")
    # Casings under every road, then the roads, each by class width (flyr: narrowest first).
    casing = [rule(f"[class] = '{c}'", line("#94a3b8", w + 2)) for c, w in ROAD_WIDTHS.items()] + [rule("else", line("#94a3b8", DEFAULT_ROAD + 2))]
    road = [rule(f"[class] = '{c}'", line("#ffffff", w)) for c, w in ROAD_WIDTHS.items()] + [rule("else", line("#ffffff", DEFAULT_ROAD))]
    m.append_style("casing", style(casing))
    m.append_style("road", style(road))
    roads = mapnik.Layer("roads", "epsg:4326")
    roads.datasource = mapnik.Ogr(file=path, layer="segments")
    roads.styles.append("casing")
    roads.styles.append("road")
    fills = []
    for status, color in STATUS_FILL.items():
        poly = mapnik.PolygonSymbolizer()
        poly.fill = mapnik.Color(color)
        fills.append(rule(f"[paint] = '{status}'", poly, line("#475569", 0.5, round_=False)))
    m.append_style("buildings", style(fills))
    buildings = mapnik.Layer("buildings", "epsg:4326")
    buildings.datasource = mapnik.Ogr(file=path, layer_by_sql=BUILDINGS_SQL)
    buildings.styles.append("buildings")
    m.layers.append(roads)
    m.layers.append(buildings)
    m.zoom_to_box(view_box(path, size))
    return m


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("campaign")
    p.add_argument("output")
    p.add_argument("--size", type=int, default=4096)
    a = p.parse_args()
    m = build_map(a.campaign, a.size)
    image = mapnik.Image(a.size, a.size)
    mapnik.render(m, image)
    image.save(a.output, "png")
    print(f"mapnik_render: {a.output} {a.size}x{a.size} px", file=sys.stderr)


if __name__ == "__main__":
    main()
