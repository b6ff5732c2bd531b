"""Mapwright and MapLibre Native (PyPI's mapli) on the same work, one engine at a time, in one run:
the streets style (Styles/streets.json) over the Helsinki sample. Run by scripts/bench/native.sh.

1. A static map, 1200x800 points @2x at zoom 15 (GL's 14) over central Helsinki, as a PNG:
   - MapLibre Native warm, in process (the style loaded and its tiles decoded by earlier renders);
   - Mapwright warm, in process (VectorBenchmark --style, tiles decoded once);
   - Mapwright as a whole `mapwright render` process: start-up, style, tiles, render, PNG written.
2. Tile export: every 512-point tile of the sample's bounds at zooms 12-18 as PNGs:
   - Mapwright: `mapwright tiles export --tile-size 512` into MBTiles on every core;
   - MapLibre Native: the same tiles through `render_tile` (tile_size 512) on a pool of one worker
     per core, all requests in flight at once, the PNGs kept in memory.
   Tiles per second and each engine's peak resident memory (Mapwright: the export process;
   MapLibre Native: this Python process, measured before and after, so the interpreter's own
   few MB are included).

The engines run in turns, one at a time: the static map alternately (a whole `mapwright render`,
then a warm MapLibre Native render, RUNS times; medians), the export twice each in the order
Mapwright, MapLibre Native, MapLibre Native, Mapwright (means). This machine's speed drifts by a
fifth within minutes; measured in turns, the drift falls on both engines alike and the ratios
hold still where figures taken one engine after the other moved from 0.7x to 1.05x.

MapLibre Native draws text only from SDF glyph ranges: they are made here (sdf_glyphs.py) from the
installed fonts of the style's font stacks (GL's default, Open Sans, where a layer names none).
Mapwright's zoom counts 256-point tiles, GL's 512: Mapwright's zoom Z is GL's Z - 1.
"""
import asyncio
import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import time

import mapli

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import measure  # noqa: E402

ROOT, MAPWRIGHT, VECTOR_BENCHMARK, WORK = sys.argv[1:5]
SAMPLE = os.path.join(ROOT, "Samples/helsinki/helsinki.mbtiles")
STYLE = os.path.join(ROOT, "Styles/streets.json")
LATITUDE, LONGITUDE, ZOOM = 60.17165, 24.94425, 15
WIDTH, HEIGHT, SCALE = 1200, 800, 2
BBOX = "24.935176,60.164155,24.953415,60.179113"  # the sample's bounds
EXPORT_ZOOMS = "12-18"
RUNS = 11
CORES = os.cpu_count() or 1
FONT_STACK = "Open Sans Regular,Arial Unicode MS Regular"  # GL's default text-font


def peak_rss_mb(usage):
    return usage.ru_maxrss / 1024


def mapwright_process():
    """One whole `mapwright render` of the static map, in seconds."""
    command = [MAPWRIGHT, "render", "--style", "streets", "--vector-source", SAMPLE, "--center", f"{LATITUDE},{LONGITUDE}",
               "--zoom", str(ZOOM), "--size", f"{WIDTH}x{HEIGHT}", "--scale", str(SCALE), "-o", os.path.join(WORK, "mapwright.png")]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return time.perf_counter() - start


def mapwright_warm():
    out = subprocess.run([VECTOR_BENCHMARK, "--style", STYLE, "--view", f"{LATITUDE},{LONGITUDE},{ZOOM}",
                          "--size", f"{WIDTH}x{HEIGHT}", "--scale", str(SCALE), "--iterations", str(RUNS)],
                         check=True, capture_output=True, text=True, cwd=ROOT)
    return float(out.stdout.split()[-1]) / 1000


def mapwright_export():
    """Mapwright's export of the sample: its tiles, seconds and peak memory in MB."""
    output = os.path.join(WORK, "mapwright.mbtiles")
    seconds, peak_mb, _ = measure.measured([MAPWRIGHT, "tiles", "export", "--style", "streets", "--vector-source", SAMPLE,
                                            "--bbox", BBOX, "--zoom", EXPORT_ZOOMS, "--tile-size", "512", "-o", output], WORK)
    with sqlite3.connect(output) as db:
        tiles = [(z, x, (1 << z) - 1 - row) for z, x, row in db.execute("SELECT zoom_level, tile_column, tile_row FROM tiles")]
    os.remove(output)
    return tiles, seconds, peak_mb


def main():
    with open(STYLE) as file:
        style = json.load(file)
    stacks = {",".join(layer.get("layout", {}).get("text-font", FONT_STACK.split(",")))
              for layer in style["layers"] if layer["type"] == "symbol"}
    glyphs = os.path.join(WORK, "glyphs")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench/styles/sdf_glyphs.py"), glyphs] + sorted(stacks),
                   check=True, capture_output=True)
    style["sources"]["openmaptiles"]["url"] = f"mbtiles://{SAMPLE}"
    style["glyphs"] = f"file://{glyphs}/{{fontstack}}/{{range}}.pbf"

    # The pool (its EGL contexts) first; every worker then loads the style and decodes the view's tiles.
    rss_before = peak_rss_mb(resource.getrusage(resource.RUSAGE_SELF))
    pool = mapli.RenderPool(workers=CORES)
    pool.register_style("streets", json=style)
    for _ in range(CORES):
        pool.render("streets", lon=LONGITUDE, lat=LATITUDE, zoom=ZOOM - 1, width=WIDTH, height=HEIGHT, pixel_ratio=SCALE)

    process_times, native_times = [], []
    for _ in range(RUNS):
        process_times.append(mapwright_process())
        start = time.perf_counter()
        png = pool.render("streets", lon=LONGITUDE, lat=LATITUDE, zoom=ZOOM - 1, width=WIDTH, height=HEIGHT, pixel_ratio=SCALE)
        native_times.append(time.perf_counter() - start)
    with open(os.path.join(WORK, "maplibre-native.png"), "wb") as file:
        file.write(png)
    process, native_warm = statistics.median(process_times), statistics.median(native_times)
    warm = mapwright_warm()

    async def export(tiles):
        return await asyncio.gather(*(pool.arender_tile("streets", z=z, x=x, y=y, tile_size=512) for z, x, y in tiles))

    def native_export_seconds(tiles):
        start = time.perf_counter()
        pngs = asyncio.run(export(tiles))
        seconds = time.perf_counter() - start
        assert len(pngs) == len(tiles) and all(pngs)
        return seconds

    tiles, first_seconds, export_rss = mapwright_export()
    native_seconds = [native_export_seconds(tiles), native_export_seconds(tiles)]
    _, last_seconds, last_rss = mapwright_export()
    export_seconds, export_rss = (first_seconds + last_seconds) / 2, max(export_rss, last_rss)
    native_export = statistics.mean(native_seconds)
    native_rss = peak_rss_mb(resource.getrusage(resource.RUSAGE_SELF))

    count = len(tiles)
    print(f"static map, {WIDTH}x{HEIGHT} @{SCALE}x at zoom {ZOOM} (median of {RUNS}, the engines in turns)")
    print(f"  MapLibre Native, warm in process        {1000 * native_warm:7.0f} ms")
    print(f"  Mapwright, warm in process              {1000 * warm:7.0f} ms   {native_warm / warm:4.2f}x MapLibre Native's speed")
    print(f"  Mapwright, whole mapwright render       {1000 * process:7.0f} ms   {native_warm / process:4.2f}x  (goal: >= 1.00x)")
    print(f"tile export, {count} tiles of 512 points, zooms {EXPORT_ZOOMS}, {CORES} cores (mean of 2 each, in turns)")
    print(f"  MapLibre Native, render_tile            {count / native_export:7.1f} tiles/s   peak memory {native_rss:5.0f} MB (Python before: {rss_before:.0f} MB)")
    print(f"  Mapwright, tiles export                 {count / export_seconds:7.1f} tiles/s   peak memory {export_rss:5.0f} MB")
    print(f"  ratio                                   {(count / export_seconds) / (count / native_export):7.2f}x  (goal: >= 3x); memory {export_rss / native_rss:.2f} of MapLibre Native's")


if __name__ == "__main__":
    main()
