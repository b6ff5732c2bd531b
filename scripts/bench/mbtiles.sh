#!/usr/bin/env bash
# Benchmarks the MBTiles store in a release build: random tile reads from 1, 2 and 4 threads,
# alone and while one MBTilesWriter commits batches of 500 tiles into the same file (WAL), for
# the store's pool of read-only connections and for one connection behind a lock (the design
# before it); and MBTilesWriter alone (normalized and flat files). Prints reads/s, MB/s, tiles
# written/s and errors (SQLITE_BUSY would show there). Not a timed test: figures vary with the
# machine's load, which the first line prints.
#
# Usage: scripts/bench/mbtiles.sh [--seconds S] [--tiles N] [--runs N]
#   --seconds S  how long each read case runs (default 3)
#   --tiles N    tiles in the file read (default 20,000; 1,000 to 65,536)
#   --runs N     runs of each read case, interleaved; the median is printed (default 3)
set -euo pipefail

cd "$(dirname "$0")/../.."

echo "== building (release)"
swift build -c release --package-path Benchmarks --product MBTilesBenchmark >/dev/null
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"

echo
"$BENCH/MBTilesBenchmark" "$@"
