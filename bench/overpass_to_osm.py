#!/usr/bin/env python3
"""overpass_to_osm.py IN.json OUT.osm: an Overpass API answer in JSON (as osmnx and prettymapp
cache it) written as OSM XML, which the conversion tools beside the checkout read. An object
given twice keeps the copy with the most tags; nodes, ways and relations are written in id
order. Prints the counts, the answer's data date and how many way nodes are missing."""
import json
import sys
from xml.sax.saxutils import quoteattr


def tags(e):
    return "".join(f"<tag k={quoteattr(k)} v={quoteattr(str(v))}/>" for k, v in sorted(e.get("tags", {}).items()))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as fh:
        answer = json.load(fh)
    objects = {"node": {}, "way": {}, "relation": {}}
    for e in answer.get("elements", []):
        kept = objects[e["type"]].get(e["id"])
        if kept is None or len(e.get("tags", {})) > len(kept.get("tags", {})):
            objects[e["type"]][e["id"]] = e
    date = answer.get("osm3s", {}).get("timestamp_osm_base", "")
    missing = 0
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write("<?xml version='1.0' encoding='UTF-8'?>\n<osm version='0.6' generator='flyr overpass_to_osm.py'>\n")
        for i, e in sorted(objects["node"].items()):
            t = tags(e)
            out.write(f"<node id='{i}' version='1' lat='{e['lat']}' lon='{e['lon']}'" + (f">{t}</node>\n" if t else "/>\n"))
        for i, e in sorted(objects["way"].items()):
            missing += sum(1 for n in e["nodes"] if n not in objects["node"])
            out.write(f"<way id='{i}' version='1'>" + "".join(f"<nd ref='{n}'/>" for n in e["nodes"]) + tags(e) + "</way>\n")
        for i, e in sorted(objects["relation"].items()):
            members = "".join(f"<member type='{m['type']}' ref='{m['ref']}' role={quoteattr(m.get('role', ''))}/>" for m in e["members"])
            out.write(f"<relation id='{i}' version='1'>" + members + tags(e) + "</relation>\n")
        out.write("</osm>\n")
    counts = ", ".join(f"{len(v)} {k}s" for k, v in objects.items())
    print(f"overpass_to_osm: {counts}; data of {date or 'an unknown date'}; {missing} way nodes missing", file=sys.stderr)


if __name__ == "__main__":
    main()
