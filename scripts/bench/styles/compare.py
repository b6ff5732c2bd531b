"""Public styles drawn by Mapwright and by MapLibre Native (PyPI's mapli) over the Helsinki
sample, view by view: the fraction of differing pixels (pixelmatch, threshold 0.1, as GL's
render tests compare) and the time of each render. Run by scripts/bench/styles.sh.

Both draw the same style file with the same tiles, icons and text:
- MapLibre Native reads the tiles through `mbtiles://`, a sprite sheet packed here from the
  style's SVG icons (rasterised by rsvg-convert, the librsvg Mapwright uses) and SDF glyph
  ranges made here from the installed fonts (sdf_glyphs.py), since it cannot draw text without
  them; it renders warm, in process, on Mesa's CPU renderer (llvmpipe) under Xvfb.
- Mapwright renders the vendored style as a user would: `mapwright render --style FILE
  --vector-source helsinki.mbtiles`, a whole process each time, its text from the installed
  fonts (timed too warm, in process, by VectorBenchmark --style, as MapLibre Native is timed); and a second time with the style's `glyphs` pointing at the same SDF ranges MapLibre
  Native reads ("glyphs"), to measure which text source is closer to GL.

Mapwright's zoom counts 256-point tiles, GL's 512: Mapwright's zoom Z is GL's Z - 1.
"""
import json
import os
import statistics
import subprocess
import sys
import time

import mapli
from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gl_inputs import font_stacks, native_style  # noqa: E402

ROOT, MAPWRIGHT, VECTOR_BENCHMARK, WORK, OUTPUT = sys.argv[1:6]
STYLES = sys.argv[6:] or ["osm-bright", "positron", "dark-matter", "maptiler-basic", "protomaps-light"]
SAMPLE = os.path.join(ROOT, "Samples/helsinki/helsinki.mbtiles")
# Protomaps' style draws Protomaps-schema tiles: the same data built with that schema.
PROTOMAPS_SAMPLE = os.path.join(ROOT, "Samples/helsinki/helsinki-protomaps.mbtiles")
# Central Helsinki (the railway station, Kluuvi, the Esplanadi) at street zooms, and the harbour.
VIEWS = [(60.1700, 24.9445, zoom) for zoom in (12, 13, 14, 15, 16, 17)] + [(60.1675, 24.9500, 16)]
WIDTH, HEIGHT, RUNS = 800, 600, 3
PAIR_ZOOM = 16


def differing(a, b):
    first, second = Image.open(a).convert("RGBA"), Image.open(b).convert("RGBA")
    if first.size != second.size:
        return float("nan")
    return pixelmatch(first, second, Image.new("RGBA", first.size), threshold=0.1) / (first.width * first.height)


def sample(style):
    return PROTOMAPS_SAMPLE if "protomaps" in style["sources"] else SAMPLE


def mapwright(style_path, view, output, tiles):
    latitude, longitude, zoom = view
    command = [MAPWRIGHT, "render", "--style", style_path, "--vector-source", tiles, "--center", f"{latitude},{longitude}",
               "--zoom", str(zoom), "--size", f"{WIDTH}x{HEIGHT}", "-o", output]
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def mapwright_warm(style_path, view, tiles):
    """Mapwright's render + PNG write of the view, warm, in process (VectorBenchmark --style)."""
    latitude, longitude, zoom = view
    out = subprocess.run([VECTOR_BENCHMARK, "--style", style_path, "--tiles", tiles, "--view", f"{latitude},{longitude},{zoom}",
                          "--size", f"{WIDTH}x{HEIGHT}", "--iterations", str(RUNS)], check=True, capture_output=True, text=True, cwd=ROOT)
    return float(out.stdout.split()[-1]) / 1000


def main():
    pool = mapli.RenderPool(workers=1)
    glyphs_folder = os.path.join(WORK, "glyphs")
    rows = []
    for name in STYLES:
        folder = os.path.join(ROOT, "Tests/Fixtures/styles", name)
        with open(os.path.join(folder, "style.json")) as file:
            style = json.load(file)
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/bench/styles/sdf_glyphs.py"), glyphs_folder] + font_stacks(style),
                       check=True, capture_output=True)
        tiles = sample(style)
        os.makedirs(os.path.join(WORK, name), exist_ok=True)
        pool.register_style(name, json=native_style(folder, style, tiles, os.path.join(WORK, name), glyphs_folder))
        # Mapwright with the same glyph ranges as MapLibre Native, from a copy beside the icons.
        with_glyphs = dict(style)
        with_glyphs["glyphs"] = f"file://{glyphs_folder}/{{fontstack}}/{{range}}.pbf"
        with_glyphs["sprite"] = os.path.join(folder, style["sprite"])
        glyph_style = os.path.join(WORK, name, "style-glyphs.json")
        with open(glyph_style, "w") as file:
            json.dump(with_glyphs, file)
        for view in VIEWS:
            latitude, longitude, zoom = view
            label = f"{name} z{zoom} {latitude:.4f},{longitude:.4f}"
            native_png = os.path.join(WORK, f"{name}-{zoom}-{latitude}-native.png")
            pool.render(name, lon=longitude, lat=latitude, zoom=zoom - 1, width=WIDTH, height=HEIGHT)  # warm
            times = []
            for _ in range(RUNS):
                start = time.perf_counter()
                png = pool.render(name, lon=longitude, lat=latitude, zoom=zoom - 1, width=WIDTH, height=HEIGHT)
                times.append(time.perf_counter() - start)
            with open(native_png, "wb") as file:
                file.write(png)
            ours = os.path.join(WORK, f"{name}-{zoom}-{latitude}-mapwright.png")
            ours_time = mapwright(os.path.join(folder, "style.json"), view, ours, tiles)
            glyph_png = os.path.join(WORK, f"{name}-{zoom}-{latitude}-glyphs.png")
            mapwright(glyph_style, view, glyph_png, tiles)
            warm = mapwright_warm(os.path.join(folder, "style.json"), view, tiles)
            row = (label, differing(ours, native_png), differing(glyph_png, native_png), ours_time, statistics.median(times), warm)
            rows.append(row)
            print(f"{row[0]:<38} {100 * row[1]:6.1f}% {100 * row[2]:6.1f}%  {1000 * row[5]:7.0f} ms  {1000 * row[3]:7.0f} ms  {1000 * row[4]:7.0f} ms  {row[5] / row[4]:5.1f}x", flush=True)
            if zoom == PAIR_ZOOM and (latitude, longitude) == VIEWS[0][:2]:
                os.makedirs(OUTPUT, exist_ok=True)
                Image.open(ours).save(os.path.join(OUTPUT, f"{name}-mapwright.png"), optimize=True)
                Image.open(native_png).save(os.path.join(OUTPUT, f"{name}-maplibre-native.png"), optimize=True)
    print()
    print(f"median differing pixels: installed fonts {100 * statistics.median(r[1] for r in rows):.1f}%, "
          f"glyphs {100 * statistics.median(r[2] for r in rows):.1f}%; median time: Mapwright warm in process "
          f"{1000 * statistics.median(r[5] for r in rows):.0f} ms, whole process {1000 * statistics.median(r[3] for r in rows):.0f} ms; "
          f"MapLibre Native warm in process {1000 * statistics.median(r[4] for r in rows):.0f} ms")


if __name__ == "__main__":
    main()
