#!/usr/bin/env bash
# Benchmarks the 3D camera in a release build.
#
# 1. CameraBenchmark: a 1200x800 @1x frame at pitch 60 (heading 30) beside the same frame flat,
#    render only, data loaded once, for the standard style over Paris at zoom 10 and the streets
#    style over the Helsinki vector sample at zoom 16 (target: pitched <= 150 ms).
# 2. The whole `mapwright flyover` process: 120 frames of 640x480 from France to Berlin as an
#    animated PNG, flat and then tilting to pitch 60 and turning to heading 40, on every core
#    (target: <= 20 s on 2 cores), median of 3 runs.
#
# Usage: scripts/bench/camera.sh
set -euo pipefail

cd "$(dirname "$0")/../.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== building (release)"
swift build -c release --package-path Benchmarks --product CameraBenchmark >/dev/null
swift build -c release --product mapwright >/dev/null
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"
BIN="$(swift build -c release --show-bin-path)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

echo
echo "== in process: one frame, flat and pitched"
"$BENCH/CameraBenchmark" --iterations 10

echo
echo "== whole process: mapwright flyover, 120 frames of 640x480 to an animated PNG"
python3 - "$BIN/mapwright" "$WORK" <<'PYTHON'
import subprocess, sys, time
mapwright, work = sys.argv[1], sys.argv[2]
flights = {
    "flat":            ["--from", "France", "--to", "Berlin"],
    "to pitch 60":     ["--from", "France", "--to", "Berlin", "--to-pitch", "60", "--to-heading", "40"],
}
medians = {}
for label, arguments in flights.items():
    times = []
    for run in range(3):
        command = [mapwright, "flyover", *arguments, "--frames", "120", "--size", "640x480", "-o", f"{work}/flight-{run}.png"]
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    times.sort()
    medians[label] = times[1]
    print(f"flyover {label:<12} median {times[1]:6.2f} s  min {times[0]:6.2f} s  ({120 / times[1]:5.1f} frames/s)  target <= 20 s")
print(f"pitched flight / flat flight: {medians['to pitch 60'] / medians['flat']:.2f}x")
PYTHON
