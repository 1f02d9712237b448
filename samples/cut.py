#!/usr/bin/env python3
"""Cut samples/queens-village from ../shared/data/queens-village-ny (stdlib only).

Keeps features whose bbox intersects BBOX (the Overture CLI's rule), in the same layout as
the source files: buildings and segments as FeatureCollections, addresses as GeoJSONSeq,
and the truth rows of the kept addresses whose building is kept.
Usage: python3 samples/cut.py SRC_DIR OUT_DIR
"""
import json, os, sys

BBOX = (-73.7420, 40.7150, -73.7350, 40.7200)  # W, S, E, N


def bbox_of(coords):
    xs, ys = [], []
    def walk(c):
        if isinstance(c[0], (int, float)):
            xs.append(c[0]); ys.append(c[1])
        else:
            for x in c: walk(x)
    walk(coords)
    return min(xs), min(ys), max(xs), max(ys)


def keep(line):
    f = json.loads(line)
    w, s, e, n = bbox_of(f["geometry"]["coordinates"])
    return not (e < BBOX[0] or w > BBOX[2] or n < BBOX[1] or s > BBOX[3])


def features(path):
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n").rstrip(",")
            if line.endswith("}]}"):  # the last feature of a FeatureCollection
                line = line[:-2]
            if line.startswith("{\"id\""):
                yield line


def main(src, out):
    os.makedirs(out, exist_ok=True)
    buildings = set()
    for name in ("buildings.geojson", "segments.geojson"):
        kept = [l for l in features(os.path.join(src, name)) if keep(l)]
        if name == "buildings.geojson":
            buildings = {json.loads(l)["id"] for l in kept}
        with open(os.path.join(out, name), "w", encoding="utf-8") as fh:
            fh.write('{"type": "FeatureCollection", "features": [\n' + ",\n".join(kept) + "]}")
    # An address is kept in both files when either of its placements lies in the box, so
    # the two files hold the same ids and the truth rows fit both.
    names = ("addresses.geojsonseq", "addresses-streetside.geojsonseq")
    ids = set()
    for name in names:
        ids |= {json.loads(l)["id"] for l in features(os.path.join(src, name)) if keep(l)}
    for name in names:
        kept = [l for l in features(os.path.join(src, name)) if json.loads(l)["id"] in ids]
        with open(os.path.join(out, name), "w", encoding="utf-8") as fh:
            fh.write("".join(l + "\n" for l in kept))
    with open(os.path.join(src, "truth.csv"), encoding="utf-8") as fh, \
         open(os.path.join(out, "truth.csv"), "w", encoding="utf-8") as oh:
        header = fh.readline()
        oh.write(header)
        # A row whose building lies outside the box (its address kept for a frontage point
        # inside it) names a building the sample lacks: no link could match it.
        for row in fh:
            address, building = row.rstrip("\r\n").split(",")[:2]
            if address in ids and building in buildings:
                oh.write(row)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
