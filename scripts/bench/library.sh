#!/usr/bin/env bash
# Benchmarks the photo library in a release build.
#
# 1. `mapwright photos import` of a seeded 1,000,000-row CSV (ten photographers of 100,000 photos
#    each, spread over the world) into a new library (target: <= 10 s), median of 3 runs; then the
#    same import again into the full library, where every photo is unchanged.
# 2. `mapwright render --library --photographer` of one photographer's 100,000 photos, the whole
#    process from a cold start, 1200x800 @1x with clustering (target: <= 1 s), median of 5 runs.
#
# Usage: scripts/bench/library.sh [--rows N]
set -euo pipefail

ROWS=1000000
if [[ "${1:-}" == "--rows" ]]; then ROWS="$2"; fi
cd "$(dirname "$0")/../.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== building (release)"
swift build -c release --product mapwright >/dev/null
BIN="$(swift build -c release --show-bin-path)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

python3 - "$WORK/photos.csv" "$ROWS" <<'PYTHON'
import random, sys
path, rows = sys.argv[1], int(sys.argv[2])
random.seed(42)
with open(path, "w") as out:
    out.write("latitude,longitude,title,subtitle,photographer,image\n")
    for row in range(rows):
        out.write(f"{random.uniform(-60, 70):.6f},{random.uniform(-180, 180):.6f},Photo {row},\"Taken, somewhere\","
                  f"Photographer {row % 10},images/{row // 1000}/{row}.jpg\n")
PYTHON
echo "input: $(du -h "$WORK/photos.csv" | cut -f1) CSV, $ROWS rows"

python3 - "$BIN/mapwright" "$WORK" "$ROWS" <<'PYTHON'
import os, statistics, subprocess, sys, time
mapwright, work, rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
def timed(command):
    start = time.perf_counter()
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    return time.perf_counter() - start, result.stdout.strip()

print()
print("== photos import into a new library")
times = []
for run in range(3):
    library = f"{work}/library-{run}.sqlite"
    seconds, line = timed([mapwright, "photos", "import", f"{work}/photos.csv", "--library", library])
    times.append(seconds)
print(f"  {line}")
print(f"import {rows:,} rows      median {statistics.median(times):6.2f} s  min {min(times):6.2f} s  target <= 10 s")
print(f"library file: {os.path.getsize(f'{work}/library-0.sqlite') / 1e6:.0f} MB")
seconds, line = timed([mapwright, "photos", "import", f"{work}/photos.csv", "--library", f"{work}/library-0.sqlite"])
print(f"import again (all unchanged)  {seconds:6.2f} s   ({line.split(': ', 1)[1]})")

print()
print("== render --library --photographer (whole process, cold start)")
times = []
for run in range(5):
    seconds, _ = timed([mapwright, "render", "--library", f"{work}/library-0.sqlite", "--photographer", "Photographer 3",
                        "-o", f"{work}/map.png"])
    times.append(seconds)
print(f"render {rows // 10:,} photos     median {statistics.median(times):6.2f} s  min {min(times):6.2f} s  target <= 1 s")
PYTHON
