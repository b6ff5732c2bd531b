#!/usr/bin/env bash
# Benchmarks image comparison in a release build, and checks its counts against pixelmatch.
#
# 1. CompareBenchmark times `compare` on two generated 4096x4096 images with scattered
#    differences (target: at most 150 ms per comparison on a 2-core machine) and prints Mpx/s;
#    it also times quantizing and palette PNG encoding of a generated 2400x1600 map (target: well
#    under 100 ms to quantize) and prints the palette and RGBA file sizes.
# 2. On a generated 1024x1024 pair, PyPI's `pixelmatch` (installed here into a virtual
#    environment under .build/) and `mapwright compare` must report the same counts, for several
#    option sets, and the same diff image; both times and their ratio are printed.
#
# Usage: scripts/bench/compare.sh          (ITERATIONS=50 scripts/bench/compare.sh for more runs)
set -euo pipefail

cd "$(dirname "$0")/../.."
ITERATIONS="${ITERATIONS:-20}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

say() { printf '\n== %s\n' "$*"; }

say "building (release)"
swift build -c release --package-path Benchmarks --product CompareBenchmark
swift build -c release --product mapwright
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"
BIN="$(swift build -c release --show-bin-path)"

say "ImageCompare in-process, median of $ITERATIONS runs"
"$BENCH/CompareBenchmark" --iterations "$ITERATIONS" --write-pair "$WORK"

say "pixelmatch (PyPI) against mapwright compare, 1024x1024"
VENV=".build/bench-venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check pixelmatch pillow

"$VENV/bin/python" - "$BIN/mapwright" "$WORK" <<'PYTHON'
import json, subprocess, sys, time
from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch

mapwright, work = sys.argv[1], sys.argv[2]
expected_path, actual_path = f"{work}/expected-1024.png", f"{work}/actual-1024.png"
expected, actual = Image.open(expected_path), Image.open(actual_path)
swift = json.load(open(f"{work}/swift-1024.json"))

def run_mapwright(arguments):
    start = time.perf_counter()
    done = subprocess.run([mapwright, "compare", expected_path, actual_path, "--json", *arguments],
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"mapwright compare failed: {done.stderr.strip()}")
    return json.loads(done.stdout)["differentPixels"], elapsed

failures = 0
option_sets = [
    ("defaults", {}, []),
    ("include AA", {"includeAA": True}, ["--include-aa"]),
    ("threshold 0.05", {"threshold": 0.05}, ["--threshold", "0.05"]),
    ("threshold 0", {"threshold": 0.0}, ["--threshold", "0"]),
]
python_seconds = None
for label, python_options, cli_options in option_sets:
    start = time.perf_counter()
    python_count = pixelmatch(expected, actual, **python_options)
    elapsed = time.perf_counter() - start
    if python_seconds is None:
        python_seconds = elapsed
    swift_count, _ = run_mapwright(cli_options)
    same = "same" if python_count == swift_count else "DIFFERENT"
    failures += python_count != swift_count
    print(f"{label:16} pixelmatch {python_count:7d}   mapwright {swift_count:7d}   {same}   "
          f"(pixelmatch {elapsed * 1000:.0f} ms)")

# The diff images must match byte for byte too.
python_diff = Image.new("RGBA", expected.size)
pixelmatch(expected, actual, python_diff)
run_mapwright(["--diff", f"{work}/diff.png"])
same_diff = Image.open(f"{work}/diff.png").convert("RGBA").tobytes() == python_diff.tobytes()
failures += not same_diff
print(f"diff image       {'same' if same_diff else 'DIFFERENT'}")

cli_runs = [run_mapwright([])[1] for _ in range(5)]
cli_seconds = sorted(cli_runs)[len(cli_runs) // 2]
in_process_seconds = swift["medianMilliseconds"] / 1000
print()
print(f"pixelmatch (PyPI, pure Python), compare only:  {python_seconds * 1000:9.1f} ms")
print(f"ImageCompare, in process (median):         {in_process_seconds * 1000:9.1f} ms"
      f"   {python_seconds / in_process_seconds:8.0f}x faster")
print(f"mapwright compare, whole process with PNG decoding (median of 5):"
      f" {cli_seconds * 1000:.1f} ms   {python_seconds / cli_seconds:.0f}x faster")
sys.exit(1 if failures else 0)
PYTHON
