#!/usr/bin/env bash
# Benchmarks street maps in a release build: the streets style over the Helsinki vector sample
# (Samples/helsinki/helsinki.mbtiles, OpenMapTiles-schema vector tiles).
#
# 1. VectorBenchmark renders a 1200x800 @2x map at zoom 15 with 100 photos in one process, the
#    tiles decoded once (target: render + PNG <= 250 ms, warm).
# 2. The whole `mapwright render` process from a cold start on the same map (target: <= 1 s),
#    median of 5 runs; then the same map in the default style with the sample registered as a
#    street-level basemap (`mapwright basemap add`, in a user data folder of the run's own).
# 3. `mapwright tiles export` of the sample's area at zooms 12 to 17 in the streets style
#    (256-point tiles, metatiles of 8, every core): tiles per second, median of 3 runs.
#
# Usage: scripts/bench/vector.sh
set -euo pipefail

cd "$(dirname "$0")/../.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
SAMPLE="$PWD/Samples/helsinki/helsinki.mbtiles"

echo "== building (release)"
swift build -c release --package-path Benchmarks --product VectorBenchmark >/dev/null
swift build -c release --product mapwright >/dev/null
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"
BIN="$(swift build -c release --show-bin-path)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

echo
echo "== in process, tiles decoded once"
"$BENCH/VectorBenchmark" --iterations 10 --write-inputs "$WORK"

echo
echo "== whole process: mapwright render (cold start each run)"
python3 - "$BIN/mapwright" "$WORK" "$SAMPLE" <<'PYTHON'
import subprocess, sys, time
mapwright, work, sample = sys.argv[1], sys.argv[2], sys.argv[3]
command = [mapwright, "render", "--style", "streets", "--vector-source", sample, "--photos", f"{work}/photos.csv",
           "--select", "first", "--center", "60.17165,24.94425", "--zoom", "15", "--size", "1200x800", "--scale", "2",
           "-o", f"{work}/map.png"]
times = []
for _ in range(5):
    start = time.perf_counter()
    subprocess.run(command, check=True, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"mapwright render, whole process   median {times[2]:7.1f} ms  min {times[0]:7.1f} ms  target <= 1000 ms")

# The same map in the default style with the sample registered as a street-level basemap (in
# a user data folder of its own): the world basemap and the streets layers together, as a user
# with `mapwright basemap add` renders it, no --vector-source given.
env = dict(__import__("os").environ, XDG_DATA_HOME=f"{work}/user-data")
subprocess.run([mapwright, "basemap", "add", sample], check=True, env=env, stdout=subprocess.DEVNULL)
command = [mapwright, "render", "--photos", f"{work}/photos.csv", "--select", "first", "--center", "60.17165,24.94425",
           "--zoom", "15", "--size", "1200x800", "--scale", "2", "-o", f"{work}/standard.png"]
times = []
for _ in range(5):
    start = time.perf_counter()
    subprocess.run(command, check=True, stderr=subprocess.DEVNULL, env=env)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"  standard style, registered basemap median {times[2]:7.1f} ms  min {times[0]:7.1f} ms")
PYTHON

echo
echo "== tiles: the sample's area, zooms 12-17, streets style"
python3 - "$BIN/mapwright" "$WORK" "$SAMPLE" <<'PYTHON'
import os, re, statistics, subprocess, sys
mapwright, work, sample = sys.argv[1], sys.argv[2], sys.argv[3]
rates = []
for run in range(3):
    output = f"{work}/streets-{run}.mbtiles"
    result = subprocess.run([mapwright, "tiles", "export", "--style", "streets", "--vector-source", sample,
                             "--bbox", "24.935,60.164,24.954,60.180", "--zoom", "12-17", "-o", output],
                            check=True, capture_output=True, text=True)
    line = [l for l in (result.stdout + result.stderr).splitlines() if l.startswith("wrote ")][-1]
    match = re.search(r"wrote (\d+) tiles .* in ([\d.]+) s", line)
    tiles, seconds = int(match.group(1)), float(match.group(2))
    rates.append(tiles / seconds)
    os.remove(output)
print(f"{tiles} tiles of zooms 12-17: median {statistics.median(rates):.0f} tiles/s (runs: {', '.join(f'{r:.0f}' for r in rates)})")
PYTHON
