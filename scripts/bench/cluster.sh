#!/usr/bin/env bash
# Benchmarks the clustering index in a release build: ClusterIndex over 1,000,000 seeded random
# points with the default options (targets: build <= 2 s, a 1920x1080 query at any zoom <= 1 ms,
# <= 150 bytes per point) and over 100,000 points (build <= 200 ms).
#
# Usage: scripts/bench/cluster.sh [--builds N] [--queries N]
set -euo pipefail

cd "$(dirname "$0")/../.."

echo "== building (release)"
swift build -c release --package-path Benchmarks --product ClusterBenchmark >/dev/null
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"

echo
"$BENCH/ClusterBenchmark" "$@"
