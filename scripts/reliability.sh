#!/usr/bin/env bash
# Reliability checks (issue 15), on a release build:
#
# 1. Crash-safe export: `mapwright tiles export` (MBTiles and PMTiles) killed with SIGKILL at
#    random moments, then finished with --resume; after every kill the work file passes
#    `PRAGMA integrity_check`, and the finished tileset equals an uninterrupted export tile for
#    tile (`tiles diff` exit status 0).
# 2. Load with concurrent writers: `serve` (a style with its cache, a photo library, a tileset)
#    under wrk on loopback for 60 s (30 s in the short form) at 128 connections, mixing cached and uncached style tiles,
#    tileset tiles, photo overlay tiles, static maps and annotations, while `tiles export` keeps
#    replacing the served tileset and `photos add` adds photos to the served library. Passes with
#    no 5xx but the deliberate 503s of a full render queue, no socket errors, nothing mentioning
#    SQLite busy or locked in answers or serve's log, every added photo in the annotations
#    afterwards, integrity_check ok on every file, and serve's high-water mark (VmHWM) under its
#    512 MiB --memory-limit. Prints
#    wrk's requests/s, p50 and p99, and p50/p99 of each kind asked one at a time beside the load.
#    2b. scripts/reliability/memory.py: `serve --style standard --photos Samples/photos` (its
#    default 512 MiB --memory-limit) under wrk at 32 connections of uncached static maps (600x400
#    @2x, zooms 3-8) and tiles (zooms 8-10) while a viewer asks one uncached tile at a time: fails
#    when the kernel's high-water mark of serve's resident memory (VmHWM) passes the limit, or
#    the viewer's p99 passes 0.5 s. (Its --soak form, 10 minutes with tileset replacements and
#    library writes, checks for leaks; not run here.)
# 4. The bad-input corpus (Tests/Fixtures/bad/, see scripts/tools/make-bad-corpus.py) given to
#    `serve`: every file serve takes (a style, photo source, overlay, track, vector source or
#    tileset) refused at start-up in one line naming the file, exit status 1 or 2, no crash,
#    never listening, nothing written. (BadInputCorpusTests gives the same files to the commands
#    the corpus's manifest names: render, photos add, tiles info, ...; serve's start-up reads them
#    through code of its own.)
#
# 3. A full disk during export (a 1 MiB tmpfs; needs root to mount it, as CI runs this script): one
#    line saying the disk is full, the work file kept, and --resume with room finishes a tileset
#    equal to the uninterrupted one.
#
#    And `serve` with its cache on a read-only tmpfs (root too): one warning line, tiles answered
#    by rendering, nothing kept. Without root, or where mounting is not permitted, checks 3 and 3b
#    FAIL saying why: a check that did not run does not pass. And SIGTERM to `serve` during a burst of 192 uncached tile requests:
#    no response that was started is cut short, and serve exits with status 0.
#
# 5. Fuzzing: scripts/fuzz/run.sh builds the libFuzzer targets (AddressSanitizer) for EXIF, CSV,
#    GPX, GeoJSON, WKB, PNG, JPEG, style JSON, MVT, PMTiles directories and request heads (serve's
#    kept-tile fast path) and runs each for 20 s
#    (600 s with --long) on its seed corpus; any crash, hang, leak or sanitizer report fails.
#
# Checks 1 to 4 are scripts/reliability/checks.py (wrk's script for check 2: load.lua beside it).
#
# Usage: scripts/reliability.sh [--long] [--only N[,N...]]
#   short form (default, about 5 minutes after the builds): 20 kills per format over Europe at
#     zooms 0-6, 30 s under wrk, fuzzing 20 s per target
#   --long: 20 kills per format over Europe at zooms 0-8, 60 s under wrk, fuzzing 600 s per target
#   --only 2,4: run only those checks (3 runs 3, 3b and 3c)
set -euo pipefail

LONG=0
ONLY=1,2,3,4,5
while [[ $# -gt 0 ]]; do
    case "$1" in
        --long) LONG=1 ;;
        --only) ONLY="${2:?--only needs check numbers, such as 2,4}"; shift ;;
        *) echo "reliability.sh: unknown argument '$1' (expected --long or --only N[,N...])" >&2; exit 2 ;;
    esac
    shift
done
cd "$(dirname "$0")/.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== building (release)"
# Exactly the build README's test command makes first (release, -enable-testing, the tests
# too): after it this is a no-op. Building only --product mapwright with the same flags, or
# letting swift test build, makes another SwiftPM build plan, and everything compiles again.
swift build -c release -Xswiftc -enable-testing --build-tests >/dev/null
BIN="$(swift build -c release -Xswiftc -enable-testing --show-bin-path)/mapwright"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

python3 scripts/reliability/checks.py "$BIN" "$WORK" "$LONG" "$ONLY" && CHECKS_STATUS=0 || CHECKS_STATUS=$?
if [[ ",$ONLY," == *",2,"* ]]; then
    echo
    echo "== 2b. serve's memory ceiling and a viewer's p99 under 32 connections of uncached static maps and tiles"
    python3 scripts/reliability/memory.py "$BIN" --seconds "$([[ $LONG == 1 ]] && echo 60 || echo 30)" || CHECKS_STATUS=1
fi

FUZZ_STATUS=0
if [[ ",$ONLY," == *",5,"* ]]; then
    FUZZ_SECONDS=$([[ $LONG == 1 ]] && echo 600 || echo 20)
    echo
    echo "== 5. fuzzing: every libFuzzer target of scripts/fuzz/ for $FUZZ_SECONDS s (AddressSanitizer)"
    bash scripts/fuzz/run.sh "$FUZZ_SECONDS" || FUZZ_STATUS=$?
fi

echo
if [[ $CHECKS_STATUS == 0 && $FUZZ_STATUS == 0 ]]; then
    echo "reliability: all checks passed"
else
    echo "reliability: FAILED (checks 1-4 exit status $CHECKS_STATUS, fuzzing exit status $FUZZ_STATUS)"
    exit 1
fi
