#!/usr/bin/env python3
"""How much a geocoder-style point's position alone says about its house, against how often the
linker finds the house. A geocoder-style point (bench/placements.py's rule, queens-village-ny's
README) stands 7 m off its street's centreline on its house's side, slid up to 6 m along the
street. So every home whose centroid's foot on that street lies within the slide of the point's
foot, on the same side, is as consistent with the point as the right one. This counts, for each
truth address, the homes so consistent: buildings that hold a truth address of the same street
(the point's own building among them). Points slid onto a street end are counted apart: there the
slide was cut short, so the point may stand far from its house along the street.

The street is found by the generator's rule from the truth building (the same-named road nearest
it within 150 m), so this reads the placement as its maker did; the linker does not know it.
The house numbers are not used here: where several homes are consistent, chiefly their order along
the face (the linker's alignment) can tell them apart.

Usage: bench/ambiguity.py [--data DIR]... [--slide M]: every geocoder-style cell of
bench/accuracy.py's matrix (an area's own addresses-geocoded, else the one derived into the
cache), linked by .build/release/flyr, one row per area. Needs shapely and pyproj."""
import argparse, csv, os, subprocess, sys, tempfile

import pyproj
import shapely
import numpy as np
from shapely import STRtree
from shapely.geometry import shape

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accuracy import CACHE, FLYR, ROOT, truth_areas  # noqa: E402
from bench import table  # noqa: E402
from layers import layer  # noqa: E402
from placements import DRIVABLE, features, norm  # noqa: E402

CLASSES = ["1", "2", "3-4", "5+", "street end"]


def geocoded(area):
    """The area's geocoder-style address file: its own, else the one derived into the cache."""
    own = layer(area, "addresses-geocoded")
    if own:
        return own
    derived = os.path.join(CACHE, "placements", os.path.basename(area), "addresses-geocoded.geojsonseq")
    return derived if os.path.exists(derived) else None


def links(area, addresses, out):
    """{address id: building id} as flyr links the placement."""
    cmd = [FLYR, "link", "--buildings", layer(area, "buildings"), "--addresses", addresses,
           "--segments", layer(area, "segments"), "-o", out, "--force"]
    subprocess.run(cmd, check=True, capture_output=True)
    with open(out, encoding="utf-8") as fh:
        return {r["address_id"]: r["building_id"] for r in csv.DictReader(fh)}


def metric(area):
    """A function taking a GeoJSON geometry to shapely in the area's UTM zone (metres)."""
    first = shape(features(layer(area, "buildings"))[0]["geometry"]).centroid
    utm = pyproj.CRS.from_dict({"proj": "utm", "zone": int((first.x + 180) // 6) + 1, "south": first.y < 0})
    fwd = pyproj.Transformer.from_crs(4326, utm, always_xy=True).transform
    return lambda g: shapely.transform(shape(g), lambda c: np.column_stack(fwd(c[:, 0], c[:, 1])))


def side(g, t, p):
    """+1 or -1: the side of road `g` (at distance t along it) the point `p` stands on."""
    a, b = g.interpolate(max(t - 1, 0)), g.interpolate(min(t + 1, g.length))
    m = g.interpolate(t)
    return 1 if (b.x - a.x) * (p.y - m.y) - (b.y - a.y) * (p.x - m.x) > 0 else -1


def classify(area, addresses, slide):
    """{address id: class} for the truth addresses of the placement (CLASSES; None where the
    point's own building is not consistent with it, as where its street has no road)."""
    to_m = metric(area)
    cent = {f.get("id") or f["properties"]["id"]: to_m(f["geometry"]).centroid for f in features(layer(area, "buildings"))}
    roads = [(norm((f["properties"].get("names") or {}).get("primary")), to_m(f["geometry"]))
             for f in features(layer(area, "segments")) if f["properties"].get("class", "unknown") in DRIVABLE]
    tree = STRtree([g for _, g in roads])
    with open(os.path.join(area, "truth.csv"), encoding="utf-8") as fh:
        truth = {r["address_id"]: r["building_id"] for r in csv.DictReader(fh)}
    points = {}
    for f in features(addresses):
        aid = f.get("id") or f["properties"]["id"]
        if truth.get(aid) in cent:
            points[aid] = (norm(f["properties"].get("street")), to_m(f["geometry"]))
    homes = {}
    for aid, (street, _) in points.items():
        homes.setdefault(street, set()).add(truth[aid])
    out = {}
    for aid, (street, p) in points.items():
        c = cent[truth[aid]]
        near = list(tree.query(c.buffer(150)))
        same = [k for k in near if roads[k][0] == street]
        if not (same or near):
            out[aid] = None
            continue
        g = roads[min(same or near, key=lambda k: roads[k][1].distance(c))][1]
        tp = g.project(p)
        if tp < 0.05 or tp > g.length - 0.05:
            out[aid] = "street end"
            continue
        sp = side(g, tp, p)
        fits = [h for h in homes[street] if cent[h].distance(g) <= 150 and abs(g.project(cent[h]) - tp) <= slide
                and side(g, g.project(cent[h]), cent[h]) == sp]
        n = len(fits) if truth[aid] in fits else 0
        out[aid] = None if n == 0 else "1" if n == 1 else "2" if n == 2 else "3-4" if n <= 4 else "5+"
    return truth, out


def main():
    ap = argparse.ArgumentParser(description="Geocoder-style accuracy by how many homes a point's position admits.")
    ap.add_argument("--data", action="append", help="a folder of areas (repeatable)")
    ap.add_argument("--slide", type=float, default=6.0, help="the geocoder's largest slide along the street (m)")
    args = ap.parse_args()
    data = args.data or [d for d in (os.path.join(ROOT, "..", "shared", "data"), os.path.join(CACHE, "areas")) if os.path.isdir(d)]
    rows, total = [], {c: [0, 0] for c in CLASSES}
    with tempfile.TemporaryDirectory() as tmp:
        for area, _ in (a for d in data for a in truth_areas(d)):
            addresses = geocoded(area)
            if not addresses:
                continue
            truth, cls = classify(area, addresses, args.slide)
            linked = links(area, addresses, os.path.join(tmp, "links.csv"))
            counts = {c: [0, 0] for c in CLASSES}
            for aid, c in cls.items():
                if c is not None:
                    counts[c][0] += 1
                    counts[c][1] += linked.get(aid) == truth[aid]
            for c in CLASSES:
                total[c][0] += counts[c][0]
                total[c][1] += counts[c][1]
            hit = sum(linked.get(aid) == truth[aid] for aid in cls)
            # The share were every point its position admits one home for linked right.
            bound = 100 * (hit + counts["1"][0] - counts["1"][1]) / len(cls)
            rows.append([os.path.basename(area), cell(len(cls), hit)] + [cell(*counts[c]) for c in CLASSES] + [f"{bound:.1f} %"])
    rows.append(["all areas", "", *[cell(*total[c]) for c in CLASSES], ""])
    table(f"Geocoder-style points (slide {args.slide:g} m): share linked right, by how many homes the position admits",
          ["area", "every point"] + [f"homes {c}" if c != "street end" else c for c in CLASSES] + ["homes 1 all right"], rows)


def cell(n, hit):
    """'share % of n' or '-'."""
    return f"{100 * hit / n:.1f} % of {n}" if n else "-"


if __name__ == "__main__":
    main()
