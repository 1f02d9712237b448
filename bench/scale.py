#!/usr/bin/env python3
"""Builds the scaled bench set from queens-village-ny: the area tiled N times side by side
(longitude offsets of the area's width), ids made unique with a tile suffix, addresses and
segments tiled with their buildings. Written once into OUT (outside the repo) and reused.
Usage: bench/scale.py SRC_DIR OUT_DIR N"""
import json, os, sys

def lines(path):
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n").rstrip(",")
            if line.endswith("}]}"):
                line = line[:-2]
            if line.startswith('{"id"'):
                yield line

def shift(coords, dx):
    if isinstance(coords[0], (int, float)):
        return [round(coords[0] + dx, 7)] + coords[1:]
    return [shift(c, dx) for c in coords]

def main(src, out, n):
    n = int(n)
    done = os.path.join(out, f".done-{n}")
    if os.path.exists(done):
        return
    os.makedirs(out, exist_ok=True)
    west, east = -73.7698013, -73.7161577
    width = east - west + 0.002
    for name, collection in (("buildings.geojson", True), ("segments.geojson", True), ("addresses.geojsonseq", False)):
        feats = [json.loads(l) for l in lines(os.path.join(src, name))]
        tmp = os.path.join(out, name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            if collection:
                fh.write('{"type": "FeatureCollection", "features": [\n')
            first = True
            for k in range(n):
                for f in feats:
                    g = dict(f)
                    g["id"] = f"{f['id']}-t{k}"
                    g["geometry"] = {"type": f["geometry"]["type"], "coordinates": shift(f["geometry"]["coordinates"], k * width)}
                    text = json.dumps(g, separators=(",", ":"), ensure_ascii=False)
                    if collection:
                        fh.write(text if first else ",\n" + text)
                    else:
                        fh.write(text + "\n")
                    first = False
            if collection:
                fh.write("]}")
        os.replace(tmp, os.path.join(out, name))
    open(done, "w").close()

if __name__ == "__main__":
    main(*sys.argv[1:4])
