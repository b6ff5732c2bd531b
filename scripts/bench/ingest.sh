#!/usr/bin/env bash
# Benchmarks reading photo sources end to end in a release build: whole `mapwright cluster`
# processes (read, parse, index, query, print) on seeded inputs that IngestBenchmark writes into
# a temporary folder, each run several times; prints the median wall time and the median of the
# maximum resident set size (from wait4, what `/usr/bin/time -v` reports) next to the targets,
# with the median CPU time (user + system, steadier than wall time on a shared machine):
#
#   1,000,000-row CSV with image paths          <= 1.5 s and <= 400 MB
#   1,000,000-feature GeoJSON, Flickr JSON      <= 2.5 s each
#   cluster --json printing 200,000 features    <= 0.5 s
#   a folder of 10,000 small geotagged JPEGs    photos/s
#
# Usage: scripts/bench/ingest.sh [--runs N] [--keep DIR]
#   --runs N    runs per case (default 5; the JPEG folder runs 3 times)
#   --keep DIR  write the inputs into DIR and keep them (default: a temporary folder, removed)
set -euo pipefail

cd "$(dirname "$0")/../.."
RUNS=5
KEEP=""
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) RUNS="$2"; shift 2 ;;
        --keep) KEEP="$2"; shift 2 ;;
        *) echo "usage: scripts/bench/ingest.sh [--runs N] [--keep DIR]" >&2; exit 2 ;;
    esac
done
if [ -n "$KEEP" ]; then
    WORK="$KEEP"
    mkdir -p "$WORK"
else
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"' EXIT
fi

echo "== building (release)"
swift build -c release --package-path Benchmarks --product IngestBenchmark >/dev/null
swift build -c release --product mapwright >/dev/null
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"
BIN="$(swift build -c release --show-bin-path)"

if [ ! -f "$WORK/photos.csv" ] || [ ! -d "$WORK/jpegs" ]; then
    echo "== writing seeded inputs"
    "$BENCH/IngestBenchmark" "$WORK"
fi

# The JSON output is checked once, in its own process (a timing process that had read it would
# lend its resident memory to the children it forks): a FeatureCollection of 200,000 features.
"$BIN/mapwright" cluster --photos "$WORK/features.csv" --cluster-by none --zoom 3 --json >"$WORK/features.json"
python3 -c 'import json, sys
features = json.load(open(sys.argv[1]))["features"]
assert len(features) == 200_000, f"cluster --json printed {len(features)} features, expected 200000"' "$WORK/features.json"
rm -f "$WORK/features.json"

echo
echo "== mapwright cluster, whole process, median of $RUNS runs (max RSS: median of the runs); load: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$BIN/mapwright" "$WORK" "$RUNS" <<'PYTHON'
import os, statistics, subprocess, sys, time
mapwright, work, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def run(arguments):
    """Runs mapwright once; returns (wall seconds, max RSS in MB, CPU seconds) as wait4 reports them."""
    start = time.perf_counter()
    process = subprocess.Popen([mapwright] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        sys.exit(f"mapwright {' '.join(arguments)} failed with status {status}")
    return seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime

def case(name, arguments, target_seconds=None, target_mb=None, count=runs, per_second=None):
    results = [run(arguments) for _ in range(count)]
    seconds = statistics.median(r[0] for r in results)
    megabytes = statistics.median(r[1] for r in results)
    cpu = statistics.median(r[2] for r in results)
    line = (f"{name:<40} median {seconds:6.2f} s  min {min(r[0] for r in results):6.2f} s  "
            f"cpu {cpu:6.2f} s  {megabytes:5.0f} MB")
    if per_second:
        line += f"  {per_second / seconds:8.0f} photos/s"
    targets = []
    if target_seconds is not None:
        targets.append(f"<= {target_seconds} s {'ok' if seconds <= target_seconds else 'MISSED'}")
    if target_mb is not None:
        targets.append(f"<= {target_mb} MB {'ok' if megabytes <= target_mb else 'MISSED'}")
    print(line + ("  target " + ", ".join(targets) if targets else ""), flush=True)

zoom = ["--cluster-by", "all", "--zoom", "3"]
case("1,000,000-row CSV with image paths", ["cluster", "--photos", f"{work}/photos.csv"] + zoom, 1.5, 400)
case("1,000,000-feature GeoJSON", ["cluster", "--photos", f"{work}/photos.geojson"] + zoom, 2.5)
case("1,000,000-photo Flickr JSON", ["cluster", "--photos", f"{work}/flickr.json"] + zoom, 2.5)
case("cluster --json, 200,000 features", ["cluster", "--photos", f"{work}/features.csv", "--cluster-by", "none",
     "--zoom", "3", "--json"], 0.5)
jpegs = sum(len(files) for _, _, files in os.walk(f"{work}/jpegs"))
case(f"folder of {jpegs:,} geotagged JPEGs", ["cluster", "--photos", f"{work}/jpegs"] + zoom,
     count=min(runs, 3), per_second=jpegs)
PYTHON
echo "load after the runs: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
