#!/usr/bin/env bash
# Benchmarks `mapwright tiles export` in a release build, as an ops job runs it:
#
# 1. Europe (--bbox -25,34,45,72), zooms 0 to MAX_ZOOM (default 10), standard style, into
#    MBTiles on every core: tiles/s, and the process's resident memory sampled every half
#    second (from /proc/PID/status): its maximum, and its median over the first and the last
#    quarter of the run, to show it stays flat (target: flat and under 400 MB).
# 2. An ocean-only area at zoom 8 (the South Pacific west of Chile, basemap only): the tiles
#    written and the images stored (target: one image for all the identical tiles).
# 3. The same Europe export as 4 shards run one after another, merged with `tiles merge`: the
#    merged file's agg_tiles_hash against the single export's (they must be equal).
#
# Usage: scripts/bench/export.sh            (MAX_ZOOM=8 scripts/bench/export.sh for a quick look)
set -euo pipefail

cd "$(dirname "$0")/../.."
MAX_ZOOM="${MAX_ZOOM:-10}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== building (release)"
swift build -c release --product mapwright >/dev/null
BIN="$(swift build -c release --show-bin-path)/mapwright"
echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"

echo
echo "== Europe, zooms 0-$MAX_ZOOM, standard style, MBTiles"
"$BIN" tiles export --bbox -25,34,45,72 --zoom "0-$MAX_ZOOM" --dry-run -o "$WORK/europe.mbtiles" | tail -2
python3 - "$BIN" "$WORK" "$MAX_ZOOM" <<'PYTHON'
import statistics, subprocess, sys, time
binary, work, max_zoom = sys.argv[1], sys.argv[2], sys.argv[3]
start = time.monotonic()
process = subprocess.Popen(
    [binary, "tiles", "export", "--bbox", "-25,34,45,72", "--zoom", f"0-{max_zoom}", "-o", f"{work}/europe.mbtiles"],
    stderr=subprocess.PIPE, text=True)
samples = []
while process.poll() is None:
    try:
        with open(f"/proc/{process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    samples.append(int(line.split()[1]) / 1024)
    except FileNotFoundError:
        pass
    time.sleep(0.5)
seconds = time.monotonic() - start
stderr = process.stderr.read()
if process.returncode != 0:
    sys.exit(f"export failed: {stderr}")
summary = [line for line in stderr.splitlines() if line.startswith("wrote ")][-1]
quarter = max(1, len(samples) // 4)
print(summary)
print(f"resident memory: max {max(samples):.0f} MB; median of the first quarter {statistics.median(samples[:quarter]):.0f} MB, "
      f"of the last quarter {statistics.median(samples[-quarter:]):.0f} MB ({len(samples)} samples over {seconds:.1f} s); "
      f"target: flat, under 400 MB: {'OK' if max(samples) < 400 else 'ABOVE TARGET'}")
PYTHON
"$BIN" tiles info "$WORK/europe.mbtiles" 2>/dev/null | tail -4 || true

echo
echo "== an ocean-only area at zoom 8 (basemap only)"
"$BIN" tiles export --bbox -125,-45,-116,-36 --zoom 8 --layers basemap -o "$WORK/ocean.mbtiles" 2>&1 | tail -1
python3 - "$WORK/ocean.mbtiles" <<'PYTHON'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
tiles = c.execute("select count(*) from tiles").fetchone()[0]
images = c.execute("select count(*) from images").fetchone()[0]
print(f"{tiles} tiles, {images} stored image(s): {'OK' if images == 1 else 'MORE THAN ONE'}")
PYTHON

echo
echo "== the same Europe export as 4 shards, merged"
start=$(date +%s.%N)
for k in 0 1 2 3; do
    "$BIN" tiles export --bbox -25,34,45,72 --zoom "0-$MAX_ZOOM" --shard "$k/4" --name europe -o "$WORK/shard-$k.mbtiles" 2>&1 | tail -1
done
"$BIN" tiles merge "$WORK"/shard-*.mbtiles -o "$WORK/merged.mbtiles" 2>&1 | tail -1
end=$(date +%s.%N)
python3 - "$WORK/europe.mbtiles" "$WORK/merged.mbtiles" "$start" "$end" <<'PYTHON'
import sqlite3, sys
def hash_of(path):
    return sqlite3.connect(path).execute("select value from metadata where name = 'agg_tiles_hash'").fetchone()[0]
one, merged = hash_of(sys.argv[1]), hash_of(sys.argv[2])
print(f"shards and merge took {float(sys.argv[4]) - float(sys.argv[3]):.1f} s; agg_tiles_hash single {one}, merged {merged}: "
      f"{'EQUAL' if one == merged else 'DIFFERENT'}")
PYTHON
