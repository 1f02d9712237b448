#!/usr/bin/env python3
"""flyr benchmarks: times each command (median of N runs) with its peak memory (wait4's
ru_maxrss) and prints tables. Stdlib only. Usage: bench/bench.py [--runs N] [--data DIR]"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLYR = os.path.join(ROOT, ".build", "release", "flyr")


def run(cmd):
    """Runs cmd; returns (seconds, peak RSS in MiB, stderr)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"bench: {' '.join(cmd)} failed with exit {code}:\n{err.decode()}")
    return dt, usage.ru_maxrss / 1024, err.decode()


def median_run(cmd, runs):
    results = [run(cmd) for _ in range(runs)]
    times = sorted(r[0] for r in results)
    return statistics.median(times), max(r[1] for r in results), results[-1][2]


def table(title, header, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    line = lambda r: "| " + " | ".join(str(x).rjust(w) if i else str(x).ljust(w) for i, (x, w) in enumerate(zip(r, widths))) + " |"
    print(f"\n{title}\n")
    print(line(header))
    print("|" + "|".join("-" * (w + 1) + ("-" if i == 0 else ":") for i, w in enumerate(widths)) + "|")
    for r in rows:
        print(line(r))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "queens-village-ny"))
    args = ap.parse_args()
    d = os.path.abspath(args.data)
    if not os.path.exists(os.path.join(d, "buildings.geojson")):
        sys.exit(f"bench: no data at {d}")
    b, s, truth = (os.path.join(d, n) for n in ("buildings.geojson", "segments.geojson", "truth.csv"))
    out = tempfile.mkdtemp(prefix="flyr-bench-")
    rows, acc = [], []
    for name in ("addresses.geojsonseq", "addresses-streetside.geojsonseq"):
        a = os.path.join(d, name)
        cmd = [FLYR, "link", "--buildings", b, "--addresses", a, "--segments", s, "--check", truth,
               "--json", "--force", "-o", os.path.join(out, "links.csv")]
        secs, rss, err = median_run(cmd, args.runs)
        summary = json.loads(err.strip().splitlines()[-1])
        size = sum(os.path.getsize(p) for p in (a, b, s))
        n = summary["addresses"] + summary["buildings"] + summary["segments"]
        rows.append([f"flyr link ({name})", f"{secs:.2f}", f"{rss:.0f}", f"{n / secs:,.0f}", f"{size / secs / 1e6:.1f}",
                     " ".join(f"{k} {v:.2f}" for k, v in summary["seconds"].items())])
        c = summary["check"]
        acc.append([name, c["total"], c["correct"], f"{100 * c['accuracy']:.2f} %", c["misses"],
                    " ".join(f"{k} {v}" for k, v in summary["methods"].items())])
    print(f"flyr bench on {d} ({os.cpu_count()} cores), median of {args.runs} runs")
    table("Timings", ["command", "seconds", "peak MiB", "features/s", "MB/s", "phases (s)"], rows)
    table("Stable Linker accuracy against truth.csv", ["addresses", "truth rows", "correct", "accuracy", "misses", "methods"], acc)


if __name__ == "__main__":
    main()
