#!/usr/bin/env bash
# Mapwright beside MapLibre Native (PyPI's mapli 0.4.1, on Mesa's CPU renderer under Xvfb) on the
# public styles a TileServer GL user serves (OSM Bright, Positron, Dark Matter, MapTiler Basic)
# over the Helsinki sample, in one run and one table: each style at GL zooms 15-17, 800x600, warm
# and as a whole `mapwright render` (its fixed cost), the OSM Bright and streets exports of 512-point
# tiles, the ratios against issue 51's goals, and peak memory. See scripts/bench/public/speed.py.
#
# Usage: scripts/bench/public.sh [STYLE...]   (STYLE: a folder of Tests/Fixtures/styles; default: the four)
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT="$PWD"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

source scripts/bench/mapli-env.sh
xvfb-run -a "$VENV/bin/python" scripts/bench/public/speed.py "$ROOT" "$BIN/mapwright" "$BENCH/VectorBenchmark" "$WORK" "$@"
