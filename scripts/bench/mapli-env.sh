# Sourced by the benchmarks that run MapLibre Native beside Mapwright (styles.sh, native.sh), from
# the repository's root: builds mapwright and VectorBenchmark in release (BIN and BENCH are their
# folders) and makes the Python environment with PyPI's mapli and the comparison tools (VENV).
echo "== building (release)"
swift build -c release --product mapwright >/dev/null
swift build -c release --package-path Benchmarks --product VectorBenchmark >/dev/null
BIN="$(swift build -c release --show-bin-path)"
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"

VENV=".build/bench-venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check mapli pixelmatch pillow freetype-py numpy scipy

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
echo
