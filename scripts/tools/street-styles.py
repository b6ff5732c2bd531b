#!/usr/bin/env python3
"""Writes the dark and muted variants of the streets style from Styles/streets.json, and the
street layers of the world looks (standard, muted, dark).

The variants reuse streets.json's layers, filters and sizes and change only colours: each colour
of a paint property goes through the variant's rule, and the variant takes `metadata.mapwright`
(pins, callout, clusters, attribution colour) from the world style of the same look
(Styles/dark.json, Styles/muted.json).

The world looks then get the street layers of their own look (streets.json for standard,
streets-muted.json for muted, streets-dark.json for dark) as layers `streets-*` reading the
source `streets` (`basemap://streets`: the street-level basemaps the user registered, drawing
nothing without one), from MapLibre zoom 10: area and line layers above the Natural Earth land,
lakes and rivers, labels before the world's own; and a hillshade layer `terrain-hillshade` of the
source `terrain` (`basemap://terrain`: the DEMs the user registered) over the street landcover.
The streets style's background (the world's land
shows instead), its boundaries and its town names (the world style has both) are left out. The
rest of each world style is read from its file and kept as it is. Run it after editing
streets.json or a world style; a test checks every output is current.

Usage: scripts/tools/street-styles.py [STYLES_DIR] [OUT_DIR]   (both default to Styles/)
"""
import colorsys
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STYLES = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "Styles")
OUT = sys.argv[2] if len(sys.argv) > 2 else STYLES


def parse(text):
    """A CSS colour of the forms streets.json uses: #rrggbb, rgba(r, g, b, a)."""
    text = text.strip()
    if re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        return tuple(int(text[i:i + 2], 16) / 255 for i in (1, 3, 5)) + (1.0,)
    match = re.fullmatch(r"rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)", text)
    if match:
        r, g, b, a = match.groups()
        return (int(r) / 255, int(g) / 255, int(b) / 255, float(a))
    return None


def write(rgba):
    r, g, b, a = rgba
    hex6 = "#%02x%02x%02x" % tuple(round(max(0, min(1, c)) * 255) for c in (r, g, b))
    if a >= 1:
        return hex6
    return "rgba(%d, %d, %d, %s)" % (round(r * 255), round(g * 255), round(b * 255), ("%.2f" % a).rstrip("0").rstrip("."))


def dark(rgba, role):
    """Night colours: lightness turned round for areas and lines (light land becomes charcoal,
    white streets stay the lightest lines), text light on dark halos; hue kept, saturation lowered."""
    r, g, b, a = rgba
    h, l, s = colorsys.rgb_to_hls(r, g, b)
    if role == "halo":
        return write(colorsys.hls_to_rgb(0.6, 0.09, 0.15) + (min(1, a + 0.1),))
    if role == "text":
        return write(colorsys.hls_to_rgb(h, 0.92 - 0.45 * l, s * 0.35) + (a,))
    if role == "background":
        return write(colorsys.hls_to_rgb(0.6, 0.17, 0.06) + (a,))
    if role == "water":
        return write(colorsys.hls_to_rgb(0.58, 0.12, 0.3) + (a,))
    if role == "road":
        # Streets the lightest lines, main roads faintly warm; casings darker than their roads.
        return write(colorsys.hls_to_rgb(h, 0.2 + 0.22 * l ** 2, s * 0.25) + (a,))
    # Areas: a little lighter than the land, barely tinted.
    return write(colorsys.hls_to_rgb(h, 0.15 + 0.1 * l, s * 0.18) + (a,))


def muted(rgba, role):
    """Pale and desaturated, so photos and tracks stand out: saturation cut to a quarter and
    lightness raised a third of the way to white; text a quiet grey."""
    r, g, b, a = rgba
    h, l, s = colorsys.rgb_to_hls(r, g, b)
    if role == "text":
        return write(colorsys.hls_to_rgb(h, 0.35 + 0.3 * l, s * 0.15) + (a,))
    if role == "halo":
        return write(colorsys.hls_to_rgb(h, l, s * 0.25) + (a,))
    return write(colorsys.hls_to_rgb(h, l + (1 - l) * 0.33, s * 0.25) + (a,))


def role(layer, key):
    if key == "background-color":
        return "background"
    if key == "text-halo-color":
        return "halo"
    if key == "text-color":
        return "text"
    if layer.get("source-layer") in ("water", "waterway"):
        return "water"
    if layer.get("type") == "line" and layer.get("source-layer") in ("transportation", "aeroway"):
        return "road"
    return "area"


def recolour(value, change):
    if isinstance(value, str):
        rgba = parse(value)
        return change(rgba) if rgba else value
    if isinstance(value, list):
        return [recolour(item, change) for item in value]
    if isinstance(value, dict):
        return {key: recolour(item, change) for key, item in value.items()}
    return value


def variant(name, rule, world):
    with open(os.path.join(STYLES, "streets.json"), encoding="utf-8") as handle:
        style = json.load(handle)
    with open(os.path.join(STYLES, world + ".json"), encoding="utf-8") as handle:
        look = json.load(handle)
    style["name"] = "Streets " + name.capitalize()
    style["metadata"] = {"mapwright": look["metadata"]["mapwright"]}
    for layer in style["layers"]:
        paint = layer.get("paint", {})
        for key in list(paint):
            if key.endswith("-color"):
                paint[key] = recolour(paint[key], lambda rgba, key=key, layer=layer: rule(rgba, role(layer, key)))
    save(style, "streets-%s.json" % name)
    return style


def compact(value, indent=0, width=110):
    """JSON as the world styles are written by hand: a value on one line when it fits in `width`
    columns, else one member or item per line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = " " * (indent + 2)
    if isinstance(value, dict):
        items = [inner + json.dumps(key, ensure_ascii=False) + ": " + compact(item, indent + 2, width)
                 for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [inner + compact(item, indent + 2, width) for item in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def save(style, name, hand_written=False):
    path = os.path.join(OUT, name)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        if hand_written:
            handle.write(compact(style))
        else:
            json.dump(style, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    os.replace(temporary, path)
    print("wrote", os.path.relpath(path))


# Relief from the DEMs the user registered (`basemap://terrain`, drawing nothing without one):
# one hillshade layer per look, over the land and the street landcover, under water, roads and
# labels. As in Apple's Maps, it is strongest at regional zooms and fades out towards the city:
# full through MapLibre zoom 10 (render --zoom 11), gone by 13 (render --zoom 14), where streets
# and buildings carry the map. The light comes from the north-west (335°, MapLibre's default).
TERRAIN_SOURCE = {"type": "raster-dem", "url": "basemap://terrain"}
TERRAIN_FULL_ZOOM, TERRAIN_GONE_ZOOM = 10, 13
HILLSHADE_PAINT = {
    # Warm brown shadows and soft white highlights on the paper-coloured land.
    "standard": {"exaggeration": 0.35, "shadow": "#5c4d3c", "highlight": "rgba(255, 255, 255, 0.5)", "accent": "rgba(92, 77, 60, 0.35)"},
    # Quieter: grey shadows, a lower exaggeration, so photos and tracks stay in front.
    "muted": {"exaggeration": 0.25, "shadow": "#6b6e73", "highlight": "rgba(255, 255, 255, 0.4)", "accent": "rgba(107, 110, 115, 0.25)"},
    # Night: dark shadows and the faintest highlights on the charcoal land.
    "dark": {"exaggeration": 0.4, "shadow": "#000000", "highlight": "rgba(255, 255, 255, 0.08)", "accent": "rgba(0, 0, 0, 0.4)"},
}


def hillshade(look):
    paint = HILLSHADE_PAINT[look]
    return {
        "id": "terrain-hillshade", "type": "hillshade", "source": "terrain", "maxzoom": TERRAIN_GONE_ZOOM,
        "paint": {
            "hillshade-exaggeration": ["interpolate", ["linear"], ["zoom"], TERRAIN_FULL_ZOOM, paint["exaggeration"], TERRAIN_GONE_ZOOM, 0],
            "hillshade-shadow-color": paint["shadow"],
            "hillshade-highlight-color": paint["highlight"],
            "hillshade-accent-color": paint["accent"],
        },
    }


# The street layers' first MapLibre zoom in the world looks (render --zoom 11).
STREETS_MINZOOM = 10
LEFT_OUT = {"background", "boundary", "place-town"}
STREETS_SOURCE = {"type": "vector", "url": "basemap://streets", "attribution": "© OpenStreetMap contributors"}


def with_streets(world, streets):
    """The world style `world` (a file of STYLES) with `streets`'s layers merged in."""
    with open(os.path.join(STYLES, world + ".json"), encoding="utf-8") as handle:
        style = json.load(handle)
    layers = [layer for layer in style["layers"] if not layer["id"].startswith("streets-") and layer["id"] != "terrain-hillshade"]
    areas, labels = [], []
    for layer in streets["layers"]:
        if layer["id"] in LEFT_OUT:
            continue
        merged = {"id": "streets-" + layer["id"]}
        for key, value in layer.items():
            if key != "id":
                merged[key] = value
        merged["source"] = "streets"
        merged["minzoom"] = max(STREETS_MINZOOM, layer.get("minzoom", 0))
        (labels if layer["type"] == "symbol" else areas).append(merged)
    # The relief goes over the street landcover (woods, fields, parks), under their water.
    covers = next(index for index, layer in enumerate(areas) if layer.get("source-layer") not in ("landcover", "landuse", "park"))
    areas = areas[:covers] + [hillshade(world)] + areas[covers:]
    ids = [layer["id"] for layer in layers]
    after_areas = max(ids.index(name) for name in ("land", "lakes", "rivers") if name in ids) + 1
    first_label = next((index for index, layer in enumerate(layers) if layer["type"] == "symbol"), len(layers))
    layers = layers[:after_areas] + areas + layers[after_areas:first_label] + labels + layers[first_label:]
    style["layers"] = layers
    style["sources"] = {key: value for key, value in style["sources"].items() if key not in ("streets", "terrain")}
    style["sources"]["streets"] = STREETS_SOURCE
    style["sources"]["terrain"] = TERRAIN_SOURCE
    save(style, world + ".json", hand_written=True)


with open(os.path.join(STYLES, "streets.json"), encoding="utf-8") as handle:
    standard_streets = json.load(handle)
dark_streets = variant("dark", dark, "dark")
muted_streets = variant("muted", muted, "muted")
with_streets("standard", standard_streets)
with_streets("muted", muted_streets)
with_streets("dark", dark_streets)
