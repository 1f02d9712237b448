#!/usr/bin/env python3
"""Gives an area converted by osm_to_overture_geojson.py a larger truth table: every address
point (an OpenStreetMap address node: an entrance, a shop, a house's address) that lies inside
or on exactly one building polygon is marked as derived from that building, as the conversion
marks addresses tagged on the polygon itself. reshape_overture.py then writes it to truth.csv
and moves it to the street frontage like the others. Points inside no building or inside
several are left as they are.

Usage: bench/node_truth.py DIR (the folder with addresses.geojson and buildings.geojson)."""
import json, os, sys

from shapely import STRtree
from shapely.geometry import shape


def main():
    d = sys.argv[1]
    path = os.path.join(d, "addresses.geojson")
    with open(path, encoding="utf-8") as fh:
        addresses = json.load(fh)
    with open(os.path.join(d, "buildings.geojson"), encoding="utf-8") as fh:
        buildings = json.load(fh)["features"]
    geoms = [shape(f["geometry"]) for f in buildings]
    tree = STRtree(geoms)
    marked = 0
    for f in addresses["features"]:
        p = f["properties"]
        if p.get("derived_from_building"):
            continue
        point = shape(f["geometry"])
        hits = [i for i in tree.query(point) if geoms[i].covers(point)]
        if len(hits) == 1:
            p["derived_from_building"] = True
            p["building_id"] = buildings[hits[0]]["properties"]["id"]
            marked += 1
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(addresses, fh)
    print(f"node_truth: {marked} address points inside one building marked", file=sys.stderr)


if __name__ == "__main__":
    main()
