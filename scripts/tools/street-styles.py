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
rest of each world style is read from its file and kept as it is. Each street layer comes twice:
once for the OpenMapTiles schema and once, as `streets-protomaps-*` reading the source
`streets-protomaps` (`basemap://streets-protomaps`), for Protomaps' basemap schema (version 4),
translated by PROTOMAPS below: the OpenMapTiles layer's features are picked out of the Protomaps
layer holding them, and the OpenMapTiles properties the layer reads (`class`, `subclass`,
`brunnel`, `rank`...) are computed from Protomaps' `kind`, `kind_detail`, `is_tunnel`... so both
schemas draw one look. Run it after editing streets.json or a world style; a test checks every
output is current.

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
PROTOMAPS_SOURCE = {"type": "vector", "url": "basemap://streets-protomaps", "attribution": "© OpenStreetMap contributors"}


def get(name):
    return ["get", name]


def kind_in(*kinds):
    return ["in", get("kind"), ["literal", list(kinds)]]


def geometry(*types):
    """Geometry of these types, the multi forms too (MapLibre versions differ on which they report)."""
    return ["in", ["geometry-type"], ["literal", [name for kind in types for name in (kind, "Multi" + kind)]]]


def match(value, cases, default):
    expression = ["match", value]
    for keys, result in cases:
        expression += [keys if len(keys) > 1 else keys[0], result]
    return expression + [default]


BRUNNEL = ["case", ["to-boolean", get("is_tunnel")], "tunnel", ["to-boolean", get("is_bridge")], "bridge", ""]
ROAD_CLASS = ["match", get("kind"),
              "highway", "motorway",
              "major_road", match(get("kind_detail"), [
                  (["trunk", "trunk_link"], "trunk"), (["primary", "primary_link"], "primary"),
                  (["secondary", "secondary_link"], "secondary")], "tertiary"),
              "minor_road", match(get("kind_detail"), [(["service"], "service")], "minor"),
              "path", match(get("kind_detail"), [(["track"], "track")], "path"),
              "rail", match(get("kind_detail"), [
                  (["tram"], "tram"), (["light_rail", "subway", "monorail", "funicular", "narrow_gauge"], "transit")], "rail"),
              "aeroway", get("kind_detail"),
              ""]
LANDCOVER_CLASS = match(get("kind"), [
    (["forest", "wood"], "wood"), (["grass", "meadow", "scrub", "heath", "grassland"], "grass"), (["wetland"], "wetland"),
    (["sand", "beach"], "sand"), (["farmland", "orchard", "farmyard"], "farmland"), (["glacier"], "ice"),
    (["bare_rock", "barren"], "rock")], "grass")
LANDCOVER_KINDS = ["forest", "wood", "grass", "meadow", "scrub", "heath", "grassland", "wetland", "sand", "beach",
                   "farmland", "orchard", "farmyard", "glacier", "bare_rock", "barren"]
PARK_KINDS = ["park", "garden", "nature_reserve", "national_park", "protected_area", "village_green",
              "recreation_ground", "golf_course", "dog_park"]
LANDUSE_KINDS = ["residential", "commercial", "retail", "industrial", "garages", "railway", "cemetery", "hospital",
                 "school", "university", "college", "kindergarten", "library", "pitch", "stadium", "track",
                 "playground", "theme_park", "zoo", "military", "allotments", "pedestrian", "platform"]

# OpenMapTiles source layer -> (Protomaps source layer, the filter picking its features out,
# the OpenMapTiles properties computed from Protomaps' ones).
PROTOMAPS = {
    "landcover": ("landuse", kind_in(*LANDCOVER_KINDS), {"class": LANDCOVER_CLASS}),
    "landuse": ("landuse", kind_in(*LANDUSE_KINDS), {"class": get("kind")}),
    "park": ("landuse", kind_in(*PARK_KINDS), {"class": get("kind")}),
    "water": ("water", geometry("Polygon"), {"brunnel": BRUNNEL, "class": get("kind")}),
    "waterway": ("water", geometry("LineString"), {"brunnel": BRUNNEL, "class": get("kind")}),
    "aeroway": ("landuse", kind_in("runway", "taxiway", "apron", "aerodrome"), {"class": get("kind")}),
    "building": ("buildings", ["all", geometry("Polygon"), ["!=", get("kind"), "address"]], {}),
    "transportation": ("roads", geometry("LineString"), {"class": ROAD_CLASS, "subclass": get("kind_detail"), "brunnel": BRUNNEL}),
    "transportation_name": ("roads", ["all", geometry("LineString"), ["has", "name"]], {"class": ROAD_CLASS, "subclass": get("kind_detail")}),
    "water_name": ("water", ["has", "name"], {"class": get("kind")}),
    "housenumber": ("buildings", ["==", get("kind"), "address"], {"housenumber": get("addr_housenumber")}),
    "poi": ("pois", ["has", "name"], {
        "class": get("kind"), "name:latin": get("name"),
        # OpenMapTiles ranks POIs from 1 (most important); Protomaps suggests a first zoom.
        "rank": ["max", 1, ["*", 5, ["-", ["coalesce", get("min_zoom"), 15], 13]]]}),
    "place": ("places", ["in", get("kind"), ["literal", ["locality", "neighbourhood", "macrohood"]]], {"class": get("kind_detail")}),
    "boundary": ("boundaries", ["literal", True], {"admin_level": get("kind_detail")}),
}
# Aeroway lines (runways, taxiways) are roads in Protomaps' schema.
PROTOMAPS_AEROWAY_LINES = ("roads", ["==", get("kind"), "aeroway"], {"class": get("kind_detail")})


def legacy_to_expression(node):
    """A filter as an expression: legacy forms (["==", "class", "x"], ["in", "class", ...],
    "$type") turned into expressions, expression forms kept."""
    if not isinstance(node, list) or not node:
        return node
    op = node[0]
    if op in ("all", "any"):
        return [op] + [legacy_to_expression(child) for child in node[1:]]
    if op in ("has", "!has") and len(node) == 2 and isinstance(node[1], str):
        return ["has", node[1]] if op == "has" else ["!", ["has", node[1]]]
    if len(node) >= 2 and isinstance(node[1], str):
        key = ["geometry-type"] if node[1] == "$type" else get(node[1])
        if op in ("in", "!in"):
            test = ["in", key, ["literal", node[2:]]]
            return test if op == "in" else ["!", test]
        if op in ("==", "!=", "<", "<=", ">", ">=") and len(node) == 3:
            if node[1] == "$type":
                test = geometry(node[2])
                return test if op == "==" else ["!", test]
            return [op, key, node[2]]
    return node


def substitute(node, derived):
    """`node` with ["get", P] and ["has", P] of the properties in `derived` replaced by their
    Protomaps expressions, and {P} tokens in text renamed."""
    if isinstance(node, list):
        if len(node) == 2 and node[0] == "get" and node[1] in derived:
            return derived[node[1]]
        if len(node) == 2 and node[0] == "has" and isinstance(node[1], str) and node[1] in derived:
            return ["!=", derived[node[1]], None]
        return [substitute(item, derived) for item in node]
    if isinstance(node, dict):
        return {key: substitute(item, derived) for key, item in node.items()}
    if isinstance(node, str):
        for name, expression in derived.items():
            if expression[:1] == ["get"] and "{%s}" % name in node:
                node = node.replace("{%s}" % name, "{%s}" % expression[1])
        return node
    return node


def protomaps_twin(layer):
    """The layer drawing the same features from Protomaps' schema."""
    source_layer = layer["source-layer"]
    mapping = PROTOMAPS[source_layer]
    if layer["id"] == "aeroway-runway":
        mapping = PROTOMAPS_AEROWAY_LINES
    target, base, derived = mapping
    twin = {"id": layer["id"].replace("streets-", "streets-protomaps-", 1)}
    for key, value in layer.items():
        if key == "id":
            continue
        if key == "filter":
            continue
        twin[key] = substitute(value, derived)
    twin["source"] = "streets-protomaps"
    twin["source-layer"] = target
    own = substitute(legacy_to_expression(layer["filter"]), derived) if "filter" in layer else None
    parts = [part for part in (base, own) if part is not None and part != ["literal", True]]
    flattened = []
    for part in parts:
        flattened += part[1:] if part[0] == "all" else [part]
    if flattened:
        twin["filter"] = ["all"] + flattened if len(flattened) > 1 else flattened[0]
    ordered = {}
    for key in ("id", "type", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout", "paint"):
        if key in twin:
            ordered[key] = twin[key]
    ordered.update({key: value for key, value in twin.items() if key not in ordered})
    return ordered


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
        (labels if layer["type"] == "symbol" else areas).append(protomaps_twin(merged))
    # The relief goes over the street landcover (woods, fields, parks), under their water.
    covers = next(index for index, layer in enumerate(areas) if layer.get("source-layer") not in ("landcover", "landuse", "park"))
    areas = areas[:covers] + [hillshade(world)] + areas[covers:]
    ids = [layer["id"] for layer in layers]
    after_areas = max(ids.index(name) for name in ("land", "lakes", "rivers") if name in ids) + 1
    first_label = next((index for index, layer in enumerate(layers) if layer["type"] == "symbol"), len(layers))
    layers = layers[:after_areas] + areas + layers[after_areas:first_label] + labels + layers[first_label:]
    style["layers"] = layers
    style["sources"] = {key: value for key, value in style["sources"].items() if key not in ("streets", "streets-protomaps", "terrain")}
    style["sources"]["streets"] = STREETS_SOURCE
    style["sources"]["streets-protomaps"] = PROTOMAPS_SOURCE
    style["sources"]["terrain"] = TERRAIN_SOURCE
    save(style, world + ".json", hand_written=True)


with open(os.path.join(STYLES, "streets.json"), encoding="utf-8") as handle:
    standard_streets = json.load(handle)
dark_streets = variant("dark", dark, "dark")
muted_streets = variant("muted", muted, "muted")
with_streets("standard", standard_streets)
with_streets("muted", muted_streets)
with_streets("dark", dark_streets)
