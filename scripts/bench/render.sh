#!/usr/bin/env bash
# Benchmarks the main job in a release build: a 1200x800 @2x map.png with 1,000 photos, a
# 10,000-point GPX track and one callout.
#
# 1. RenderBenchmark renders in one process with the basemap loaded once (target: <= 200 ms
#    per render and write).
# 2. The whole `mapwright render` process from a cold start, on the same inputs as CSV and GPX
#    (target: <= 1 s), median of 5 runs.
#
# Usage: scripts/bench/render.sh
set -euo pipefail

cd "$(dirname "$0")/../.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== building (release)"
swift build -c release --package-path Benchmarks --product RenderBenchmark >/dev/null
swift build -c release --product mapwright >/dev/null
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"
BIN="$(swift build -c release --show-bin-path)"

echo
echo "== in process, basemap loaded once"
"$BENCH/RenderBenchmark" --iterations 10 --write-inputs "$WORK"

echo
echo "== whole process: mapwright render (cold start each run)"
python3 - "$BIN/mapwright" "$WORK" <<'PYTHON'
import subprocess, sys, time
mapwright, work = sys.argv[1], sys.argv[2]
command = [mapwright, "render", "--photos", f"{work}/photos.csv", "--track", f"{work}/track.gpx",
           "--select", "first", "--size", "1200x800", "--scale", "2", "-o", f"{work}/map.png"]
times = []
for _ in range(5):
    start = time.perf_counter()
    subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"mapwright render, whole process   median {times[2]:7.1f} ms  min {times[0]:7.1f} ms  target <= 1000 ms")
PYTHON
