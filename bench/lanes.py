#!/usr/bin/env python3
"""Houses along an unnamed lane off the street that numbers them, and how well flyr links them.

A truth address is a lane house when its building stands farther than LANE_GAP metres from the
nearest line of its own street and nearer an unnamed road a house can front than that line (a
lane, a living street or a driveway off the street). For each area with a truth table and each
placement (`--derived`: the placements bench/placements.py derives too), it prints the share of
lane houses and of the other truth rows that flyr links to their truth building; then, for each
lane holding at least three numbers of one street, whether the numbers grow or fall going in
(Kendall's tau between number and distance from the street, pairs at least 5 m apart in depth);
last, each cell's misses by kind (KINDS), the first that holds: linked by COVERS to another
footprint; a lane house; a house standing deeper than LANE_GAP from its street's line; an
address whose street has no line within STREET_SEARCH of its house (or no street); a house
holding several truth numbers; else a house at the front of its street.

Usage: bench/lanes.py [--derived] [--data DIR]...   (needs shapely and pyproj)"""
import argparse, collections, csv, os, sys, tempfile, warnings

from pyproj import Transformer
from shapely import STRtree
from shapely.geometry import shape
from shapely.ops import transform

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy  # noqa: E402
from bench import table  # noqa: E402
from placements import DRIVABLE, block_style, features, number  # noqa: E402

LANE_GAP = 15.0  # metres: a house this near its own street's line fronts that street
STREET_SEARCH = 150.0  # metres: how far the linker looks for the line of an address's street
FRONTS = DRIVABLE - {"motorway"}  # the roads a house can front


def read_truth(case):
    """{address id: truth building id} of the case's truth table."""
    return {r["address_id"]: r["building_id"] for r in csv.DictReader(open(case[5], encoding="utf-8"))}


def lane_houses(case, truth):
    """{address id: (is a lane house, the lane's id, depth from the street, number, truth
    building)} for the case's truth rows (`truth`) whose street has a line within STREET_SEARCH."""
    _, _, b_path, a_path, s_path, _ = case
    addresses = features(a_path)
    props = {f["id"]: f["properties"] for f in addresses}
    blocks = block_style(p.get("number") for p in props.values())
    first = next(f for f in addresses if f["id"] in truth)["geometry"]["coordinates"]
    to_m = Transformer.from_crs(4326, f"+proj=tmerc +lon_0={first[0]} +lat_0={first[1]}", always_xy=True).transform
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        metric = lambda g: transform(to_m, shape(g))  # noqa: E731
        want = set(truth.values())
        houses = {f["id"]: metric(f["geometry"]) for f in features(b_path) if f["id"] in want}
        roads = [(metric(f["geometry"]), (f["properties"].get("names") or {}).get("primary") or "", f["id"])
                 for f in features(s_path) if f["properties"].get("class") in FRONTS]
    index = STRtree([r[0] for r in roads])
    out = {}
    for a, b in truth.items():
        street, house = props[a].get("street") or "", houses[b]
        near = [roads[i] for i in index.query(house, predicate="dwithin", distance=STREET_SEARCH)]
        own = min((r[0].distance(house) for r in near if r[1] == street), default=None)
        if not street or own is None:
            continue
        lane = min(((r[0].distance(house), r[2]) for r in near if r[1] == ""), default=None)
        is_lane = lane is not None and lane[0] < own and own > LANE_GAP
        out[a] = (is_lane, (street, lane[1]) if is_lane else None, own, number(props[a].get("number"), blocks), b)
    return out


KINDS = ("covered", "lane house", "deep", "street not found", "several numbers", "front")


def split(case, houses, truth, tmp):
    """(lane rows, lane right, other rows, other right) of flyr's links of the case, and its
    misses among its truth rows (`truth`) counted by kind (KINDS)."""
    out = os.path.join(tmp, "links.csv")
    accuracy.link(case, [], out)
    links = {r["address_id"]: r for r in csv.DictReader(open(out, encoding="utf-8"))}
    n = collections.Counter()
    for a, (is_lane, *_, b) in houses.items():
        n[is_lane, links[a]["building_id"] == b] += 1
    held = collections.Counter(truth.values())
    misses = collections.Counter()
    for a, b in truth.items():
        if links[a]["building_id"] == b:
            continue
        house = houses.get(a)
        misses["covered" if links[a]["method"] == "COVERS" else "street not found" if house is None
               else "lane house" if house[0] else "deep" if house[2] > LANE_GAP else "several numbers" if held[b] > 1
               else "front"] += 1
    return (n[True, True] + n[True, False], n[True, True], n[False, True] + n[False, False], n[False, True]), misses


def directions(houses):
    """(grow, fall, no order): the lanes of at least three numbers of one street, by the sign of
    Kendall's tau between number and depth."""
    lanes = collections.defaultdict(list)
    for is_lane, lane, depth, n, _ in houses.values():
        if is_lane and n is not None:
            lanes[lane].append((depth, n))
    grow = fall = flat = 0
    for v in lanes.values():
        if len({n for _, n in v}) < 3:
            continue
        pairs = [(d1 - d2) * (n1 - n2) for i, (d1, n1) in enumerate(v) for d2, n2 in v[i + 1:] if abs(d1 - d2) >= 5 and n1 != n2]
        tau = sum(1 if p > 0 else -1 for p in pairs) / max(1, len(pairs))
        grow, fall, flat = grow + (tau >= 0.5), fall + (tau <= -0.5), flat + (-0.5 < tau < 0.5)
    return grow, fall, flat


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", action="append", help="a folder of areas (repeatable)")
    ap.add_argument("--derived", action="store_true", help="also the placements derived from each area's truth")
    args = ap.parse_args()
    folders = args.data or [d for d in (os.path.join(accuracy.ROOT, "..", "shared", "data"), os.path.join(accuracy.CACHE, "areas"))
                            if os.path.isdir(d)]
    cases = [c for d in folders for c in accuracy.cases(os.path.abspath(d))]
    if args.derived:
        cases += [c for d in folders for c in accuracy.derived_cases(os.path.abspath(d))]
    share = lambda right, rows: f"{100 * right / rows:.1f} %" if rows else "-"  # noqa: E731
    rows, dirs, kinds = [], [], []
    with tempfile.TemporaryDirectory(prefix="flyr-lanes-") as tmp:
        for c in cases:
            truth = read_truth(c)
            houses = lane_houses(c, truth)
            (lane, lane_right, other, other_right), misses = split(c, houses, truth, tmp)
            rows.append([c[0], c[1], lane, share(lane_right, lane), other, share(other_right, other)])
            kinds.append([c[0], c[1], sum(misses.values()), *(misses[k] for k in KINDS)])
            if c[1] == "as given":
                dirs.append([c[0], *directions(houses)])
    table(f"Lane houses (nearer an unnamed road than their own street, over {LANE_GAP:g} m from it): share flyr links right",
          ["area", "placement", "lane houses", "right", "other rows", "right"], rows)
    table("Lanes holding at least three numbers of one street: do the numbers grow going in?",
          ["area", "grow going in", "fall going in", "no order"], dirs)
    table("Misses by kind (the first that holds, in this order)", ["area", "placement", "misses", *KINDS], kinds)


if __name__ == "__main__":
    main()
