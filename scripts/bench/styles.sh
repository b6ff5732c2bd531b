#!/usr/bin/env bash
# Public styles side by side with MapLibre Native: OpenMapTiles' OSM Bright, Positron, Dark
# Matter and MapTiler Basic and Protomaps' light (Tests/Fixtures/styles; Protomaps' over the
# sample's data in its own schema, Samples/helsinki/helsinki-protomaps.mbtiles) over the Helsinki sample at zooms 12 to 17
# and one harbour view, each drawn by Mapwright (`mapwright render`, release, a whole process,
# text from the installed fonts; and again from SDF glyphs) and by MapLibre Native (PyPI's
# mapli, warm, in process, on Mesa's CPU renderer under Xvfb). Prints per view the fraction of
# differing pixels (pixelmatch, threshold 0.1) and each engine's time per render (median of 3);
# writes the zoom-16 pair of each style to OUTPUT (default: a temporary folder; docs/styles.md's
# pairs are in Tests/Fixtures/styles/side-by-side). See scripts/bench/styles/compare.py.
#
# Usage: scripts/bench/styles.sh [OUTPUT [STYLE...]]   (STYLE: a folder name there; default: all five)
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT="$PWD"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
OUTPUT="${1:-$WORK/pairs}"
shift || true

source scripts/bench/mapli-env.sh
printf '%-38s %7s %7s  %10s  %10s  %10s  %6s\n' "view" "fonts" "glyphs" "MW warm" "MW process" "MLN warm" "ratio"
xvfb-run -a "$VENV/bin/python" scripts/bench/styles/compare.py "$ROOT" "$BIN/mapwright" "$BENCH/VectorBenchmark" "$WORK" "$OUTPUT" "$@"
echo
echo "fonts: Mapwright drawing text with the installed fonts (as shipped); glyphs: Mapwright drawing"
echo "from the same SDF glyph ranges MapLibre Native reads. Times, 800x600 at 1x, render and PNG:"
echo "MW warm: Mapwright in process, tiles decoded; MW process: a whole mapwright render (start-up,"
echo "style and tiles loaded, render, PNG written); MLN warm: MapLibre Native in process; ratio:"
echo "MW warm over MLN warm."
