"""What MapLibre Native needs beside a vendored public style to draw it as Mapwright does: a sprite
sheet packed from the style's SVG icons, and the style's font stacks (for sdf_glyphs.py). Shared by
scripts/bench/styles/compare.py and scripts/bench/public/speed.py.
"""
import io
import json
import os
import subprocess

from PIL import Image


def sprite_sheet(icons, base, ratio):
    """A sprite sheet (base.json, base.png; @2x for ratio 2) of the SVGs in `icons`, in rows."""
    images = {}
    for name in sorted(os.listdir(icons)):
        if not name.endswith(".svg"):
            continue
        png = subprocess.run(["rsvg-convert", "--zoom", str(ratio), os.path.join(icons, name)], capture_output=True, check=True).stdout
        images[name[:-4]] = Image.open(io.BytesIO(png)).convert("RGBA")
    width = 512 * ratio
    x = y = row = 0
    index = {}
    for name, image in images.items():
        if x + image.width > width:
            x, y, row = 0, y + row, 0
        index[name] = {"x": x, "y": y, "width": image.width, "height": image.height, "pixelRatio": ratio}
        x, row = x + image.width, max(row, image.height)
    sheet = Image.new("RGBA", (width, max(1, y + row)))
    for name, image in images.items():
        sheet.paste(image, (index[name]["x"], index[name]["y"]))
    suffix = "@2x" if ratio > 1 else ""
    sheet.save(f"{base}{suffix}.png")
    with open(f"{base}{suffix}.json", "w") as file:
        json.dump(index, file)


def font_stacks(style):
    stacks = set()
    for layer in style["layers"]:
        fonts = layer.get("layout", {}).get("text-font")
        if isinstance(fonts, list) and all(isinstance(f, str) for f in fonts):
            stacks.add(",".join(fonts))
    return sorted(stacks)


def native_style(folder, style, tiles, work, glyphs_folder):
    """`style` (the vendored style.json in `folder`, parsed) as MapLibre Native reads it: its sources
    the MBTiles file `tiles`, its sprite a sheet packed into `work` from the style's icons (or the
    sheet its authors publish, vendored beside it), its glyphs the SDF ranges in `glyphs_folder`."""
    if os.path.isdir(os.path.join(folder, "icons")):
        sprite = os.path.join(work, "sprite")
        for ratio in (1, 2):
            sprite_sheet(os.path.join(folder, "icons"), sprite, ratio)
    else:
        sprite = os.path.join(folder, style["sprite"])
    native = dict(style)
    native["sources"] = {source: {"type": "vector", "url": f"mbtiles://{tiles}"} for source in style["sources"]}
    native["sprite"] = f"file://{sprite}"
    native["glyphs"] = f"file://{glyphs_folder}/{{fontstack}}/{{range}}.pbf"
    return native
