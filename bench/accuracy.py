#!/usr/bin/env python3
"""The Stable Linker's accuracy across every area and address placement under a data folder:
each folder with a truth.csv, each of its address files (addresses*.geojsonseq / .geojson),
flyr against plain nearest building. Also a sweep of the scoring weights (half and double each
default) and a calibration table (confidence bucket -> share correct). With --derived, also the
placements bench/placements.py derives from each area's truth (entrance, interpolated,
centreline, parcel, mixed, and geocoder-style where the area has none),
made once into the cache when shapely and pyproj are installed. Stdlib only otherwise.
With --geocoder-seeds N, also N geocoder-style placements of each area drawn with other slides
(--seed 1..N of bench/placements.py; --geocoder-slide sets their largest slide, 6 m by default),
each area's mean, least and greatest accuracy: one drawing is one throw of the dice.
The areas are those under --data (../shared/data) and, when bench/areas.sh has made them, under
~/.cache/flyr-bench/areas.
Usage: bench/accuracy.py [--data DIR]... [--sweep] [--calibration] [--derived]
                         [--geocoder-seeds N [--geocoder-slide M]]"""
import argparse, glob, json, os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import table  # noqa: E402  (the same table format as the timings)
from layers import layer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLYR = os.path.join(ROOT, ".build", "release", "flyr")
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "flyr-bench")

# Every weight at 0: a candidate costs its distance, nothing else, from the point as given (a
# point on its street's line is not read off it); COVERS still comes first. That is plain
# nearest-building linking.
PLAIN = ["endReach", "turnCost", "numberOrderCost", "outbuildingPenalty", "smallFootprintPenalty", "smallFootprint", "lowHeight", "occupiedPenalty",
         "cornerPenalty", "acrossRoadPenalty", "orderPenalty", "lineStep", "setOutPenalty"]
PLAIN_ARGS = [x for w in PLAIN for x in ("--weight", f"{w}=0")]
# The weights swept; their defaults are read from `flyr link --help`, which lists each name=value.
SWEEP = ["orderPenalty", "leaveOut", "occupiedPenalty", "cornerPenalty", "turnCost", "acrossRoadPenalty", "outbuildingPenalty",
         "smallFootprintPenalty", "smallFootprint", "lowHeight", "annexShare", "annexFootprint", "numberOrderCost", "endReach", "beyondEndCost", "frontYard",
         "orderAgreement", "orderApart", "passOver", "sharedFootprint", "alignTolerance", "recessCost", "setOutPenalty",
         "setOutReach"]


def weight_defaults():
    """{name: default} of every weight, from `flyr link --help`."""
    text = subprocess.run([FLYR, "link", "--help"], capture_output=True, text=True, check=True).stdout
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"\b([A-Za-z]+)=([0-9.]+)", text)}


def cases(data):
    """(area, placement, buildings, addresses, segments, truth) for every area with a truth table."""
    out = []
    for truth in sorted(glob.glob(os.path.join(data, "*", "truth.csv"))):
        d = os.path.dirname(truth)
        b, s = layer(d, "buildings"), layer(d, "segments")
        if b is None:
            print(f"accuracy: {d} has a truth table but no buildings.geojson(seq); left out", file=sys.stderr)
            continue
        for a in sorted(glob.glob(os.path.join(d, "addresses*.geojson*"))):
            placement = os.path.basename(a).split(".")[0].replace("addresses", "").lstrip("-") or "as given"
            out.append((os.path.basename(d), placement, b, a, s, truth))
    return out


def truth_areas(data):
    """(area folder, truth.csv) of each area under `data` with a truth table, and inside points,
    buildings and roads to derive placements from."""
    for truth in sorted(glob.glob(os.path.join(data, "*", "truth.csv"))):
        area = os.path.dirname(truth)
        if all(layer(area, n) for n in ("addresses", "buildings", "segments")):
            yield area, truth


def can_derive():
    """True when bench/placements.py can run (shapely and pyproj installed); says so when not."""
    try:
        import pyproj, shapely  # noqa: F401
    except ImportError:
        print("accuracy: derived placements skipped (pip install shapely pyproj)", file=sys.stderr)
        return False
    return True


def derive(area, cache, marker, *extra):
    """Runs bench/placements.py for `area` into `cache` unless `marker` says it ran there."""
    done = os.path.join(cache, marker)
    if not os.path.exists(done):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "placements.py"), area, cache, *extra], check=True)
        open(done, "w").close()


def derived_cases(data):
    """The cases of the placements derived from each area's truth, made once into the cache."""
    if not can_derive():
        return []
    out = []
    for area, _ in truth_areas(data):
        cache = os.path.join(CACHE, "placements", os.path.basename(area))
        derive(area, cache, ".done-8")
        # A geocoder-style placement only where the area has none of its own.
        wanted = {"entrance", "interpolated", "centreline", "parcel", "mixed"} | (set() if layer(area, "addresses-geocoded") else {"geocoded"})
        out += [(c[0], c[1] + " (derived)", *c[2:]) for c in cases(os.path.dirname(cache)) if c[0] == os.path.basename(area)
                and c[1] in wanted]
    return out


def drawn_cases(data, seeds, slide):
    """For each area with a truth table, `seeds` geocoder-style placements drawn with other slides,
    made once into the cache: {area: [case, ...]}."""
    out = {}
    if not can_derive():
        return out
    for area, truth in truth_areas(data):
        for k in range(1, seeds + 1):
            cache = os.path.join(CACHE, "placements", "drawn", f"{os.path.basename(area)}-slide{slide:g}-seed{k}")
            derive(area, cache, ".done-1", "--slide", f"{slide:g}", "--seed", str(k))
            out.setdefault(os.path.basename(area), []).append(
                (os.path.basename(area), f"geocoded seed {k}", layer(cache, "buildings"),
                 os.path.join(cache, "addresses-geocoded.geojsonseq"), layer(cache, "segments"), truth))
    return out


class LinkFailed(Exception):
    """flyr link exited with neither 0 nor 1 (bad input, an empty truth table...)."""


def link(case, extra, out):
    """Runs flyr link with --check; returns (accuracy, flyr's check summary). Raises LinkFailed
    when flyr exits with anything but 0 or 1, naming the exit code and flyr's last message."""
    _, _, b, a, s, truth = case
    cmd = [FLYR, "link", "--buildings", b, "--addresses", a, "--check", truth, "--json", "--force", "-o", out, *extra]
    if s:
        cmd[4:4] = ["--segments", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        last = (p.stderr.strip().splitlines() or ["no message"])[-1]
        raise LinkFailed(f"exit {p.returncode}: {last}")
    # The share from the counts: the summary's accuracy is rounded to five digits already, and
    # rounding it again to a hundredth of a point can land a hundredth off.
    check = json.loads(p.stderr.strip().splitlines()[-1])["check"]
    return check["correct"] / check["total"], check


def calibration(check):
    """(links of, confidence bucket, links, share correct) for the BUFFER and NEAREST links of
    truth rows, then for their COVERS links, as flyr's check counts them (its confidence as
    written in the link table); empty buckets left out."""
    return [(kind, f"{b['from']:.1f}-{b['to']:.1f}", b["rows"], b["correct"] / b["rows"])
            for kind, key in (("BUFFER, NEAREST", "by_confidence"), ("COVERS", "by_covers_confidence"))
            for b in check[key] if b["rows"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", action="append", help="a folder of areas (repeatable)")
    ap.add_argument("--sweep", action="store_true", help="also sweep each weight at half and double its default")
    ap.add_argument("--calibration", action="store_true", help="also print confidence against share correct")
    ap.add_argument("--derived", action="store_true", help="also the placements derived from each area's truth")
    ap.add_argument("--geocoder-seeds", type=int, default=0, metavar="N",
                    help="also N geocoder-style placements of each area drawn with other slides")
    ap.add_argument("--geocoder-slide", type=float, default=6.0, metavar="M", help="their largest slide (m)")
    args = ap.parse_args()
    folders = args.data or [d for d in (os.path.join(ROOT, "..", "shared", "data"), os.path.join(CACHE, "areas")) if os.path.isdir(d)]
    all_cases = [c for d in folders for c in cases(os.path.abspath(d))]
    if args.derived:
        all_cases += [c for d in folders for c in derived_cases(os.path.abspath(d))]
    if not all_cases:
        sys.exit(f"accuracy: no area with a truth.csv under {', '.join(folders) or 'no folder'}")
    tmp = tempfile.mkdtemp(prefix="flyr-accuracy-")
    rows, calib, failed = [], [], []
    for c in all_cases:
        # One area's bad file fails its rows, not the whole matrix.
        try:
            flyr, check = link(c, [], os.path.join(tmp, "flyr.csv"))
            plain, _ = link(c, PLAIN_ARGS, os.path.join(tmp, "plain.csv"))
        except LinkFailed as e:
            print(f"accuracy: {c[0]} {c[1]}: flyr link failed, {e}", file=sys.stderr)
            rows.append([c[0], c[1], "failed", "failed"])
            failed.append(c)
            continue
        rows.append([c[0], c[1], f"{100 * flyr:.2f} %", f"{100 * plain:.2f} %"])
        if args.calibration:
            calib += [[c[0], c[1], kind, bucket, n, f"{100 * s:.1f} %"] for kind, bucket, n, s in calibration(check)]
    table("Stable Linker accuracy matrix (share of truth rows linked to their truth building)",
          ["area", "placement", "flyr", "plain nearest"], rows)
    if args.calibration:
        table("Confidence calibration (links of truth rows)",
              ["area", "placement", "links of", "confidence", "links", "correct"], calib)
    all_cases = [c for c in all_cases if c not in failed]
    if args.sweep and all_cases:
        srows = []
        defaults = weight_defaults()
        for w in SWEEP:
            v = defaults[w]
            for f in (0.5, 2):
                srows.append([f"{w}={v * f:g}"] + [f"{100 * link(c, ['--weight', f'{w}={v * f:g}'], os.path.join(tmp, 's.csv'))[0]:.2f}"
                                                   for c in all_cases])
        table("Weight sweep: accuracy (%) with one weight at half or double its default",
              ["weight"] + [f"{c[0]} {c[1]}" for c in all_cases], [["defaults"] + [r[2][:-2] for r in rows if r[2] != "failed"]] + srows)
    if args.geocoder_seeds > 0:
        drows = []
        for d in folders:
            for area, cs in drawn_cases(os.path.abspath(d), args.geocoder_seeds, args.geocoder_slide).items():
                try:
                    f = [100 * link(c, [], os.path.join(tmp, "d.csv"))[0] for c in cs]
                    p = [100 * link(c, PLAIN_ARGS, os.path.join(tmp, "d.csv"))[0] for c in cs]
                except LinkFailed as e:
                    print(f"accuracy: {area} drawn: flyr link failed, {e}", file=sys.stderr)
                    failed.append(area)
                    continue
                drows.append([area, f"{args.geocoder_slide:g} m", len(cs), f"{sum(f) / len(f):.2f} %",
                              f"{min(f):.2f}-{max(f):.2f} %", f"{sum(p) / len(p):.2f} %"])
        table("Geocoder-style placements drawn with other slides (derived from each area's truth)",
              ["area", "largest slide", "drawings", "flyr mean", "flyr least-greatest", "plain mean"], drows)
    subprocess.run(["rm", "-rf", tmp])
    if failed:
        sys.exit(f"accuracy: flyr link failed on {len(failed)} of the cases (see above)")


if __name__ == "__main__":
    main()
