#!/usr/bin/env python3
"""Writes Samples/helsinki/walk.gpx: a morning walk through central Helsinki past Signe Brander's
photos of Samples/helsinki/photos.csv, routed along OpenStreetMap's streets and footpaths.

The walk visits her photos in a fixed order (Kaisaniemi Park first, Svenska Teatern last); each
leg is the shortest path on the walkable ways (every `highway` but motorways and trunks, no
`foot=no`) of the extract, from the way node nearest one photo to the node nearest the next. One
point per node, timed at 1.3 m/s from 07:30 UTC on 12 June 2024 with a minute at each photo.

Needs pyosmium and the referentially complete Helsinki extract that scripts/data/helsinki-sample.sh
makes on the way (step 2, clean-osm-extract.py's output).

Usage: scripts/data/helsinki-walk.py HELSINKI_CLEAN.osm.pbf [OUT.gpx]
"""
import csv
import datetime
import heapq
import math
import os
import sys

import osmium

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
EXTRACT = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "Samples", "helsinki", "walk.gpx")
ORDER = ["Kaisaniemi Park", "Oodi Central Library", "Kiasma", "Ateneum", "Joulukatu Aleksanterinkadulla",
         "Senate Square", "Helsinki Cathedral", "Market Square", "Havis Amanda", "Espa Stage",
         "Sommarkväll på Norra esplanaden", "Svenska Teatern"]
START = datetime.datetime(2024, 6, 12, 7, 30, tzinfo=datetime.timezone.utc)


def metres(a, b):
    lat = math.radians((a[0] + b[0]) / 2)
    return 6371008.8 * math.hypot(math.radians(b[0] - a[0]), math.radians(b[1] - a[1]) * math.cos(lat))


class Ways(osmium.SimpleHandler):
    def __init__(self):
        super().__init__()
        self.edges = {}
        self.nodes = {}

    def way(self, way):
        highway = way.tags.get("highway")
        if highway is None or highway in ("motorway", "trunk", "motorway_link", "trunk_link", "construction", "proposed"):
            return
        if way.tags.get("foot") == "no" or way.tags.get("access") == "private":
            return
        refs = [(node.ref, (node.lat, node.lon)) for node in way.nodes if node.location.valid()]
        for (a, pa), (b, pb) in zip(refs, refs[1:]):
            self.nodes[a], self.nodes[b] = pa, pb
            d = metres(pa, pb)
            self.edges.setdefault(a, []).append((b, d))
            self.edges.setdefault(b, []).append((a, d))


def route(graph, start, end):
    best, previous, queue = {start: 0.0}, {}, [(0.0, start)]
    while queue:
        distance, node = heapq.heappop(queue)
        if node == end:
            break
        if distance > best[node]:
            continue
        for neighbour, step in graph.edges.get(node, []):
            if distance + step < best.get(neighbour, math.inf):
                best[neighbour] = distance + step
                previous[neighbour] = node
                heapq.heappush(queue, (distance + step, neighbour))
    path = [end]
    while path[-1] != start:
        path.append(previous[path[-1]])
    return path[::-1]


def main():
    graph = Ways()
    graph.apply_file(EXTRACT, locations=True)
    with open(os.path.join(ROOT, "Samples", "helsinki", "photos.csv"), encoding="utf-8") as handle:
        photos = {row["title"]: (float(row["latitude"]), float(row["longitude"])) for row in csv.DictReader(handle)}
    # Nodes joined to the network (the largest component would be stricter; every photo is on a street).
    stops = [min(graph.edges, key=lambda node: metres(graph.nodes[node], photos[title])) for title in ORDER]
    points, time = [], START
    for index, (start, end) in enumerate(zip(stops, stops[1:])):
        leg = route(graph, start, end)
        if index == 0:
            points.append((graph.nodes[leg[0]], time))
        time += datetime.timedelta(seconds=60)  # a minute at the photo
        for a, b in zip(leg, leg[1:]):
            time += datetime.timedelta(seconds=metres(graph.nodes[a], graph.nodes[b]) / 1.3)
            points.append((graph.nodes[b], time))
    length = sum(metres(a[0], b[0]) for a, b in zip(points, points[1:]))
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<gpx version="1.1" creator="Mapwright scripts/data/helsinki-walk.py" xmlns="http://www.topografix.com/GPX/1/1">',
        "  <metadata><name>A morning walk in central Helsinki</name><time>%s</time></metadata>" % START.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "  <trk>",
        "    <name>A morning walk in central Helsinki</name>",
        "    <type>walking</type>",
        "    <trkseg>",
    ]
    for (lat, lon), moment in points:
        lines.append('      <trkpt lat="%.6f" lon="%.6f"><time>%s</time></trkpt>' % (lat, lon, moment.strftime("%Y-%m-%dT%H:%M:%SZ")))
    lines += ["    </trkseg>", "  </trk>", "</gpx>", ""]
    with open(OUT + ".partial", "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
    os.replace(OUT + ".partial", OUT)
    print("wrote %s: %d points, %.0f m, %s" % (os.path.relpath(OUT), len(points), length, time - START))


main()
