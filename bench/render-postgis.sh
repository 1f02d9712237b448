#!/usr/bin/env bash
# flyr render --postgres streamed against --load-all on a campaign pushed to a throwaway
# PostGIS: seconds and peak RSS (GNU time) of a 4096x4096 PNG of the whole campaign and of a
# zoomed window, and whether both modes wrote the same bytes. Prints a table; asserts nothing.
# Usage: scripts/with-postgres.sh bench/render-postgis.sh FLYR CAMPAIGN.gpkg [RUNS]
#   e.g. scripts/with-postgres.sh bench/render-postgis.sh .build/release/flyr ~/.cache/flyr-bench/x5.gpkg
set -euo pipefail
flyr=$1 gpkg=$2 runs=${3:-1}
url=${FLYR_TEST_POSTGRES_URL:?run under scripts/with-postgres.sh}
out=$(mktemp -d /tmp/flyr-render-postgis.XXXXXX)
trap 'rm -rf "$out"' EXIT

start=$(date +%s.%N)
id=$("$flyr" push "$gpkg" --postgres "$url" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["campaign_id"])')
echo "push: $(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')") s (campaign $id)" >&2
psql "$url" -qc "ANALYZE" >/dev/null 2>&1 || true

# A zoomed window (web zoom 17) at the middle of the buildings' extent.
centre=$(psql "$url" -Atc "SELECT ST_X(c) || ',' || ST_Y(c) FROM (SELECT ST_Centroid(ST_Extent(geom)::geometry) c FROM buildings) s")

printf '%-10s %-9s %9s %10s %8s  %s\n' view mode seconds "peak MiB" same "summary"
for view in whole zoom; do
  args=(--size 4096x4096)
  [ "$view" = zoom ] && args+=(--center="$centre" --zoom 17)
  for mode in stream load-all; do
    extra=(); [ "$mode" = load-all ] && extra=(--load-all)
    best=""
    for _ in $(seq "$runs"); do
      /usr/bin/time -v "$flyr" render --postgres "$url" --campaign "$id" "${args[@]}" "${extra[@]}" \
        -o "$out/$view-$mode.png" --force 2>"$out/err" || { cat "$out/err" >&2; exit 1; }
      secs=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$out/err")
      rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$out/err")
      if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $secs < $best else 1)"; then best=$secs; peak=$rss; fi
    done
    summary=$(grep 'flyr render:' "$out/err" | sed 's/.* px, //')
    same=-
    [ "$mode" = load-all ] && { cmp -s "$out/$view-stream.png" "$out/$view-load-all.png" && same=yes || same=no; }
    printf '%-10s %-9s %9s %10s %8s  %s\n' "$view" "$mode" "$best" "$peak" "$same" "$summary"
  done
done
