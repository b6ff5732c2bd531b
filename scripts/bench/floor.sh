#!/usr/bin/env bash
# What a whole `mapwright render` pays before it draws, next to what it cannot avoid: a C program
# linking exactly the shared libraries mapwright links (read from `ldd`; exec, loading and
# relocating them, nothing else), `mapwright --version` (the same plus Swift's runtime start,
# the 145 MB static binary's pages and ArgumentParser's root command), and one public-style
# render as a process beside the same view warm in VectorBenchmark (its first, cold render
# printed too). Medians of RUNS (default 21) runs in turns. Issue 51 asked for a fixed cost
# (process less warm) of at most 15 ms; this shows how much of it is floor.
#
# Usage: RUNS=21 scripts/bench/floor.sh [STYLE] [GL_ZOOM]   (default: positron 16)
set -euo pipefail

cd "$(dirname "$0")/../.."
ROOT="$PWD"
STYLE="${1:-positron}"
GL_ZOOM="${2:-16}"
RUNS="${RUNS:-21}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== building (release)"
swift build -c release --product mapwright --static-swift-stdlib >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
swift build -c release --package-path Benchmarks --product VectorBenchmark >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
MAPWRIGHT="$(swift build -c release --static-swift-stdlib --show-bin-path)/mapwright"
VECTOR="$(swift build -c release --package-path Benchmarks --show-bin-path)/VectorBenchmark"

# The stub: main returns at once, linked (without --as-needed) to every library mapwright needs
# by name, so the loader maps and relocates the same set.
LIBS=()
while read -r name _; do
    case "$name" in
        linux-vdso.so.* | /lib64/* | libc.so.* | libm.so.* | libgcc_s.so.*) continue ;;
    esac
    LIBS+=("-l:$name")
done < <(ldd "$MAPWRIGHT")
echo 'int main(void) { return 0; }' > "$WORK/stub.c"
cc "$WORK/stub.c" -o "$WORK/stub" -Wl,--no-as-needed "${LIBS[@]}" -lm
echo 'int main(void) { return 0; }' > "$WORK/bare.c"
cc "$WORK/bare.c" -o "$WORK/bare"

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc); $(ldd "$MAPWRIGHT" | wc -l) shared objects"
python3 - "$ROOT" "$MAPWRIGHT" "$VECTOR" "$WORK" "$STYLE" "$GL_ZOOM" "$RUNS" <<'EOF'
import statistics, subprocess, sys, time, os
root, mapwright, vector, work, style, gl_zoom, runs = sys.argv[1:]
runs = int(runs)
style_path = os.path.join(root, "Tests/Fixtures/styles", style, "style.json")
sample = os.path.join(root, "Samples/helsinki/helsinki.mbtiles")
zoom = str(int(gl_zoom) + 1)  # Mapwright's zoom counts 256-point tiles
view = ["--center", "60.17165,24.94425", "--zoom", zoom, "--size", "800x600"]
commands = {
    "C program, no libraries": [os.path.join(work, "bare")],
    "C program, mapwright's libraries": [os.path.join(work, "stub")],
    "mapwright --version": [mapwright, "--version"],
    "mapwright render --help": [mapwright, "render", "--help"],
    f"mapwright render ({style} GL {gl_zoom})": [mapwright, "render", "--style", style_path, "--vector-source", sample,
                                                  *view, "-o", os.path.join(work, "map.png")],
}
times = {name: [] for name in commands}
for _ in range(runs):
    for name, command in commands.items():
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[name].append((time.perf_counter() - start) * 1000)
warm = subprocess.run([vector, "--style", style_path, "--tiles", sample, "--view", f"60.17165,24.94425,{zoom}",
                       "--size", "800x600", "--iterations", "9"], capture_output=True, text=True, check=True)
warm_ms = float(warm.stdout.split()[-1])
for name, values in times.items():
    print(f"{name:42s} {statistics.median(values):7.1f} ms")
print(f"{'warm render, same view (VectorBenchmark)':42s} {warm_ms:7.1f} ms   ({warm.stderr.strip()})")
process = statistics.median(times[f"mapwright render ({style} GL {gl_zoom})"])
print(f"{'fixed cost (process less warm)':42s} {process - warm_ms:7.1f} ms   (issue 51's goal: 15 ms)")
EOF
