"""Mapwright beside MapLibre Native (PyPI's mapli, pinned) on the styles a TileServer GL user
serves: OpenMapTiles' OSM Bright, Positron, Dark Matter and MapTiler Basic over the Helsinki
sample (tilemaker's OpenMapTiles extract of central Helsinki), in one run and one table. Run by
scripts/bench/public.sh; the goals are issue 51's.

1. Twelve views: each style at GL zooms 15, 16 and 17 (Mapwright's 16, 17, 18: its zoom counts
   256-point tiles), 800x600 @1x, centred on the sample (the views lie wholly inside its data):
   - MapLibre Native warm: the view rendered again in the same process (style loaded, tiles
     read), PNG included; one cold render per worker first;
   - Mapwright warm: VectorBenchmark --style, in process, one cold render then the median of RUNS
     (render and PNG written);
   - Mapwright process: a whole `mapwright render`, start to PNG written; its fixed cost is the
     process less the warm render of the same view.
   The process and MapLibre Native's warm render run in turns, RUNS times (medians), so that the
   machine's drift falls on both.
   Then one `mapwright serve` of the styles answers each view's static map RUNS + 1 times, one at
   a time: its peak resident memory (the kernel's high-water mark, VmHWM) against the default
   `--memory-limit` of 512 MiB.
2. Exports of 512-point tiles at zooms 12-18 over the sample's bounds, OSM Bright and the streets
   style: `mapwright tiles export` against MapLibre Native's `render_tile` on a pool of one worker
   per core with every tile in flight; in turns Mapwright, MapLibre Native, MapLibre Native,
   Mapwright (means), with peak memory.

Peak memory: a Mapwright process's own (measured by a small process of its own, scripts/bench/measure.py); for
MapLibre Native this Python process's, which holds its pool.
"""
import asyncio
import json
import math
import os
import resource
import socket
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.request

import mapli

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "styles"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import measure  # noqa: E402
from gl_inputs import font_stacks, native_style  # noqa: E402

ROOT, MAPWRIGHT, VECTOR_BENCHMARK, WORK = sys.argv[1:5]
STYLES = sys.argv[5:] or ["osm-bright", "positron", "dark-matter", "maptiler-basic"]
SAMPLE = os.path.join(ROOT, "Samples/helsinki/helsinki.mbtiles")
LATITUDE, LONGITUDE = 60.17165, 24.94425
GL_ZOOMS = (15, 16, 17)
WIDTH, HEIGHT = 800, 600
RUNS = 5
BBOX = "24.935176,60.164155,24.953415,60.179113"  # the sample's bounds
EXPORT_ZOOMS = "12-18"
CORES = os.cpu_count() or 1
STREETS = os.path.join(ROOT, "Styles/streets.json")
GL_DEFAULT_FONT = "Open Sans Regular,Arial Unicode MS Regular"

def measured(command, cwd=ROOT):
    """Runs `command`; returns (seconds, peak MB, stdout)."""
    return measure.measured(command, WORK, cwd=cwd)


def mapwright_process(style_path, zoom):
    seconds, rss, _ = measured([MAPWRIGHT, "render", "--style", style_path, "--vector-source", SAMPLE,
                                "--center", f"{LATITUDE},{LONGITUDE}", "--zoom", str(zoom), "--size", f"{WIDTH}x{HEIGHT}",
                                "-o", os.path.join(WORK, "mapwright.png")])
    return seconds, rss


def mapwright_warm(style_path, zoom):
    _, rss, out = measured([VECTOR_BENCHMARK, "--style", style_path, "--tiles", SAMPLE, "--view", f"{LATITUDE},{LONGITUDE},{zoom}",
                            "--size", f"{WIDTH}x{HEIGHT}", "--iterations", str(RUNS)])
    return float(out.split()[-1]) / 1000, rss


def serve_peak(styles):
    """The peak resident memory in MiB (VmHWM) of one `mapwright serve` of `styles` (name: path)
    answering each view's static map RUNS + 1 times, one request at a time."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [MAPWRIGHT, "serve", "--port", str(port), "--vector-source", SAMPLE,
               "--cache", os.path.join(WORK, "serve.mbtiles")]
    for path in styles.values():
        command += ["--style", path]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{base}/health", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        for name in styles:
            for gl_zoom in GL_ZOOMS:
                for _ in range(RUNS + 1):
                    url = f"{base}/styles/{name}/static/{LONGITUDE},{LATITUDE},{gl_zoom}/{WIDTH}x{HEIGHT}.png"
                    assert urllib.request.urlopen(url, timeout=60).read().startswith(b"\x89PNG")
        with open(f"/proc/{server.pid}/status") as status:
            peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    finally:
        server.terminate()
        server.wait(timeout=30)
    return peak_kb / 1024


def mapwright_export(style_path):
    output = os.path.join(WORK, "export.mbtiles")
    seconds, rss, _ = measured([MAPWRIGHT, "tiles", "export", "--style", style_path, "--vector-source", SAMPLE, "--bbox", BBOX,
                                "--zoom", EXPORT_ZOOMS, "--tile-size", "512", "-o", output])
    with sqlite3.connect(output) as db:
        tiles = [(z, x, (1 << z) - 1 - row) for z, x, row in db.execute("SELECT zoom_level, tile_column, tile_row FROM tiles")]
    os.remove(output)
    return tiles, seconds, rss


def geometric_mean(values):
    return math.exp(sum(math.log(value) for value in values) / len(values))


def main():
    glyphs = os.path.join(WORK, "glyphs")
    pool = mapli.RenderPool(workers=CORES)
    styles = {}
    for name in STYLES:
        folder = os.path.join(ROOT, "Tests/Fixtures/styles", name)
        path = os.path.join(folder, "style.json")
        with open(path) as file:
            style = json.load(file)
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench/styles/sdf_glyphs.py"), glyphs] + font_stacks(style),
                       check=True, capture_output=True)
        work = os.path.join(WORK, name)
        os.makedirs(work, exist_ok=True)
        pool.register_style(name, json=native_style(folder, style, SAMPLE, work, glyphs))
        styles[name] = path
    with open(STREETS) as file:
        streets = json.load(file)
    stacks = {",".join(layer.get("layout", {}).get("text-font", GL_DEFAULT_FONT.split(",")))
              for layer in streets["layers"] if layer["type"] == "symbol"}
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench/styles/sdf_glyphs.py"), glyphs] + sorted(stacks),
                   check=True, capture_output=True)
    streets["sources"]["openmaptiles"]["url"] = f"mbtiles://{SAMPLE}"
    streets["glyphs"] = f"file://{glyphs}/{{fontstack}}/{{range}}.pbf"
    pool.register_style("streets", json=streets)

    print(f"MapLibre Native: mapli {getattr(mapli, '__version__', None) or subprocess.run([sys.executable, '-m', 'pip', 'show', 'mapli'], capture_output=True, text=True).stdout.split()[3]}; "
          f"{CORES} cores; load average {open('/proc/loadavg').read().split()[0]}")
    print(f"{'view (GL zoom)':<24} {'MLN warm':>9} {'MW warm':>9} {'warm ratio':>10} {'MW process':>11} {'fixed':>7} {'MLN/process':>11} {'MW peak':>8}")
    rows = []
    for name, path in styles.items():
        for gl_zoom in GL_ZOOMS:
            zoom = gl_zoom + 1
            for _ in range(CORES):  # every worker warm
                pool.render(name, lon=LONGITUDE, lat=LATITUDE, zoom=gl_zoom, width=WIDTH, height=HEIGHT)
            processes, natives, peaks = [], [], []
            for _ in range(RUNS):
                seconds, rss = mapwright_process(path, zoom)
                processes.append(seconds)
                peaks.append(rss)
                start = time.perf_counter()
                pool.render(name, lon=LONGITUDE, lat=LATITUDE, zoom=gl_zoom, width=WIDTH, height=HEIGHT)
                natives.append(time.perf_counter() - start)
            warm, warm_rss = mapwright_warm(path, zoom)
            native, process = statistics.median(natives), statistics.median(processes)
            row = dict(view=f"{name} z{gl_zoom}", native=native, warm=warm, process=process, fixed=process - warm,
                       peak=max(max(peaks), warm_rss))
            rows.append(row)
            print(f"{row['view']:<24} {1000 * native:7.1f}ms {1000 * warm:7.1f}ms {native / warm:9.2f}x {1000 * process:9.1f}ms "
                  f"{1000 * row['fixed']:5.1f}ms {native / process:10.2f}x {row['peak']:6.0f}MB", flush=True)
    warm_ratios = [row["native"] / row["warm"] for row in rows]
    process_ratios = [row["native"] / row["process"] for row in rows]
    fixed = [row["fixed"] for row in rows]
    print(f"warm: geometric mean {geometric_mean(warm_ratios):.2f}x MapLibre Native's speed (goal >= 1.5x), slowest view "
          f"{min(warm_ratios):.2f}x (goal >= 1x)")
    print(f"process: fixed cost median {1000 * statistics.median(fixed):.1f} ms, largest {1000 * max(fixed):.1f} ms (goal <= 15 ms); "
          f"MapLibre Native warm / Mapwright process, geometric mean {geometric_mean(process_ratios):.2f}x")

    if len(styles) > 0:
        print(f"serve of the {len(styles)} styles through these views (each static map {RUNS + 1} times): peak "
              f"{serve_peak(styles):.0f} MiB (goal: under the default --memory-limit, 512 MiB)", flush=True)

    async def export(name, tiles):
        return await asyncio.gather(*(pool.arender_tile(name, z=z, x=x, y=y, tile_size=512) for z, x, y in tiles))

    def native_export_seconds(name, tiles):
        start = time.perf_counter()
        pngs = asyncio.run(export(name, tiles))
        seconds = time.perf_counter() - start
        assert len(pngs) == len(tiles) and all(pngs)
        return seconds

    for name, path, goal in [("osm-bright", styles.get("osm-bright"), 3), ("streets", "streets", 5)]:
        if path is None:
            continue
        tiles, first, first_rss = mapwright_export(path)
        native = statistics.mean([native_export_seconds(name, tiles), native_export_seconds(name, tiles)])
        _, last, last_rss = mapwright_export(path)
        ours = (first + last) / 2
        count = len(tiles)
        print(f"export {name}, {count} tiles of 512 points, zooms {EXPORT_ZOOMS}: MapLibre Native {count / native:6.1f} tiles/s, "
              f"Mapwright {count / ours:6.1f} tiles/s, {native / ours:.2f}x (goal >= {goal}x); Mapwright peak {max(first_rss, last_rss):.0f} MB")
    print(f"MapLibre Native's peak memory (this process, its pool of {CORES}): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
