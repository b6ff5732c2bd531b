#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets: scripts/fuzz/corpus/<Target>/.

Seeds are small real inputs, each under 50 KB: files from Samples/, Styles/ and
Tests/Fixtures/bad/ copied as they are, tiles taken out of Samples/helsinki/helsinki.mbtiles,
and inputs written here byte by byte where the checkout has none (WKB blobs, PMTiles
archives, PNGs of every colour type, GeoJSON and GPX documents, CSV quoting), and JPEGs
(progressive, grayscale, 4:4:4) made by libjpeg-turbo through ctypes.

The corpus is committed; run this again only to change it:

    python3 scripts/fuzz/make-corpus.py
"""

import ctypes
import ctypes.util
import gzip
import os
import re
import sqlite3
import struct
import zlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "scripts", "fuzz", "corpus")
BAD = os.path.join(ROOT, "Tests", "Fixtures", "bad")
LIMIT = 50 * 1024


def write(target, name, data):
    assert len(data) < LIMIT, f"{target}/{name} is {len(data)} bytes"
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as file:
        file.write(data)


def copy(target, source, name=None):
    with open(os.path.join(ROOT, source), "rb") as file:
        write(target, name or os.path.basename(source), file.read())


def gzipped(data):
    return gzip.compress(data, mtime=0)


# MARK: - Photos: EXIF and CSV

for photo in ["ansel-adams/el-capitan.jpg", "dorothea-lange/golden-gate.jpg", "li-ming/great-wall.jpg"]:
    copy("FuzzEXIF", os.path.join("Samples", "photos", photo))
for name in ["exif-gps-absurd-count.jpg", "exif-gps-wrong-type.jpg", "exif-ifd-offset-past-end.jpg",
             "exif-tiff-bad-byte-order.jpg", "exif-no-gps.jpg"]:
    copy("FuzzEXIF", os.path.join("Tests", "Fixtures", "bad", name))

copy("FuzzCSV", "Samples/helsinki/photos.csv")
copy("FuzzCSV", "Tests/Fixtures/bad/csv-unbalanced-quote.csv")
write("FuzzCSV", "quoted.csv", (
    'Latitude,LONGITUDE,title,subtitle,photographer,image,thumbnail,extra\r\n'
    '37.7459,-119.5332,Half Dome,"Moonrise, ""winter""",Ansel Adams,photos/half-dome.jpg,,x\r\n'
    '\r\n'
    '-33.8568,151.2153,"Opera\nHouse",,Li Ming,/tmp/opera.jpg,thumbs/opera.jpg,\r\n'
    ',,no place,,,,,\r\n'
    '0,0,null island,,,,,\r\n'
    '60.1699,24.9384,Helsinki,,,,,\n').encode())

# MARK: - GPX and GeoJSON

copy("FuzzGPX", "Samples/track.gpx")
copy("FuzzGPX", "Tests/Fixtures/bad/gpx-missing-lat.gpx")
write("FuzzGPX", "all-kinds.gpx", b"""<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Mapwright" xmlns="http://www.topografix.com/GPX/1/1">
  <metadata><name>All kinds</name></metadata>
  <wpt lat="60.1699" lon="24.9384"><ele>12.5</ele><time>2024-05-01T10:00:00Z</time><name>Start &amp; end</name></wpt>
  <rte><name>Route</name><rtept lat="60.17" lon="24.94"/><rtept lat="60.18" lon="24.95"><ele>-3</ele></rtept></rte>
  <trk><name><![CDATA[Walk]]></name>
    <trkseg><trkpt lat="60.1" lon="24.9"><time>2024-05-01T10:00:00.5+02:00</time></trkpt><trkpt lat="60.2" lon="25.0"/></trkseg>
    <trkseg><trkpt lat="-90" lon="180"/></trkseg>
  </trk>
  <extensions><x:any xmlns:x="urn:x">text</x:any></extensions>
</gpx>
""")

# A ring that does not end where it starts (closed when read, as MapLibre reads it).
write("FuzzGeoJSON", "geojson-unclosed-ring.geojson", b'{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[1, 1], [3, 4], [5, 1]]]}}')
write("FuzzGeoJSON", "collection.geojson", b"""{"type": "FeatureCollection", "features": [
 {"type": "Feature", "id": 1, "properties": {"name": "point", "n": 1.5e3, "ok": true, "none": null, "list": [1, "a"]},
  "geometry": {"type": "Point", "coordinates": [24.94, 60.17, 12]}},
 {"type": "Feature", "id": "line", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [10, 10], [20, -5]]}},
 {"type": "Feature", "properties": null, "geometry": {"type": "Polygon", "coordinates": [
   [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]], [[2, 2], [4, 2], [4, 4], [2, 2]]]}},
 {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPoint", "coordinates": [[1, 2], [3, 4]]}},
 {"type": "Feature", "properties": {}, "geometry": {"type": "MultiLineString", "coordinates": [[[170, 0], [-170, 5]], [[1, 1], [2, 2]]]}},
 {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [[[[-180, -85], [180, -85], [180, 85], [-180, -85]]]]}},
 {"type": "Feature", "properties": {}, "geometry": {"type": "GeometryCollection", "geometries": [
   {"type": "Point", "coordinates": [0, 0]}, {"type": "LineString", "coordinates": [[0, 0], [1e-9, -1e-9]]}]}},
 {"type": "Feature", "properties": {}, "geometry": null}
]}
""")
write("FuzzGeoJSON", "feature.geojson",
      b'{"type":"Feature","bbox":[0,0,1,1],"properties":{"title":"\\u00e9t\\u00e9 \\ud83d\\udcf7"},'
      b'"geometry":{"type":"LineString","coordinates":[[0.5,0.5],[0.75,0.25]]}}')
write("FuzzGeoJSON", "geometry.geojson", b'{"type":"Polygon","coordinates":[[[-10,-10],[10,-10],[10,10],[-10,-10]]]}')

# MARK: - WKB and GeoPackage geometry blobs


def wkb(kind, body, big=False, dims=""):
    code = kind + {"": 0, "Z": 1000, "M": 2000, "ZM": 3000}[dims]
    return (b"\x00" + struct.pack(">I", code) if big else b"\x01" + struct.pack("<I", code)) + body


def doubles(values, big=False):
    return struct.pack((">" if big else "<") + "d" * len(values), *values)


def count(n, big=False):
    return struct.pack(">I" if big else "<I", n)


def gp_header(srs=4326, envelope=None, empty=False, little=True):
    flags = (1 if little else 0) | (0b10 if envelope else 0) | (0b1_0000 if empty else 0)
    head = b"GP\x00" + bytes([flags]) + struct.pack("<i" if little else ">i", srs)
    if envelope:
        head += struct.pack("<4d" if little else ">4d", *envelope)
    return head


point = wkb(1, doubles([24.94, 60.17]))
line = wkb(2, count(3) + doubles([0, 0, 1, 1, 2, 0]))
ring = [0, 0, 4, 0, 4, 4, 0, 4, 0, 0]
polygon = wkb(3, count(1) + count(5) + doubles(ring))
write("FuzzWKB", "point.wkb", point)
write("FuzzWKB", "point-z-big-endian.wkb", wkb(1, doubles([1, 2, 3], big=True), big=True, dims="Z"))
write("FuzzWKB", "linestring-zm.wkb", wkb(2, count(2) + doubles([0, 0, 1, 2, 5, 5, 3, 4]), dims="ZM"))
write("FuzzWKB", "multipolygon.wkb", wkb(6, count(2) + polygon + polygon))
write("FuzzWKB", "collection-mixed-order.wkb",
      wkb(7, count(3, big=True) + point + line + wkb(4, count(1, big=True) + wkb(1, doubles([5, 6], big=True), big=True), big=True), big=True))
write("FuzzWKB", "ewkb-srid.wkb", b"\x01" + struct.pack("<II", 0x2000_0001, 4326) + doubles([1, 2]))
write("FuzzWKB", "gpkg-envelope.gpkgblob", gp_header(envelope=[0, 4, 0, 4]) + polygon)
write("FuzzWKB", "gpkg-big-endian.gpkgblob", gp_header(little=False) + wkb(5, count(1) + line))
write("FuzzWKB", "gpkg-empty.gpkgblob", gp_header(empty=True) + wkb(1, doubles([float("nan"), float("nan")])))

# MARK: - PNG and JPEG


def png_chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def png(width, height, depth, color, raw_rows, interlace=0, extra=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, interlace)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + extra
            + png_chunk(b"IDAT", zlib.compress(raw_rows, 9)) + png_chunk(b"IEND", b""))


copy("FuzzPNG", "Tests/Fixtures/good/small.png")
copy("FuzzPNG", "Tests/Fixtures/bad/png-idat-garbage.png")
write("FuzzPNG", "palette-trns.png", png(4, 2, 8, 3, b"\x00\x00\x01\x02\x00\x00\x01\x02\x00\x00",
                                         extra=png_chunk(b"PLTE", b"\xff\x00\x00\x00\xff\x00\x00\x00\xff") + png_chunk(b"tRNS", b"\x80")))
write("FuzzPNG", "gray-16.png", png(2, 2, 16, 0, b"\x00\x00\x00\xff\xff\x01\x12\x34\x56\x78"))
write("FuzzPNG", "gray-1.png", png(9, 2, 1, 0, b"\x00\xaa\x80\x00\x55\x00"))
write("FuzzPNG", "gray-alpha.png", png(2, 1, 8, 4, b"\x00\x10\x20\x30\x40"))
write("FuzzPNG", "rgb-sub-filter.png", png(3, 3, 8, 2, b"".join(b"\x01" + bytes(range(y * 9, y * 9 + 9)) for y in range(3))))
# Adam7 rows for a 3x3 RGBA image: passes 1, 4 (x=2), 5 (y=2), 6 (x=1, rows 0 and 2), 7 (row 1).
adam7 = b"".join([b"\x00" + b"\x11" * 4, b"\x00" + b"\x22" * 4, b"\x00" + b"\x33" * 8,
                  b"\x00" + b"\x44" * 4, b"\x00" + b"\x44" * 4, b"\x00" + b"\x55" * 12])
write("FuzzPNG", "rgba-adam7.png", png(3, 3, 8, 6, adam7, interlace=1))

for photo in ["ansel-adams/el-capitan.jpg", "li-ming/great-wall.jpg"]:
    copy("FuzzJPEG", os.path.join("Samples", "photos", photo))
copy("FuzzJPEG", "Tests/Fixtures/bad/jpeg-truncated-half.jpg")


def turbojpeg(width, height, subsampling, flags, pixels):
    """JPEG bytes from libjpeg-turbo (through ctypes), or None when it cannot be loaded."""
    try:
        library = ctypes.CDLL(ctypes.util.find_library("turbojpeg") or "libturbojpeg.so.0")
    except OSError:
        return None
    library.tjInitCompress.restype = ctypes.c_void_p
    library.tjCompress2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                    ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_ulong),
                                    ctypes.c_int, ctypes.c_int, ctypes.c_int]
    library.tjFree.argtypes = [ctypes.c_void_p]
    library.tjDestroy.argtypes = [ctypes.c_void_p]
    handle = library.tjInitCompress()
    output, size = ctypes.c_void_p(), ctypes.c_ulong(0)
    # TJPF_RGB is 0; quality 75.
    status = library.tjCompress2(handle, pixels, width, 0, height, 0, ctypes.byref(output), ctypes.byref(size),
                                 subsampling, 75, flags)
    data = ctypes.string_at(output, size.value) if status == 0 else None
    library.tjFree(output)
    library.tjDestroy(handle)
    return data


gradient = bytes((x * 8 + y * 3 + channel * 60) % 256 for y in range(24) for x in range(32) for channel in range(3))
# TJSAMP_444 0, TJSAMP_420 2, TJSAMP_GRAY 3; TJFLAG_PROGRESSIVE 16384.
for name, subsampling, flags in [("progressive-420.jpg", 2, 16384), ("gray.jpg", 3, 0), ("baseline-444.jpg", 0, 0)]:
    data = turbojpeg(32, 24, subsampling, flags, gradient)
    if data:
        write("FuzzJPEG", name, data)

# MARK: - Styles

for name in ["standard.json", "satellite.json", "streets.json"]:
    copy("FuzzStyle", os.path.join("Styles", name))
copy("FuzzStyle", "Tests/Fixtures/bad/style-unknown-source.json")

# MARK: - Vector tiles

with sqlite3.connect(os.path.join(ROOT, "Samples", "helsinki", "helsinki.mbtiles")) as database:
    rows = database.execute(
        "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles WHERE length(tile_data) < ? "
        "ORDER BY zoom_level", (LIMIT,)).fetchall()
picked = [rows[0], rows[len(rows) // 2], rows[-1]]
for zoom, column, row, data in picked:
    write("FuzzMVT", f"helsinki-{zoom}-{column}-{row}.mvt.gz", data)
zoom, column, row, data = picked[1]
raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
write("FuzzMVT", f"helsinki-{zoom}-{column}-{row}.mvt", raw)
write("FuzzMVT", f"helsinki-{zoom}-{column}-{row}.mvt.zlib", zlib.compress(raw))

# MARK: - PMTiles


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def directory(entries):
    """entries: (tile id, offset, length, run length); run length 0 is a leaf directory."""
    out = varint(len(entries))
    previous = 0
    for tile_id, _, _, _ in entries:
        out += varint(tile_id - previous)
        previous = tile_id
    out += b"".join(varint(run) for _, _, _, run in entries)
    out += b"".join(varint(length) for _, _, length, _ in entries)
    next_offset = None
    for _, offset, length, _ in entries:
        out += varint(0 if offset == next_offset else offset + 1)
        next_offset = offset + length
    return out


def pmtiles(root, metadata, leaves, tiles, compression):
    squash = gzipped if compression == 2 else (lambda data: data)
    root, metadata, leaves = squash(root), squash(metadata), leaves
    offsets = [127, 127 + len(root), 127 + len(root) + len(metadata), 127 + len(root) + len(metadata) + len(leaves)]
    header = b"PMTiles\x03" + struct.pack(
        "<QQQQQQQQQQQ", offsets[0], len(root), offsets[1], len(metadata), offsets[2], len(leaves), offsets[3],
        len(tiles), 5, 5, 4)
    header += bytes([1, compression, 2, 1, 0, 3]) + struct.pack("<iiii", -1800000000, -850000000, 1800000000, 850000000)
    header += bytes([1]) + struct.pack("<ii", 0, 0)
    assert len(header) == 127
    return header + root + metadata + leaves + tiles


tile = gzipped(b"\x1a\x00")  # an empty layer list is still a vector tile
tiles = tile + gzipped(b"x" * 5)
metadata = b'{"name":"fuzz","vector_layers":[{"id":"water","fields":{}}],"bounds":[-180,-85,180,85]}'
flat = directory([(0, 0, len(tile), 1), (1, len(tile), len(tiles) - len(tile), 4)])
write("FuzzPMTiles", "flat-gzip.pmtiles", pmtiles(flat, metadata, b"", tiles, 2))
write("FuzzPMTiles", "flat-none.pmtiles", pmtiles(flat, metadata, b"", tiles, 1))
leaf_a = directory([(0, 0, len(tile), 1)])
leaf_b = directory([(1, len(tile), len(tiles) - len(tile), 2), (3, len(tile), len(tiles) - len(tile), 2)])
root = directory([(0, 0, len(leaf_a), 0), (1, len(leaf_a), len(leaf_b), 0)])
write("FuzzPMTiles", "leaves-none.pmtiles", pmtiles(root, b"", leaf_a + leaf_b, tiles, 1))
gzip_a, gzip_b = gzipped(leaf_a), gzipped(leaf_b)
root = directory([(0, 0, len(gzip_a), 0), (1, len(gzip_a), len(gzip_b), 0)])
write("FuzzPMTiles", "leaves-gzip.pmtiles", pmtiles(root, metadata, gzip_a + gzip_b, tiles, 2))
copy("FuzzPMTiles", "Tests/Fixtures/bad/pmtiles-corrupt-directory.pmtiles")

# MARK: - Dictionaries (libFuzzer's -dict=): tokens the mutator inserts whole

DICTIONARIES = os.path.join(ROOT, "scripts", "fuzz", "dictionaries")
JSON_TOKENS = ["{", "}", "[", "]", ":", ",", '""', "null", "true", "false", "-0", "1e308", "-1e-308", "0.5",
               "12345678901234567890", '"\\u0000"', '"\\ud83d\\udcf7"', '"\\ud800"', '"\\\\"']


def write_dictionary(target, tokens):
    os.makedirs(DICTIONARIES, exist_ok=True)
    lines = [f"# {target}: made by scripts/fuzz/make-corpus.py"]
    for token in dict.fromkeys(tokens):
        escaped = "".join(ch if 0x20 <= ord(ch) < 0x7F and ch not in '"\\' else
                          ("\\" + ch if ch in '"\\' else f"\\x{ord(ch):02x}") for ch in token)
        lines.append(f'"{escaped}"')
    with open(os.path.join(DICTIONARIES, f"{target}.dict"), "w") as file:
        file.write("\n".join(lines) + "\n")


def quoted_words(folder):
    """The string literals of a module's sources that look like keys or keywords: `"line-width"`."""
    words = set()
    for directory, _, names in os.walk(os.path.join(ROOT, "Sources", folder)):
        for name in names:
            if name.endswith(".swift"):
                with open(os.path.join(directory, name), encoding="utf-8") as file:
                    words.update(re.findall(r'"([a-z][a-z0-9]*(?:[-:_][a-z0-9]+)*)"', file.read()))
    return sorted(words)


write_dictionary("FuzzStyle", JSON_TOKENS + [f'"{word}"' for word in quoted_words("MapStyle")] + [
    '"#ff0000"', '"rgba(1, 2, 3, 0.5)"', '"hsl(120, 50%, 50%)"', '["get", "name"]', '["zoom"]', '"{name}"'])
write_dictionary("FuzzGeoJSON", JSON_TOKENS + [f'"{word}"' for word in [
    "type", "features", "feature", "geometry", "geometries", "coordinates", "properties", "id", "bbox",
    "FeatureCollection", "Feature", "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon",
    "MultiPolygon", "GeometryCollection"]] + ["[0, 0]", "[[0, 0], [1, 1]]", "[[[0, 0], [1, 0], [1, 1], [0, 0]]]",
                                              "180", "-180", "90", "-90"])
write_dictionary("FuzzGPX", ["<?xml version=\"1.0\"?>", "<!DOCTYPE", "<![CDATA[", "]]>", "<!--", "-->", "/>", "</",
                             "&amp;", "&lt;", "&#x41;", "&#65;", "xmlns=\"http://www.topografix.com/GPX/1/1\"",
                             "version=\"1.1\"", "encoding=\"UTF-16\""] + [
    f"<{name}" for name in ["gpx", "metadata", "wpt", "rte", "rtept", "trk", "trkseg", "trkpt", "ele", "time",
                            "name", "desc", "extensions"]] + [
    "lat=\"60.17\"", "lon=\"24.94\"", "lat=\"-90\"", "lon=\"180.0\"", "2024-05-01T10:00:00Z", "+02:00", ".123"])

# FuzzRequestHead: request heads as serve's clients send them, odd ones and hostile ones, one or
# several pipelined per seed.
REQUESTS = {
    "plain-get": b"GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\n\r\n",
    "browser": b"GET /styles/standard/256/3/4/2.png HTTP/1.1\r\nHost: localhost\r\nUser-Agent: Mozilla/5.0\r\n"
               b"Accept: image/avif,image/webp,*/*\r\nAccept-Encoding: gzip, deflate, br\r\nConnection: keep-alive\r\n"
               b"Origin: https://example.org\r\nIf-None-Match: \"abc\", W/\"def\"\r\nSec-Fetch-Dest: image\r\n\r\n",
    "pipelined": b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\nHEAD /c HTTP/1.1\r\nHost: x\r\n\r\n",
    "head-http10": b"HEAD /health HTTP/1.0\r\n\r\nGET /tilesets/a.json HTTP/1.1\r\nConnection: close\r\n\r\n",
    "absolute-form": b"GET http://127.0.0.1:8080/tilesets/iberia/1/0/0.png?x=1#f HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "percent-dots": b"GET /tilesets/%69beria/../iberia/1/0/%30.png HTTP/1.1\r\nHost: x\r\n\r\nGET /%2e%2e/%2F HTTP/1.1\r\n\r\n",
    "smuggling": b"GET /a HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhelloGET /b HTTP/1.1\r\n\r\n",
    "te-get": b"GET /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /b HTTP/1.1\r\n\r\n",
    "crlf-path": b"GET /a\r\nX-Injected: 1 HTTP/1.1\r\nHost: x\r\n\r\n",
    "bare-cr": b"GET /a\rb HTTP/1.1\r\nX: 1\r2\r\n\r\n",
    "bare-lf": b"GET /health HTTP/1.1\nHost: x\n\n",
    "folded": b"GET /a HTTP/1.1\r\nX-Long: one\r\n two\r\n\tthree\r\nExpect: 100-continue\r\n\r\n",
    "upgrade": b"GET /a HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
    "odd-spacing": b"GET  /a HTTP/1.1\r\n\r\nget /a http/1.1\r\n\r\nGET /a HTTP/1.1 \r\n\r\n",
    "long-header": b"GET /a HTTP/1.1\r\nX-Big: " + b"y" * 3000 + b"\r\n\r\n",
    "split-start": b"GET /tilesets/iberia/1/0/0.png HTTP/1.1\r\nHo",
}
for name, data in REQUESTS.items():
    write("FuzzRequestHead", name, data)
write_dictionary("FuzzRequestHead", [
    "\r\n", "\r\n\r\n", "\n", "\r", " HTTP/1.1", " HTTP/1.0", "GET ", "HEAD ", "POST ", "/tilesets/", "/styles/",
    "/data/", ".png", ".pbf", "?", "#", "%2e", "%2F", "..", "Host: ", "Connection: close", "Connection: keep-alive",
    "Content-Length: ", "Transfer-Encoding: chunked", "Upgrade: ", "Expect: 100-continue", "Origin: ",
    "If-None-Match: ", "\t", "\x00", "\x7f"])
