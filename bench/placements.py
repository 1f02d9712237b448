#!/usr/bin/env python3
"""Derives more address placements from an area with a truth table, to check the linker on
placements it was not shaped on. Each is made from the truth building and the road network
only (never from flyr's output):

  entrance      on the footprint's edge nearest its street, 1 m outside (a door point); where
                that spot stands in or by another footprint (a house in a row behind another),
                at the spot 1 m out from the outline nearest the street that stands 5 cm clear
                of every footprint, as a door opens onto open ground; on the outline itself
                where no such spot is
  interpolated  an interpolation line, as OpenStreetMap's addr:interpolation ways: per block
                face (one side of a named street between junctions), a line from the first
                house to the last along the street, 8 m off its centreline; every number is
                placed on it by linear interpolation between the face's lowest and highest
                numbers (uneven lots and gaps give the error); hyphenated numbers (Queens'
                "239-27") are ranged per block, as a street-range geocoder ranges them
  centreline    the interpolation line's rule on the street's centreline itself, as a street
                range geocoder that sets no offset returns a point (TIGER-style): where along
                the street, not on which side
  parcel        a parcel centroid: the footprint's centroid moved away from the street, into
                the back yard, by a fixed pseudo-random 0-10 m, and sideways by -1..1 m
  geocoded      a street-range geocoder's point, by the rule of queens-village-ny's README:
                the road's point nearest the centroid, slid along it by a fixed pseudo-random
                -6..6 m, 7 m off the centreline on the building's side (half the centroid's
                distance when that is under 8 m)
  mixed         each address placed by the entrance, interpolated, parcel or geocoded rule, or
                left as given (inside its footprint), drawn per address: one file whose points
                come placed in several ways, as an address theme merged from many sources does

Usage: bench/placements.py AREA_DIR OUT_DIR [--slide M] [--offset M] [--seed TEXT]. Needs
shapely and pyproj (pip install shapely pyproj). Writes OUT_DIR/addresses-NAME.geojsonseq and
links the area's other files in. --slide and --offset change the geocoder's slide (6 m) and
offset (7 m); --seed draws other slides (the pseudo-random numbers hash the address id with it),
so one area gives several geocoder-style placements of the same rule."""
import argparse, csv, hashlib, json, math, os, re, sys

import pyproj
from shapely import STRtree
from shapely.geometry import Point, shape
import numpy as np
import shapely

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layers import layer  # noqa: E402

DRIVABLE = {"motorway", "trunk", "primary", "secondary", "tertiary", "residential", "living_street",
            "unclassified", "service", "pedestrian", "track", "unknown"}


def features(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if text.lstrip().startswith('{"type"') and '"FeatureCollection"' in text[:200]:
        return json.loads(text)["features"]
    return [json.loads(line.lstrip("\x1e")) for line in text.splitlines() if line.strip()]


def norm(s):
    s = re.sub(r"[^a-z0-9 ]", "", (s or "").lower())
    return re.sub(r"\b(\d+)(st|nd|rd|th)\b", r"\1", s)


def number(n, blocks):
    """House number as a sortable integer, read as flyr reads it: "116-23" -> 116023 where the
    data set writes block-hyphen-house (`blocks`), else 116 (a range, "12-14" -> 12); "12a" -> 12;
    None if none."""
    m = re.match(r"^\s*(\d+)(?:-(\d+))?", n or "")
    if not m:
        return None
    first, house = int(m.group(1)), m.group(2)
    return first * 1000 + min(int(house), 999) if blocks and house is not None else first


def block_style(numbers):
    """True when most numbers with digits hold a hyphen (Queens' "197-02")."""
    with_digits = [n for n in numbers if n and re.search(r"\d", n)]
    return 2 * sum("-" in n for n in with_digits) > len(with_digits)


def unit(h):
    """A fixed pseudo-random number in [0, 1) from a text."""
    return int(hashlib.sha256(h.encode()).hexdigest()[:12], 16) / 16 ** 12


def main():
    ap = argparse.ArgumentParser(description="Derives address placements from an area's truth.")
    ap.add_argument("area")
    ap.add_argument("out")
    ap.add_argument("--slide", type=float, default=6.0, help="the geocoder's largest slide along the road (m)")
    ap.add_argument("--offset", type=float, default=7.0, help="the geocoder's offset from the centreline (m)")
    ap.add_argument("--seed", default="", help="a text the geocoder's slides are drawn with")
    args = ap.parse_args()
    area, out = args.area, args.out
    os.makedirs(out, exist_ok=True)
    crs = pyproj.CRS.from_user_input(4326)
    feats_b = features(layer(area, "buildings"))
    g0 = shape(feats_b[0]["geometry"]).centroid
    utm = pyproj.CRS.from_dict({"proj": "utm", "zone": int((g0.x + 180) // 6) + 1, "south": g0.y < 0})
    fwd = pyproj.Transformer.from_crs(crs, utm, always_xy=True).transform
    back = pyproj.Transformer.from_crs(utm, crs, always_xy=True).transform
    def transform(f, g):
        return shapely.transform(g, lambda c: np.column_stack(f(c[:, 0], c[:, 1])))
    B = {f.get("id") or f["properties"]["id"]: transform(fwd, shape(f["geometry"])) for f in feats_b}
    roads = []
    for f in features(layer(area, "segments")):
        p = f["properties"]
        if p.get("class", "unknown") in DRIVABLE:
            roads.append((norm((p.get("names") or {}).get("primary")), transform(fwd, shape(f["geometry"]))))
    tree = STRtree([g for _, g in roads])
    footprints = list(B.values())
    ftree = STRtree(footprints)

    def open_ground(p, b):
        """True when no footprint, `b` included, stands within 5 cm of the point `p` (more than
        the written coordinates' round-off, 1e-7 degrees)."""
        return b.distance(p) >= 0.05 and len(ftree.query(p, predicate="dwithin", distance=0.05)) == 0

    def front(b, g, c):
        """The point of footprint `b`'s outline nearest road `g`'s point nearest the centroid `c`,
        and the road's point nearest it."""
        e = b.exterior.interpolate(b.exterior.project(g.interpolate(g.project(c))))
        return e, g.interpolate(g.project(e))

    def door(b, g, e, r):
        """A door point of footprint `b` fronting road `g`: 1 m out from its front `e` toward the
        road's point `r` (`front`), where that spot is open ground; else the open spot 1 m out from
        the outline (every 0.5 m of it) nearest the road; else the front itself."""
        d = e.distance(r) or 1
        p = Point(e.x + (r.x - e.x) / d, e.y + (r.y - e.y) / d)
        if open_ground(p, b):
            return p
        ring, best = b.exterior, None
        steps = max(int(ring.length / 0.5), 8)
        for i in range(steps):
            t = i * ring.length / steps
            u, v = ring.interpolate((t - 0.25) % ring.length), ring.interpolate((t + 0.25) % ring.length)
            n = math.hypot(v.x - u.x, v.y - u.y) or 1
            o = ring.interpolate(t)
            for sgn in (1, -1):
                q = Point(o.x - sgn * (v.y - u.y) / n, o.y + sgn * (v.x - u.x) / n)
                dq = g.distance(q)
                if (best is None or dq < best[0]) and open_ground(q, b):
                    best = (dq, q)
        return best[1] if best else e
    truth = {r["address_id"]: r["building_id"] for r in csv.DictReader(open(os.path.join(area, "truth.csv")))}
    addresses = features(layer(area, "addresses"))

    def street_of(a, b):
        """The road an address fronts: nearest same-named road within 150 m, else nearest road."""
        near = [k for k in tree.query(b.buffer(150)) if roads[k][0] == norm(a["properties"].get("street"))]
        k = min(near or list(tree.query(b.buffer(150))) or [tree.nearest(b)], key=lambda k: roads[k][1].distance(b))
        return k

    def junctions(k):
        """Distances along road k where another road meets or crosses it, with both ends."""
        g = roads[k][1]
        ts = {0.0, g.length}
        for j in tree.query(g.buffer(1)):
            if j != k:
                x = g.intersection(roads[j][1].buffer(0.5))
                if not x.is_empty:
                    ts.add(g.project(x.centroid))
        return sorted(ts)

    def tangent(g, t):
        """The road's point at t and its unit direction there (over 2 m)."""
        p, q = g.interpolate(max(t - 1, 0)), g.interpolate(min(t + 1, g.length))
        n = math.hypot(q.x - p.x, q.y - p.y) or 1
        return g.interpolate(t), (q.x - p.x) / n, (q.y - p.y) / n

    def side(g, t, c):
        m, dx, dy = tangent(g, t)
        return 1 if dx * (c.y - m.y) - dy * (c.x - m.x) > 0 else -1

    def at(g, t, s, off):
        m, dx, dy = tangent(g, t)
        return Point(m.x - s * dy * off, m.y + s * dx * off)

    placed = {"entrance": {}, "interpolated": {}, "centreline": {}, "parcel": {}, "geocoded": {}}
    blocks = block_style(a["properties"].get("number") for a in addresses)
    faces, jcache = {}, {}
    for a in addresses:
        aid = a["id"]
        if aid not in truth or truth[aid] not in B:
            continue
        b = B[truth[aid]]
        k = street_of(a, b)
        g = roads[k][1]
        c = b.centroid
        e, r = front(b, g, c)
        placed["entrance"][aid] = door(b, g, e, r)
        # Parcel: away from the street 0-10 m, sideways -1..1 m.
        d2 = c.distance(r) or 1
        ux, uy = (r.x - c.x) / d2, (r.y - c.y) / d2
        f, l = -10 * unit(aid + "f"), 2 * unit(aid + "l") - 1
        placed["parcel"][aid] = Point(c.x + ux * f - uy * l, c.y + uy * f + ux * l)
        t = g.project(c)
        # Geocoded: slid along the road, set off it on the building's side.
        dc = c.distance(g.interpolate(t))
        slid = min(max(t + 2 * args.slide * unit(aid + "g" + args.seed) - args.slide, 0), g.length)
        placed["geocoded"][aid] = at(g, slid, side(g, slid, c), args.offset if dc >= args.offset + 1 else dc / 2)
        # Interpolated: collect the block faces first.
        js = jcache.setdefault(k, junctions(k))
        i = max(j for j in range(len(js) - 1) if js[j] <= t) if t < js[-1] else len(js) - 2
        n = number(a["properties"].get("number"), blocks)
        if n is not None:
            # Hyphenated numbers ("239-27") are ranged per block, as a street-range geocoder's
            # ranges are: a face whose houses change block is two ranges, not one from 238-01
            # to 239-27.
            faces.setdefault((k, i, side(g, t, c), n // 1000 if blocks else 0), []).append((n, t, aid))
    for (k, i, s, _), rows in faces.items():
        g = roads[k][1]
        # The line runs from the lowest number's house to the highest's, whichever way that is.
        rows.sort()
        t0, t1 = rows[0][1], rows[-1][1]
        n0, n1 = rows[0][0], rows[-1][0]
        for n, _, aid in rows:
            f = 0.5 if n1 == n0 else (n - n0) / (n1 - n0)
            placed["interpolated"][aid] = at(g, t0 + f * (t1 - t0), s, 8)
            placed["centreline"][aid] = at(g, t0 + f * (t1 - t0), s, 0)
    # Mixed: a point left out of it keeps its place as given.
    kinds = ["given", "entrance", "interpolated", "parcel", "geocoded"]
    placed["mixed"] = {}
    for aid in placed["parcel"]:
        kind = kinds[int(unit(aid + "mixed") * len(kinds))]
        if kind != "given" and aid in placed[kind]:
            placed["mixed"][aid] = placed[kind][aid]
    for name, pts in placed.items():
        with open(os.path.join(out, f"addresses-{name}.geojsonseq"), "w", encoding="utf-8") as fh:
            for a in addresses:
                a = dict(a)
                if a["id"] in pts:
                    x, y = back(pts[a["id"]].x, pts[a["id"]].y)
                    a["geometry"] = {"type": "Point", "coordinates": [round(x, 7), round(y, 7)]}
                fh.write(json.dumps(a, separators=(",", ":"), ensure_ascii=False) + "\n")
    for src in (layer(area, "buildings"), layer(area, "segments"), os.path.join(area, "truth.csv"), layer(area, "addresses")):
        dst = os.path.join(out, os.path.basename(src))
        if not os.path.exists(dst):
            os.symlink(os.path.abspath(src), dst)
    print(f"placements: {', '.join(f'{k} {len(v)}' for k, v in placed.items())} in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
