#!/usr/bin/env python3
"""Cuts a segments file at its junctions, as Overture cuts its road segments: every LineString
is split at each inner vertex it shares with another segment (OpenStreetMap's ways, as the
converters write them, mostly run on through their junctions). Each piece keeps the segment's
properties; the first keeps its id, the others get uuid5(id, piece number), kept where the
segment keeps its id (top-level, or inside properties as the older CLI layout has it). Written as
a FeatureCollection. Link an area with both files and compare: the links should not depend on
where the street was cut.
Usage: bench/cut_segments.py SEGMENTS.geojson OUT.geojson"""
import collections, json, sys, uuid


def feature_id(f):
    """The feature's id: top-level, or inside properties (the older CLI layout)."""
    return f["id"] if "id" in f else (f.get("properties") or {}).get("id")


def piece_id(f, piece):
    """A later piece's id: uuid5 of the segment's id (read as a UUID, else named by it) and the
    piece's number."""
    fid = str(feature_id(f))
    try:
        base = uuid.UUID(fid)
    except ValueError:
        base = uuid.uuid5(uuid.NAMESPACE_URL, fid)
    return str(uuid.uuid5(base, str(piece)))


def set_id(g, fid):
    """Gives a piece its id where its segment keeps one."""
    if "id" in g:
        g["id"] = fid
    else:
        g["properties"] = dict(g.get("properties") or {}, id=fid)


def cut(features):
    """The features with each LineString split at the inner vertices it shares with another."""
    seen = collections.Counter()
    for f in features:
        if f["geometry"]["type"] == "LineString":
            seen.update(set(map(tuple, f["geometry"]["coordinates"])))
    out = []
    for f in features:
        cs = f["geometry"]["coordinates"]
        if f["geometry"]["type"] != "LineString":
            out.append(f)
            continue
        start, piece = 0, 0
        for i in range(1, len(cs)):
            if i == len(cs) - 1 or seen[tuple(cs[i])] > 1:
                g = dict(f, geometry={"type": "LineString", "coordinates": cs[start:i + 1]})
                if piece:
                    set_id(g, piece_id(f, piece))
                out.append(g)
                start, piece = i, piece + 1
    return out


def main(src, dst):
    with open(src, encoding="utf-8") as fh:
        features = json.load(fh)["features"]
    pieces = cut(features)
    with open(dst, "w", encoding="utf-8") as fh:
        fh.write('{"type": "FeatureCollection", "features": [\n')
        fh.write(",\n".join(json.dumps(f, ensure_ascii=False, separators=(",", ":")) for f in pieces))
        fh.write("]}")
    print(f"{src}: {len(features)} segments -> {len(pieces)}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
