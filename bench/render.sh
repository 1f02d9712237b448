#!/usr/bin/env bash
# Renders all of queens-village-ny (50k footprints, raw extracts) at 4096x4096 as PNG and SVG
# with the release build and prints seconds per phase. Usage: bench/render.sh [data-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${1:-/work/shared/data/queens-village-ny}
SCRATCH=${SCRATCH:-.build-bench}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
swift build -c release --product flyr --scratch-path "$SCRATCH" >&2
FLYR="$SCRATCH/release/flyr"
printf '%-6s %8s %8s %8s %8s %8s %10s %8s\n' format load project draw encode write bytes labels
for fmt in png svg; do
  log=$("$FLYR" render --buildings "$DATA/buildings.geojson" --addresses "$DATA/addresses.geojsonseq" \
        --segments "$DATA/segments.geojson" --size 4096x4096 --title "Queens Village" \
        -o "$OUT/map.$fmt" --timings 2>&1)
  t() { sed -n "s/.*$1 \([0-9.]*\) s.*/\1/p" <<<"$log"; }
  labels=$(sed -n 's/.* \([0-9]*\) labels.*/\1/p' <<<"$log")
  printf '%-6s %8s %8s %8s %8s %8s %10s %8s\n' "$fmt" "$(t load)" "$(t project)" "$(t draw)" "$(t encode)" "$(t write)" \
    "$(stat -c %s "$OUT/map.$fmt")" "$labels"
done
