# Sourced by the benchmarks that run MapLibre Native beside Mapwright (styles.sh, native.sh), from
# the repository's root: builds mapwright and VectorBenchmark in release (BIN and BENCH are their
# folders) and makes the Python environment with PyPI's mapli and the comparison tools (VENV).
# mapwright is built as scripts/install.sh builds it, with Swift's runtime linked in statically
# (what a user runs: it starts 15-20 ms sooner than with the runtime's shared libraries).
echo "== building (release)"
swift build -c release --product mapwright --static-swift-stdlib >/dev/null
swift build -c release --package-path Benchmarks --product VectorBenchmark >/dev/null
BIN="$(swift build -c release --static-swift-stdlib --show-bin-path)"
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)"

VENV=".build/bench-venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check mapli==0.4.1 pixelmatch pillow freetype-py numpy scipy

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"
echo
