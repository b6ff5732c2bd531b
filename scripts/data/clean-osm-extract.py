#!/usr/bin/env python3
"""Makes a bounding-box cut of OpenStreetMap data referentially complete, for tilemaker.

Usage: clean-osm-extract.py INPUT.osm.pbf OUTPUT.osm.pbf

An extract cut at a bounding box keeps the nodes inside the box, but the ways and relations that
cross its edge still list the nodes and members outside it, and tilemaker stops at the first
("Could not find node with id ..."). This writes a copy in which every reference resolves:

- nodes are kept as they are;
- a way whose nodes are all present is kept as it is. An open way that lost nodes keeps its
  longest run of consecutive present nodes (the part inside the box, for a way that crosses the
  edge once). A closed way (an area) that lost nodes is kept when its present nodes are one run
  around the ring (it left the box once): the ring is closed again along the box's edge, from the
  run's last node to the nearest point of the edge, along the edge (round its corners) to the
  point nearest the run's first node, and back to it, going the way round that gives the smaller
  valid polygon (the area's part inside the box, for an area mostly outside it). The new nodes on
  the edge get ids above every id in the file. Ways left with fewer than two nodes, or rings that
  cannot be closed into a valid polygon, are dropped;
- a relation keeps its members that are present (dropped ways and relations, and nodes outside
  the box, are removed); a multipolygon relation whose rings changed (a member way dropped or
  shortened, but not one re-closed above) is dropped, since its rings could not be assembled;
  relations left without members are dropped, and so are members naming dropped relations.

The header's bounding box is copied. Counts of what changed are printed.
"""
import sys

import osmium
from shapely.geometry import LineString, Point, Polygon, box as make_box
import osmium.version


class BoxEdge:
    """Closes rings cut by the box along the box's edge, making the nodes that takes."""

    def __init__(self, box, nodes, first_new_id):
        self.west, self.south = box.bottom_left.lon, box.bottom_left.lat
        self.east, self.north = box.top_right.lon, box.top_right.lat
        self.outline = make_box(self.west, self.south, self.east, self.north).exterior
        self.perimeter = self.outline.length
        self.nodes = nodes
        self.next_id = first_new_id
        self.made = {}  # (lon, lat) -> id, so a point of the edge is one node
        self.new_nodes = []  # (id, (lon, lat)) in the order made

    def position(self, location):
        """The point of the edge nearest location, and its distance along the outline."""
        along = self.outline.project(Point(location))
        point = self.outline.interpolate(along)
        return (round(point.x, 7), round(point.y, 7)), along

    def path(self, start, end, forwards):
        """The outline's corners passed going from distance start to end, forwards or backwards."""
        corners = list(self.outline.coords)[:-1]
        distances = [self.outline.project(Point(c)) for c in corners]
        length = (end - start) % self.perimeter if forwards else (start - end) % self.perimeter
        passed = []
        for corner, distance in zip(corners, distances):
            offset = (distance - start) % self.perimeter if forwards else (start - distance) % self.perimeter
            if 0 < offset < length:
                passed.append((offset, corner))
        return [corner for _, corner in sorted(passed)]

    def close(self, run):
        """The points (as new node ids) that close run along the edge, or None."""
        first, last = self.nodes[run[0]], self.nodes[run[-1]]
        last_edge, last_along = self.position(last)
        first_edge, first_along = self.position(first)
        best = None
        for forwards in (True, False):
            points = [last_edge] + self.path(last_along, first_along, forwards) + [first_edge]
            ring = [self.nodes[r] for r in run] + points + [first]
            try:
                polygon = Polygon(ring)
            except ValueError:
                continue
            if polygon.is_valid and polygon.area > 0 and (best is None or polygon.area < best[0]):
                best = (polygon.area, points)
        if best is None:
            return None
        ids = []
        for point in best[1]:
            if point == first or point == last:
                continue
            if point not in self.made:
                self.made[point] = self.next_id
                self.new_nodes.append((self.next_id, point))
                self.next_id += 1
            if not ids or ids[-1] != self.made[point]:
                ids.append(self.made[point])
        return ids


def main(source, target):
    reader = osmium.io.Reader(source, osmium.osm.osm_entity_bits.NOTHING)
    box = reader.header().box()
    reader.close()

    # First pass: which nodes exist and where, and each way's and relation's references.
    nodes = {}
    ways = {}
    relations = {}
    for obj in osmium.FileProcessor(source):
        if obj.is_node():
            nodes[obj.id] = (obj.location.lon, obj.location.lat)
        elif obj.is_way():
            ways[obj.id] = [n.ref for n in obj.nodes]
        elif obj.is_relation():
            relations[obj.id] = (obj.tags.get("type"), [(m.type, m.ref) for m in obj.members])

    edge = BoxEdge(box, nodes, max(list(nodes) + list(ways) + list(relations) + [0]) + 1)

    # Ways: what each becomes (None: dropped), and whether its geometry changed.
    new_ways = {}
    changed = {}  # way id -> "kept" (unchanged), "closed" (re-closed ring), "cut" (shortened)
    stats = {"ways kept whole": 0, "open ways shortened": 0, "closed ways re-closed": 0, "ways dropped": 0}
    for way_id, refs in ways.items():
        present = [r in nodes for r in refs]
        if all(present):
            new_ways[way_id] = refs
            changed[way_id] = "kept"
            stats["ways kept whole"] += 1
            continue
        closed = len(refs) > 3 and refs[0] == refs[-1]
        if closed:
            ring = refs[:-1]
            flags = present[:-1]
            # One run around the ring: exactly one place where a missing node follows a present one.
            starts = [i for i in range(len(ring)) if flags[i] and not flags[i - 1]]
            if len(starts) == 1:
                s = starts[0]
                run = []
                i = s
                while flags[i % len(ring)] and len(run) < len(ring):
                    run.append(ring[i % len(ring)])
                    i += 1
                closing = edge.close(run) if len(set(run)) >= 2 else None
                if closing is not None:
                    new_ways[way_id] = run + closing + [run[0]]
                    changed[way_id] = "closed"
                    stats["closed ways re-closed"] += 1
                    continue
        else:
            best, run = [], []
            for ref, ok in zip(refs, present):
                if ok:
                    run.append(ref)
                    if len(run) > len(best):
                        best = list(run)
                else:
                    run = []
            if len(best) >= 2:
                new_ways[way_id] = best
                changed[way_id] = "cut"
                stats["open ways shortened"] += 1
                continue
        new_ways[way_id] = None
        changed[way_id] = "dropped"
        stats["ways dropped"] += 1

    # Relations: drop missing members; repeat until no relation drops because of another.
    kept_relations = {}
    for rel_id, (rel_type, members) in relations.items():
        kept_relations[rel_id] = True
    stats.update({"relations kept whole": 0, "relations trimmed": 0, "multipolygons dropped": 0, "relations dropped empty": 0})

    def member_present(kind, ref):
        if kind == "n":
            return ref in nodes
        if kind == "w":
            return new_ways.get(ref) is not None
        return kept_relations.get(ref, False)

    for rel_id, (rel_type, members) in relations.items():
        if rel_type == "multipolygon" and any(
            kind == "w" and changed.get(ref, "dropped") not in ("kept", "closed") for kind, ref in members
        ):
            kept_relations[rel_id] = False
            stats["multipolygons dropped"] += 1
    while True:
        dropped_any = False
        for rel_id, (rel_type, members) in relations.items():
            if kept_relations[rel_id] and not any(member_present(k, r) for k, r in members):
                kept_relations[rel_id] = False
                stats["relations dropped empty"] += 1
                dropped_any = True
        if not dropped_any:
            break

    header = osmium.io.Header()
    header.add_box(box)
    header.set("generator", "mapwright clean-osm-extract.py (pyosmium %s)" % osmium.version.pyosmium_release)
    writer = osmium.SimpleWriter(target, header=header, overwrite=True)
    try:
        new_nodes_written = False
        for obj in osmium.FileProcessor(source):
            if obj.is_node():
                writer.add_node(obj)
                continue
            if not new_nodes_written:
                # The nodes made on the box's edge, after the file's own (their ids are larger).
                for node_id, (lon, lat) in edge.new_nodes:
                    writer.add_node(osmium.osm.mutable.Node(id=node_id, location=osmium.osm.Location(lon, lat),
                                                            version=1, visible=True))
                new_nodes_written = True
            if obj.is_way():
                refs = new_ways[obj.id]
                if refs is None:
                    continue
                if changed[obj.id] == "kept":
                    writer.add_way(obj)
                else:
                    writer.add_way(obj.replace(nodes=refs))
            elif obj.is_relation():
                if not kept_relations[obj.id]:
                    continue
                members = [(m.type, m.ref, m.role) for m in obj.members]
                kept = [m for m in members if member_present(m[0], m[1])]
                if len(kept) == len(members):
                    stats["relations kept whole"] += 1
                    writer.add_relation(obj)
                else:
                    stats["relations trimmed"] += 1
                    writer.add_relation(obj.replace(members=kept))
    finally:
        writer.close()

    print("clean-osm-extract: %d nodes (%d added on the box's edge); %s" % (len(nodes), len(edge.new_nodes), ", ".join("%s %d" % kv for kv in stats.items())))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: clean-osm-extract.py INPUT.osm.pbf OUTPUT.osm.pbf")
    main(sys.argv[1], sys.argv[2])
