#!/usr/bin/env bash
# Builds the libFuzzer targets of scripts/fuzz/ and runs each for SECONDS (20 unless told) on a
# scratch copy of its seed corpus (corpus/<Target>/, never grown by a run), with its dictionary
# (dictionaries/<Target>.dict) when it has one. Prints one line per target, with its executions,
# and exits 1 when any target crashed, hung, ran out of memory or reported an AddressSanitizer
# error, 2 when the targets do not build.
#
# Usage: bash scripts/fuzz/run.sh [SECONDS]        from any folder
#   short form: 20 s each, as many at once as there are cores (11 targets on 2 cores: 110 s after
#   the build); long form: 600 s each.
#
# Each run gets -max_total_time=SECONDS -rss_limit_mb=2048 -timeout=60 -max_len=<per target>.
# A crashing input is kept as crash-*, timeout-*, oom-* or leak-* in
# scripts/fuzz/.build/fuzz-results/<Target>/, beside the run's log; turn it into a regression test
# (see README.md here). Re-run one input with
#   MAPWRIGHT_FUZZ_VERBOSE=1 scripts/fuzz/.build/debug/<Target> <file>
#
# Environment: MAPWRIGHT_FUZZ_TARGETS="FuzzPNG FuzzJPEG" runs only those targets.
set -uo pipefail

SECONDS_EACH="${1:-20}"
if ! [[ "$SECONDS_EACH" =~ ^[0-9]+$ ]] || [[ "$SECONDS_EACH" -eq 0 ]]; then
    echo "run.sh: SECONDS must be a whole number above 0, not '$SECONDS_EACH'" >&2
    exit 2
fi
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Each target and the longest input it is given: a little over its largest seed.
declare -A MAX_LEN=(
    [FuzzEXIF]=16384 [FuzzCSV]=4096 [FuzzGPX]=24576 [FuzzGeoJSON]=8192 [FuzzWKB]=1024
    [FuzzPNG]=4096 [FuzzJPEG]=8192 [FuzzStyle]=36864 [FuzzMVT]=24576 [FuzzPMTiles]=4096 [FuzzRequestHead]=8192
)
# Options of one target only. GPX is read by Foundation's XMLParser, which leaks a little on every
# malformed document (see lsan-suppressions.txt); checking each such input for leaks would cut
# GPX's executions tenfold, so its leak checks are off.
declare -A EXTRA=([FuzzGPX]="-detect_leaks=0")
ALL_TARGETS=(FuzzEXIF FuzzCSV FuzzGPX FuzzGeoJSON FuzzWKB FuzzPNG FuzzJPEG FuzzStyle FuzzMVT FuzzPMTiles FuzzRequestHead)
read -r -a TARGETS <<< "${MAPWRIGHT_FUZZ_TARGETS:-${ALL_TARGETS[*]}}"
for target in "${TARGETS[@]}"; do
    if [[ -z "${MAX_LEN[$target]:-}" ]]; then
        echo "run.sh: no fuzz target '$target' (there are ${ALL_TARGETS[*]})" >&2
        exit 2
    fi
done

RESULTS="$HERE/.build/fuzz-results"
mkdir -p "$RESULTS"
echo "== building the fuzz targets (debug, -sanitize=fuzzer,address)"
BUILD=(swift build --package-path "$HERE" -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
BUILD_LOG="$RESULTS/build.log"
: >"$BUILD_LOG"
# One product at a time: a plain `swift build` would build every target of the root package too
# (the server, the command line and their dependencies), none of which a fuzz target links.
for target in "${TARGETS[@]}"; do
    if ! "${BUILD[@]}" --product "$target" >>"$BUILD_LOG" 2>&1; then
        grep -v "Cannot export local symbol" "$BUILD_LOG" | tail -30 >&2
        echo "run.sh: the fuzz target $target does not build (log: $BUILD_LOG)" >&2
        exit 2
    fi
done
BIN="$("${BUILD[@]}" --show-bin-path)"

SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/mapwright-fuzz-run.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

# Runs one target; writes its line of the report, and "failed" when it failed, into its results folder.
fuzz_one() {
    local target=$1
    local out="$RESULTS/$target"
    rm -rf "$out"
    mkdir -p "$out" "$SCRATCH/$target"
    cp "$HERE/corpus/$target/"* "$SCRATCH/$target/"
    local options=(-max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=60 -max_len="${MAX_LEN[$target]}"
                   -print_final_stats=1 -artifact_prefix="$out/")
    [[ -f "$HERE/dictionaries/$target.dict" ]] && options+=(-dict="$HERE/dictionaries/$target.dict")
    [[ -n "${EXTRA[$target]:-}" ]] && options+=(${EXTRA[$target]})
    local started=$SECONDS
    # The target's own temporary files go under the scratch folder, removed with it; leaks
    # inside Foundation itself are suppressed (see lsan-suppressions.txt); Swift's own crash
    # backtracer is off, so that a trap is reported by libFuzzer, not lost in the backtracer
    # reading memory AddressSanitizer guards.
    SWIFT_BACKTRACE=enable=no TMPDIR="$SCRATCH/$target" LSAN_OPTIONS="suppressions=$HERE/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
        "$BIN/$target" "${options[@]}" "$SCRATCH/$target" >"$out/fuzz.log" 2>&1
    local status=$?
    local elapsed=$((SECONDS - started))
    local executions
    executions="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$out/fuzz.log" | tail -1 | grep -o '[0-9]*$')"
    if [[ -z "$executions" ]]; then
        executions="$(grep -o '^#[0-9]*' "$out/fuzz.log" | tail -1 | tr -d '#')"
    fi
    local artifact verdict
    artifact="$(find "$out" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \
        -o -name 'leak-*' \) | head -1)"
    if [[ $status -eq 0 && -z "$artifact" ]]; then
        verdict="no crash"
    else
        verdict="CRASH: ${artifact:-exit status $status, no input kept} (log: $out/fuzz.log)"
        touch "$out/failed"
    fi
    printf '%-12s %10s executions %5s s  %s\n' "$target" "${executions:-?}" "$elapsed" "$verdict" >"$out/report"
}

# As many targets at once as there are cores (each libFuzzer run is one process on one core).
PARALLEL="$(nproc)"
echo "== fuzzing ${#TARGETS[@]} targets for $SECONDS_EACH s each, $PARALLEL at a time"
for target in "${TARGETS[@]}"; do
    while (( $(jobs -rp | wc -l) >= PARALLEL )); do wait -n; done
    fuzz_one "$target" &
done
wait
failures=0
for target in "${TARGETS[@]}"; do
    cat "$RESULTS/$target/report" 2>/dev/null || echo "$target: no report (the run did not finish)"
    if [[ -f "$RESULTS/$target/failed" || ! -f "$RESULTS/$target/report" ]]; then failures=$((failures + 1)); fi
done
rm -rf "${SCRATCH:?}"/*

if [[ $failures -gt 0 ]]; then
    echo "run.sh: $failures of ${#TARGETS[@]} fuzz targets failed"
    exit 1
fi
echo "run.sh: ${#TARGETS[@]} fuzz targets ran $SECONDS_EACH s each with no crash"
