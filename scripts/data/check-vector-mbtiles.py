#!/usr/bin/env python3
"""Checks a vector MBTiles file and prints what it holds.

Usage: check-vector-mbtiles.py FILE.mbtiles [--require-layers a,b,...]

Checks that the metadata has format pbf, a json with vector_layers, bounds, minzoom, maxzoom and
an attribution naming OpenStreetMap's contributors; that every tile is gzip-compressed and decodes
as a Mapbox Vector Tile (mapbox-vector-tile); prints the tiles per zoom, each zoom-14 tile's layers
with their feature counts, and a SHA-256 over every (z, x, y, tile_data) row in order, which two
builds share exactly when their tiles are identical, and one over the metadata. Exits 1 when a
check fails.
"""
import gzip
import hashlib
import json
import sqlite3
import sys

import mapbox_vector_tile


def main(path, required_layers):
    problems = []
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    metadata = dict(db.execute("SELECT name, value FROM metadata"))
    for key in ("name", "format", "bounds", "minzoom", "maxzoom", "json", "attribution"):
        print("metadata %-12s %s" % (key, (metadata.get(key) or "(missing)")[:100]))
        if key not in metadata:
            problems.append("metadata has no %s" % key)
    if metadata.get("format") != "pbf":
        problems.append("format is %r, not pbf" % metadata.get("format"))
    if "© OpenStreetMap contributors" not in (metadata.get("attribution") or ""):
        problems.append("the attribution does not carry '© OpenStreetMap contributors'")
    try:
        vector_layers = [layer["id"] for layer in json.loads(metadata.get("json", "{}"))["vector_layers"]]
        print("vector_layers", ", ".join(vector_layers))
    except (ValueError, KeyError, TypeError) as error:
        problems.append("json metadata has no vector_layers (%s)" % error)

    print("tiles per zoom:", ", ".join(
        "z%d %d" % row for row in db.execute("SELECT zoom_level, count(*) FROM tiles GROUP BY zoom_level ORDER BY zoom_level")))

    digest = hashlib.sha256()
    layers_seen = set()
    total = 0
    for z, x, tms_y, data in db.execute(
            "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY zoom_level, tile_column, tile_row"):
        total += 1
        digest.update(b"%d/%d/%d:" % (z, x, tms_y))
        digest.update(data)
        if data[:2] != b"\x1f\x8b":
            problems.append("tile %d/%d/%d is not gzip-compressed" % (z, x, tms_y))
            continue
        tile = mapbox_vector_tile.decode(gzip.decompress(data))
        layers_seen.update(tile)
        if z == 14:
            y = (1 << z) - 1 - tms_y
            print("z14 tile %d/%d/%d (xyz; %d bytes gzipped):" % (z, x, y, len(data)),
                  ", ".join("%s %d" % (name, len(layer["features"])) for name, layer in sorted(tile.items())))
    print("tiles: %d, all gzip-compressed: %s" % (total, "yes" if not any("gzip" in p for p in problems) else "no"))
    print("layers in the tiles:", ", ".join(sorted(layers_seen)))
    missing = [name for name in required_layers if name not in layers_seen]
    if missing:
        problems.append("no tile has the layers %s" % ", ".join(missing))
    print("tiles sha256:", digest.hexdigest())
    print("metadata sha256:", hashlib.sha256(json.dumps(sorted(metadata.items())).encode()).hexdigest())
    for problem in problems:
        print("problem:", problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    required = []
    if len(args) == 3 and args[1] == "--require-layers":
        required = [name for name in args[2].split(",") if name]
        args = args[:1]
    if len(args) != 1:
        sys.exit("usage: check-vector-mbtiles.py FILE.mbtiles [--require-layers a,b,...]")
    sys.exit(main(args[0], required))
