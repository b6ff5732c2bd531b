#!/usr/bin/env bash
# Times SDF glyph ranges generated from installed fonts in a release build (GlyphsBenchmark:
# FontGlyphs' GlyphGenerator, what serve's /fonts runs for a face no --fonts folder has, before
# the range is kept): the median per range of Open Sans Semibold's Latin and Cyrillic ranges,
# and of WenQuanYi Micro Hei's first CJK range. Target: a Latin range well under 100 ms.
#
# Usage: scripts/bench/glyphs.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "== building (release)"
swift build -c release --package-path Benchmarks --product GlyphsBenchmark >/dev/null
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
"$BENCH/GlyphsBenchmark" --iterations 20 0 256 1024
"$BENCH/GlyphsBenchmark" --iterations 5 --font "WenQuanYi Micro Hei Regular" 19968
