#!/usr/bin/env bash
# Benchmarks tile rendering in a release build against Mapnik, in one run on the same machine.
#
# 1. TileBenchmark renders the world at zooms 0 to MAX_ZOOM (default 6: 5,461 tiles of 256
#    pixels) in the standard style through MapTileRenderer: metatiles of 8 x 8 on every core,
#    each tile encoded as PNG and handed to one writer. The basemap is opened, geometry prepared
#    and labels placed inside the timing. Median of RUNS runs (default 3).
# 2. The Mapnik peer renders the same tiles from the same GeoPackage with an equivalent style
#    (land fill, country outlines, dashed state lines; no labels) in one process, with Debian's
#    python3-mapnik: $MAPNIK_PEER_DIR/tiles.py (default /work/shared/peers/mapnik). When Debian's
#    python3 cannot import mapnik, python3-mapnik is installed with apt-get (as root or through
#    sudo); otherwise the script says how and stops.
# 3. Prints both rates and their ratio; the target is at least 4x Mapnik's rate.
#
# The machines are shared: run it when they are quiet (the load average is printed).
# Usage: scripts/bench/tiles.sh            (MAX_ZOOM=5 RUNS=1 scripts/bench/tiles.sh for a quick look)
# SAMPLES=DIR keeps tile 3/4/2 from both renderers, and a 3 x 3 block of zoom 6, as PNGs.
set -euo pipefail

cd "$(dirname "$0")/../.."
MAX_ZOOM="${MAX_ZOOM:-6}"
RUNS="${RUNS:-3}"
PEER="${MAPNIK_PEER_DIR:-/work/shared/peers/mapnik}"
PYTHON=/usr/bin/python3   # Debian's python3, the one python3-mapnik installs into
GPKG="Tiles/basemap/world_map.gpkg"
SAMPLES="${SAMPLES:-}"

say() { printf '\n== %s\n' "$*"; }

[ -f "$GPKG" ] || { echo "tiles.sh: $GPKG is missing: run scripts/setup.sh" >&2; exit 1; }
[ -f "$PEER/tiles.py" ] || { echo "tiles.sh: no Mapnik peer at $PEER (set MAPNIK_PEER_DIR to the folder holding tiles.py and style.xml)" >&2; exit 1; }
if ! "$PYTHON" -c 'import mapnik' 2>/dev/null; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
        echo "tiles.sh: Debian's python3-mapnik is missing: install it with 'apt-get install python3-mapnik' as root" >&2
        exit 1
    fi
    say "installing python3-mapnik (Debian)"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends python3-mapnik >/dev/null
fi

say "building (release)"
swift build -c release --package-path Benchmarks --product TileBenchmark
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"

say "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"

say "mapwright: MapTileRenderer on every core, median of $RUNS runs"
SAMPLE_ARGS=()
[ -n "$SAMPLES" ] && SAMPLE_ARGS=(--sample "$SAMPLES")
MAPWRIGHT_OUT="$("$BENCH/TileBenchmark" --max-zoom "$MAX_ZOOM" --runs "$RUNS" "${SAMPLE_ARGS[@]}" | tee /dev/stderr)"
MAPWRIGHT_RATE="$(printf '%s\n' "$MAPWRIGHT_OUT" | sed -n 's/^mapwright tiles_per_s=//p')"

say "Mapnik (python3-mapnik $("$PYTHON" -c 'import mapnik; print(mapnik.mapnik_version())' 2>/dev/null || echo '?')), one process"
MAPNIK_ARGS=("$MAX_ZOOM" "$GPKG")
[ -n "$SAMPLES" ] && MAPNIK_ARGS+=("$SAMPLES/mapnik-3-4-2.png")
MAPNIK_OUT="$("$PYTHON" "$PEER/tiles.py" "${MAPNIK_ARGS[@]}" | tee /dev/stderr)"
MAPNIK_RATE="$(printf '%s\n' "$MAPNIK_OUT" | sed -n 's/.*tiles_per_s=//p')"

say "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$PYTHON" - "$MAPWRIGHT_RATE" "$MAPNIK_RATE" <<'PYTHON'
import sys
ours, mapnik = float(sys.argv[1]), float(sys.argv[2])
ratio = ours / mapnik
print(f"mapwright {ours:.1f} tiles/s, Mapnik {mapnik:.1f} tiles/s: {ratio:.2f}x Mapnik's rate (target >= 4x) {'OK' if ratio >= 4 else 'BELOW TARGET'}")
PYTHON
