#!/usr/bin/env bash
# Mapwright beside MapLibre Native (PyPI's mapli, on Mesa's CPU renderer under Xvfb) on the same
# work in one run: the streets style over the Helsinki sample, a 1200x800 @2x static map (warm in
# process, and a whole `mapwright render`) and a tile export of the sample at zooms 12-18 in
# 512-point tiles (tiles/s and peak memory). Prints each figure and the ratios against the goals
# (issue 24): export >= 3x MapLibre Native's tiles/s; the whole process no slower than MapLibre
# Native's warm render; memory no higher. See scripts/bench/native/speed.py.
#
# Usage: scripts/bench/native.sh
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT="$PWD"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

source scripts/bench/mapli-env.sh
xvfb-run -a "$VENV/bin/python" scripts/bench/native/speed.py "$ROOT" "$BIN/mapwright" "$BENCH/VectorBenchmark" "$WORK"
