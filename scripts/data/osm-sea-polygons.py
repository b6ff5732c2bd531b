#!/usr/bin/env python3
"""Makes sea polygons for a small bounding-box cut of OpenStreetMap data from its coastline ways.

Usage: osm-sea-polygons.py INPUT.osm.pbf OUTPUT.geojson

tilemaker's OpenMapTiles profile draws the sea from a coastline shapefile (osmdata's
water_polygons.shp, a download of the whole world); OpenStreetMap itself has the sea only as
natural=coastline ways, with the land on their left and the water on their right. This makes the
sea inside the extract's bounding box (its header's box) from those ways, offline:

1. each coastline way becomes the runs of its nodes present in the extract (a way leaving the
   box and coming back is two runs); touching runs are merged;
2. an open run's ends are extended straight to the nearest point of the box's edge (the extract
   was cut there, so the line really goes on outwards);
3. the box is split along the lines, and a face is sea when it lies on the right of the nearest
   coastline segment.

Writes a GeoJSON FeatureCollection of the sea's polygons (WGS 84, no properties) and prints their
count and share of the box. An extract without coastline gets an empty collection.
"""
import json
import sys

import osmium
import shapely
from shapely.geometry import LineString, MultiLineString, Point, box, mapping
from shapely.ops import linemerge, nearest_points, polygonize, unary_union


def coastline_runs(source):
    runs = []
    for way in osmium.FileProcessor(source, osmium.osm.NODE | osmium.osm.WAY).with_locations():
        if not way.is_way() or way.tags.get("natural") != "coastline":
            continue
        run = []
        for node in way.nodes:
            if node.location.valid():
                run.append((node.location.lon, node.location.lat))
            else:
                if len(run) >= 2:
                    runs.append(run)
                run = []
        if len(run) >= 2:
            runs.append(run)
    return runs


def side_of(point, lines):
    """+1 when point is on the right of the nearest segment of lines (water), -1 on the left."""
    best = None
    for line in lines:
        coords = list(line.coords)
        for a, b in zip(coords, coords[1:]):
            segment = LineString([a, b])
            distance = segment.distance(point)
            if best is None or distance < best[0]:
                best = (distance, a, b)
    _, a, b = best
    cross = (b[0] - a[0]) * (point.y - a[1]) - (b[1] - a[1]) * (point.x - a[0])
    return 1 if cross < 0 else -1


def main(source, target):
    reader = osmium.io.Reader(source, osmium.osm.osm_entity_bits.NOTHING)
    header_box = reader.header().box()
    reader.close()
    bounds = box(header_box.bottom_left.lon, header_box.bottom_left.lat,
                 header_box.top_right.lon, header_box.top_right.lat)

    runs = coastline_runs(source)
    features = []
    if runs:
        merged = linemerge(MultiLineString(runs))
        lines = list(merged.geoms) if hasattr(merged, "geoms") else [merged]
        extended = []
        for line in lines:
            coords = list(line.coords)
            if not line.is_closed:
                start = nearest_points(bounds.exterior, Point(coords[0]))[0]
                end = nearest_points(bounds.exterior, Point(coords[-1]))[0]
                coords = [(start.x, start.y)] + coords + [(end.x, end.y)]
            extended.append(LineString(coords))
        # The lines are clipped to the box, then noded together with its edge.
        noded = unary_union([bounds.exterior] + [line.intersection(bounds) for line in extended])
        for face in polygonize(noded):
            if not face.within(bounds.buffer(1e-9)) or face.area == 0:
                continue
            if side_of(face.representative_point(), extended) > 0:
                features.append(face)
    sea = unary_union(features) if features else None
    polygons = [] if sea is None else (list(sea.geoms) if hasattr(sea, "geoms") else [sea])
    polygons = [shapely.set_precision(p, 1e-7) for p in polygons]
    collection = {
        "type": "FeatureCollection",
        "features": [{"type": "Feature", "properties": {}, "geometry": mapping(p)} for p in polygons],
    }
    with open(target, "w") as out:
        json.dump(collection, out)
    share = sum(p.area for p in polygons) / bounds.area
    print("osm-sea-polygons: %d coastline runs, %d sea polygons covering %.1f%% of the box"
          % (len(runs), len(polygons), 100 * share))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: osm-sea-polygons.py INPUT.osm.pbf OUTPUT.geojson")
    main(sys.argv[1], sys.argv[2])
