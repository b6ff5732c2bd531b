#!/usr/bin/env bash
# Builds the conformance runner (Conformance/RenderConformance, an executable of the root package,
# in release) and runs it over the GL render-test suite against Conformance/ignores.txt: every test renders in this one process; the run fails when a
# test not on the list fails, or a listed test passes. Extra arguments go to the runner, e.g.
#   bash scripts/conformance/run.sh --filter fill-opacity/      (one category)
#   bash scripts/conformance/run.sh --update-ignores            (rewrite the list after a fix)
#   bash scripts/conformance/run.sh --diffs /tmp/renders        (write the failing renders)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
suite="$(bash "$root/scripts/conformance/get-suite.sh")"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Exactly the build README's test command makes first (release, -enable-testing, the tests
# too), which holds the runner: after it this is a no-op. (--product RenderConformance alone is
# another SwiftPM build plan, and everything compiles again.)
build=(swift build -c release -Xswiftc -enable-testing --package-path "$root")
if ! "${build[@]}" --build-tests > "$log" 2>&1; then
    cat "$log" >&2
    echo "conformance: the runner did not build" >&2
    exit 2
fi
runner="$("${build[@]}" --show-bin-path)/RenderConformance"
check="--check"
for argument in "$@"; do [[ "$argument" == "--update-ignores" || "$argument" == "--filter" ]] && check=""; done
"$runner" "$suite" --ignores "$root/Conformance/ignores.txt" --basemap "$root/Tiles/basemap" $check "$@"
