#!/usr/bin/env python3
"""Writes Tests/Fixtures/bad/: files Mapwright must refuse in one line (naming the file and the
problem, exit status 1 or 2, no crash, nothing written), and manifest.tsv, one line per case:

    NAME <TAB> ARGUMENTS

ARGUMENTS is the mapwright command line, split on spaces, with {file} for the case's file,
{good} for Tests/Fixtures/good/ and {dir} for an empty temporary folder, where outputs are asked
for: it must still be empty afterwards. Run it again after changing it: the files are deterministic.

Usage: python3 scripts/tools/make-bad-corpus.py
"""
import json, os, sqlite3, struct, zlib, gzip

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BAD = os.path.join(ROOT, "Tests", "Fixtures", "bad")
GOOD = os.path.join(ROOT, "Tests", "Fixtures", "good")
os.makedirs(BAD, exist_ok=True)
os.makedirs(GOOD, exist_ok=True)
for name in os.listdir(BAD):
    os.remove(os.path.join(BAD, name))
cases = []

def case(name, data, arguments):
    path = os.path.join(BAD, name)
    if isinstance(data, str):
        data = data.encode()
    if data is not None:
        with open(path, "wb") as f:
            f.write(data)
    cases.append((name, arguments))

# ---------------------------------------------------------------- JPEG and EXIF (photos add)
SOI, EOI = b"\xff\xd8", b"\xff\xd9"
def jpeg_with_app1(tiff):
    """A small valid JPEG (from the samples) with its APP1 replaced by `tiff`."""
    sample = open(os.path.join(ROOT, "Samples/photos/ansel-adams/darkroom-test-strip.jpg"), "rb").read()
    # Drop the sample's own APP segments, keep the rest.
    i = 2
    rest = b""
    while i < len(sample):
        marker, length = sample[i:i + 2], struct.unpack(">H", sample[i + 2:i + 4])[0]
        if marker[1] in range(0xE0, 0xF0):
            i += 2 + length
            continue
        rest = sample[i:]
        break
    body = b"Exif\x00\x00" + tiff
    return SOI + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + rest

def tiff_gps(entries, count_override=None, offset_override=None):
    """Little-endian TIFF: IFD0 with a GPS IFD pointer, then the GPS IFD with `entries`
    [(tag, type, count, payload bytes)]."""
    header = b"II*\x00" + struct.pack("<I", 8)
    ifd0 = struct.pack("<H", 1) + struct.pack("<HHII", 0x8825, 4, 1, offset_override or 26) + struct.pack("<I", 0)
    gps_offset = 8 + len(ifd0)
    data_offset = gps_offset + 2 + 12 * len(entries) + 4
    table, data = b"", b""
    for tag, kind, count, payload in entries:
        if len(payload) <= 4:
            table += struct.pack("<HHI", tag, kind, count_override or count) + payload.ljust(4, b"\x00")
        else:
            table += struct.pack("<HHII", tag, kind, count_override or count, data_offset + len(data))
            data += payload
    return header + ifd0 + struct.pack("<H", len(entries)) + table + struct.pack("<I", 0) + data

def rationals(values):
    return b"".join(struct.pack("<II", n, d) for n, d in values)

photos_add = "photos add --library {dir}/library.sqlite --image {file} --title Test"
photos_add_at = "photos add --library {dir}/library.sqlite --image {file} --title Test --at 10,20"
sample = open(os.path.join(ROOT, "Samples/photos/ansel-adams/el-capitan.jpg"), "rb").read()
case("jpeg-empty.jpg", b"", photos_add_at)
case("jpeg-text.jpg", "this is a text file named like a photo\n", photos_add_at)
case("jpeg-png-inside.jpg", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, photos_add_at)
case("jpeg-soi-only.jpg", SOI, photos_add_at)
case("jpeg-truncated-header.jpg", sample[:40], photos_add_at)
case("jpeg-truncated-half.jpg", sample[: len(sample) // 2], photos_add_at)
case("jpeg-truncated-before-eoi.jpg", sample[:-200], photos_add_at)
case("jpeg-segment-length-zero.jpg", SOI + b"\xff\xe1\x00\x00" + b"Exif" * 4, photos_add_at)
case("jpeg-segment-length-past-end.jpg", SOI + b"\xff\xe1\xff\xff" + b"Exif\x00\x00" + b"\x00" * 20, photos_add_at)
case("jpeg-garbage-after-soi.jpg", SOI + bytes(range(256)) * 4, photos_add_at)
case("exif-gps-zero-denominators.jpg", jpeg_with_app1(tiff_gps([
    (1, 2, 2, b"N\x00"), (2, 5, 3, rationals([(37, 0), (43, 0), (37, 0)])),
    (3, 2, 2, b"W\x00"), (4, 5, 3, rationals([(119, 1), (38, 1), (6, 1)]))])), photos_add)
case("exif-gps-latitude-200.jpg", jpeg_with_app1(tiff_gps([
    (1, 2, 2, b"N\x00"), (2, 5, 3, rationals([(200, 1), (0, 1), (0, 1)])),
    (3, 2, 2, b"E\x00"), (4, 5, 3, rationals([(10, 1), (0, 1), (0, 1)]))])), photos_add)
case("exif-gps-wrong-type.jpg", jpeg_with_app1(tiff_gps([
    (1, 2, 2, b"N\x00"), (2, 2, 8, b"37.7459\x00"), (3, 2, 2, b"W\x00"), (4, 2, 8, b"119.533\x00")])), photos_add)
case("exif-gps-bad-reference.jpg", jpeg_with_app1(tiff_gps([
    (1, 2, 2, b"Q\x00"), (2, 5, 3, rationals([(37, 1), (43, 1), (37, 1)])),
    (3, 2, 2, b"W\x00"), (4, 5, 3, rationals([(119, 1), (38, 1), (6, 1)]))])), photos_add)
case("exif-gps-absurd-count.jpg", jpeg_with_app1(tiff_gps([
    (1, 2, 2, b"N\x00"), (2, 5, 3, rationals([(37, 1), (43, 1), (37, 1)]))], count_override=0x7FFFFFFF)), photos_add)
case("exif-ifd-offset-past-end.jpg", jpeg_with_app1(tiff_gps([
    (1, 2, 2, b"N\x00")], offset_override=0x7FFFFFF0)), photos_add)
case("exif-tiff-bad-byte-order.jpg", jpeg_with_app1(b"XX*\x00" + b"\x00" * 40), photos_add)
case("exif-tiff-truncated.jpg", jpeg_with_app1(b"II*\x00\x08\x00"), photos_add)
case("exif-no-gps.jpg", open(os.path.join(ROOT, "Samples/photos/ansel-adams/darkroom-test-strip.jpg"), "rb").read(), photos_add)

# ---------------------------------------------------------------- GPX (render --track)
track = "render --track {file} -o {dir}/map.png"
gpx = lambda body: f'<?xml version="1.0"?>\n<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">{body}</gpx>\n'
case("gpx-empty.gpx", b"", track)
case("gpx-not-xml.gpx", "latitude,longitude\n1,2\n", track)
case("gpx-unclosed.gpx", '<?xml version="1.0"?><gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2">', track)
case("gpx-missing-lat.gpx", gpx('<trk><trkseg><trkpt lon="2"/><trkpt lat="1" lon="3"/></trkseg></trk>'), track)
case("gpx-nan-lat.gpx", gpx('<trk><trkseg><trkpt lat="NaN" lon="2"/><trkpt lat="1" lon="3"/></trkseg></trk>'), track)
case("gpx-lat-out-of-range.gpx", gpx('<trk><trkseg><trkpt lat="95" lon="2"/><trkpt lat="1" lon="3"/></trkseg></trk>'), track)
case("gpx-lon-out-of-range.gpx", gpx('<trk><trkseg><trkpt lat="1" lon="200"/><trkpt lat="1" lon="3"/></trkseg></trk>'), track)
case("gpx-lat-word.gpx", gpx('<trk><trkseg><trkpt lat="north" lon="2"/></trkseg></trk>'), track)
case("gpx-infinite-lon.gpx", gpx('<rte><rtept lat="1" lon="inf"/><rtept lat="2" lon="3"/></rte>'), track)
case("gpx-no-points.gpx", gpx(""), track)
case("gpx-other-root.gpx", '<?xml version="1.0"?><kml><Placemark/></kml>', track)
case("gpx-binary.gpx", bytes(range(256)), track)

# ---------------------------------------------------------------- GeoJSON (overlays and photos)
overlay = "render --overlay {file} -o {dir}/map.png"
photos = "render --photos {file} -o {dir}/map.png"
case("geojson-empty.geojson", b"", overlay)
case("geojson-not-json.geojson", "type: FeatureCollection\n", overlay)
case("geojson-truncated.geojson", '{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3', overlay)
case("geojson-wrong-type.geojson", '{"type": "FeatureCollectionz", "features": []}', overlay)
case("geojson-features-not-array.geojson", '{"type": "FeatureCollection", "features": {"a": 1}}', overlay)
case("geojson-coordinates-strings.geojson", '{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [["1", "2"], ["3", "4"]]}}', overlay)
case("geojson-latitude-out-of-range.geojson", '{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[1, 95], [3, 4]]}}', overlay)
case("geojson-longitude-out-of-range.geojson", '{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[500, 1], [3, 4], [5, 1], [500, 1]]]}}', overlay)
case("geojson-short-ring.geojson", '{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[1, 1], [3, 4]]]}}', overlay)
case("geojson-deep-nesting.geojson", "[" * 100000 + "]" * 100000, overlay)
case("geojson-nan.geojson", '{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [NaN, 1]}}', overlay)
case("geojson-geometry-missing.geojson", '{"type": "Feature", "properties": {}}', overlay)
case("geojson-photos-point-strings.geojson", '{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "a", "properties": {"title": "x"}, "geometry": {"type": "Point", "coordinates": ["a", "b"]}}]}', photos)
case("geojson-photos-lat-200.geojson", '{"type": "FeatureCollection", "features": [{"type": "Feature", "id": "a", "properties": {"title": "x"}, "geometry": {"type": "Point", "coordinates": [10, 200]}}]}', photos)
case("geojson-utf16.geojson", '{"type": "FeatureCollection", "features": []}'.encode("utf-16"), overlay)

# ---------------------------------------------------------------- CSV and Flickr JSON (photos)
case("csv-empty.csv", b"", photos)
case("csv-no-latitude-column.csv", "lat,lon,title\n1,2,x\n", photos)
case("csv-bad-number.csv", "latitude,longitude,title\n1.2.3,2,x\n", photos)
case("csv-latitude-words.csv", "latitude,longitude,title\nnorth,2,x\n", photos)
case("csv-latitude-out-of-range.csv", "latitude,longitude,title\n91,2,x\n", photos)
case("csv-longitude-out-of-range.csv", "latitude,longitude,title\n1,-181,x\n", photos)
case("csv-unbalanced-quote.csv", 'latitude,longitude,title\n1,2,"Half Dome\n3,4,x\n', photos)
case("csv-quote-in-field.csv", 'latitude,longitude,title\n1,2,Half "Dome" x\n', photos)
case("csv-nan.csv", "latitude,longitude,title\nNaN,2,x\n", photos)
case("csv-binary.csv", b"\x00\x01\x02latitude,longitude\n\xff\xfe", photos)
case("flickr-not-json.json", "photos: none\n", photos)
case("flickr-photo-not-array.json", '{"photos": {"photo": {"id": "1"}}}', photos)
case("flickr-latitude-out-of-range.json", '{"photos": {"photo": [{"id": "1", "title": "x", "latitude": "95", "longitude": "2"}]}}', photos)
case("flickr-latitude-word.json", '{"photos": {"photo": [{"id": "1", "title": "x", "latitude": "north", "longitude": "2"}]}}', photos)
case("json-array-of-numbers.json", "[1, 2, 3]", photos)

# ---------------------------------------------------------------- tilesets (tiles info, serve --tiles)
info = "tiles info {file}"
case("mbtiles-zero-bytes.mbtiles", b"", info)
case("mbtiles-text.mbtiles", "not a database\n" * 20, info)
def sqlite_file(name, statements):
    path = os.path.join(BAD, name)
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()
sqlite_file("mbtiles-other-sqlite.mbtiles", ["CREATE TABLE notes (id INTEGER, text TEXT)", "INSERT INTO notes VALUES (1, 'hello')"])
case("mbtiles-other-sqlite.mbtiles", None, info)
sqlite_file("mbtiles-no-tiles-table.mbtiles", ["CREATE TABLE metadata (name TEXT, value TEXT)", "INSERT INTO metadata VALUES ('name', 'x')"])
case("mbtiles-no-tiles-table.mbtiles", None, info)
sqlite_file("mbtiles-tile-out-of-grid.mbtiles", [
    "CREATE TABLE metadata (name TEXT, value TEXT)", "INSERT INTO metadata VALUES ('name', 'x'), ('format', 'png')",
    "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)",
    "INSERT INTO tiles VALUES (2, 9, 0, x'00')"])
case("mbtiles-tile-out-of-grid.mbtiles", None, "tiles convert {file} {dir}/out.pmtiles")
sqlite_file("mbtiles-zoom-99.mbtiles", [
    "CREATE TABLE metadata (name TEXT, value TEXT)", "INSERT INTO metadata VALUES ('name', 'x'), ('format', 'png')",
    "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)",
    "INSERT INTO tiles VALUES (99, 0, 0, x'00')"])
case("mbtiles-zoom-99.mbtiles", None, "tiles convert {file} {dir}/out.pmtiles")
pm_header = bytearray(127)
pm_header[0:7] = b"PMTiles"
case("pmtiles-zero-bytes.pmtiles", b"", info)
case("pmtiles-bad-magic.pmtiles", b"PMTilez\x03" + b"\x00" * 200, info)
case("pmtiles-version-2.pmtiles", b"PMTiles\x02" + b"\x00" * 200, info)
case("pmtiles-truncated-header.pmtiles", b"PMTiles\x03" + b"\x00" * 40, info)
header = bytearray(b"PMTiles\x03" + b"\x00" * 119)
struct.pack_into("<QQ", header, 8, 127, 1 << 40)  # root directory: offset 127, absurd length
case("pmtiles-root-directory-past-end.pmtiles", bytes(header) + b"\x00" * 64, info)
header = bytearray(b"PMTiles\x03" + b"\x00" * 119)
garbage = b"\x1f\x8b\x08\x00garbage-not-gzip"
struct.pack_into("<QQ", header, 8, 127, len(garbage))
header[97] = 2  # internal compression gzip
case("pmtiles-corrupt-directory.pmtiles", bytes(header) + garbage, info)

# ---------------------------------------------------------------- PNG (compare)
compare = "compare {file} {good}/small.png --diff {dir}/diff.png"
png_sig = b"\x89PNG\r\n\x1a\n"
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
def png(width, height, rows=None, bad_crc=False, ihdr_extra=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0) + ihdr_extra
    raw = rows if rows is not None else b"".join(b"\x00" + b"\x80\x80\x80\xff" * width for _ in range(height))
    idat = chunk(b"IDAT", zlib.compress(raw))
    ihdr_chunk = chunk(b"IHDR", ihdr)
    if bad_crc:
        ihdr_chunk = ihdr_chunk[:-4] + b"\x00\x00\x00\x00"
    return png_sig + ihdr_chunk + idat + chunk(b"IEND", b"")
with open(os.path.join(GOOD, "small.png"), "wb") as f:
    f.write(png(4, 4))
case("png-empty.png", b"", compare)
case("png-text.png", "not a png\n", compare)
case("png-signature-only.png", png_sig, compare)
case("png-truncated.png", png(16, 16)[:60], compare)
case("png-bad-crc.png", png(4, 4, bad_crc=True), compare)
case("png-huge-dimensions.png", png(100000, 100000, rows=b"\x00" * 10), compare)
case("png-zero-width.png", png(0, 4, rows=b""), compare)
case("png-idat-garbage.png", png_sig + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 6, 0, 0, 0)) + chunk(b"IDAT", b"garbage") + chunk(b"IEND", b""), compare)
case("png-jpeg-inside.png", sample, compare)

# ---------------------------------------------------------------- vector tiles (render --vector-source)
vector = "render --style streets --vector-source {file} --center 60.17,24.94 --zoom 14 -o {dir}/map.png"
def vector_mbtiles(name, tile):
    path = os.path.join(BAD, name)
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    connection.executemany("INSERT INTO metadata VALUES (?, ?)", [
        ("name", name), ("format", "pbf"), ("minzoom", "0"), ("maxzoom", "14"),
        ("json", json.dumps({"vector_layers": [{"id": "water", "fields": {}}]}))])
    connection.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    # Around Helsinki (60.17 N, 24.94 E) at zooms 12 to 14, whichever the view reads.
    import math
    for z in (12, 13, 14):
        n = 1 << z
        cx = int((24.94 + 180) / 360 * n)
        cy = int((1 - math.log(math.tan(math.radians(60.17)) + 1 / math.cos(math.radians(60.17))) / math.pi) / 2 * n)
        for x in range(cx - 2, cx + 3):
            for y in range(cy - 2, cy + 3):
                connection.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, n - 1 - y, tile))
    connection.commit()
    connection.close()
    cases.append((name, vector))
vector_mbtiles("mvt-garbage.mbtiles", b"\x1a\xff\xff\xff\xff\x0fgarbage")
vector_mbtiles("mvt-bad-gzip.mbtiles", b"\x1f\x8b\x08\x00" + b"\x00" * 30)
vector_mbtiles("mvt-layer-length-past-end.mbtiles", b"\x1a\x7f" + b"\x0a\x05water")
# A MoveTo whose count (0x1FFFFFFF) runs far past the 8 parameters that follow.
vector_mbtiles("mvt-geometry-huge-count.mbtiles", bytes([0x1a, 0x1b, 0x0a, 0x05]) + b"water" + bytes([0x12, 0x0d, 0x18, 0x03, 0x22, 0x09, 0xf9, 0xff, 0xff, 0xff, 0x0f, 0x02, 0x02, 0x02, 0x02]) + bytes([0x28, 0x80, 0x20, 0x78, 0x02]))

# ---------------------------------------------------------------- style JSON (render --style)
style = "render --style {file} -o {dir}/map.png"
case("style-empty.json", b"", style)
case("style-not-json.json", "version: 8\n", style)
case("style-version-7.json", '{"version": 7, "sources": {}, "layers": []}', style)
case("style-unknown-layer-type.json", '{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "hologram"}]}', style)
case("style-layer-without-id.json", '{"version": 8, "sources": {}, "layers": [{"type": "background"}]}', style)
case("style-deep-nesting.json", '{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "background", "paint": {"background-color": ' + '["case", ' * 5000 + '"red"' + "]" * 5000 + "}}]}", style)
case("style-bad-colour.json", '{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "background", "paint": {"background-color": "#zzzzzz"}}]}', style)
case("style-unknown-source.json", '{"version": 8, "sources": {}, "layers": [{"id": "x", "type": "fill", "source": "nowhere", "source-layer": "a"}]}', style)
case("style-layers-not-array.json", '{"version": 8, "sources": {}, "layers": {"id": "x"}}', style)

# ---------------------------------------------------------------- photo libraries (photos list)
listing = "photos list --library {file}"
case("library-text.sqlite", "not a library\n" * 10, listing)
sqlite_file("library-other-sqlite.sqlite", ["CREATE TABLE photos (id TEXT)"])
case("library-other-sqlite.sqlite", None, listing)

# ---------------------------------------------------------------- absurd arguments (no file)
case("args-size-huge", None, "render --size 100000x100000 -o {dir}/map.png")
case("args-size-zero", None, "render --size 0x10 -o {dir}/map.png")
case("args-zoom-range-absurd", None, "tiles export --bbox -10,35,5,45 --zoom 0-99 -o {dir}/out.mbtiles")
case("args-zoom-range-reversed", None, "tiles export --bbox -10,35,5,45 --zoom 9-3 -o {dir}/out.mbtiles")
case("args-export-too-many-tiles", None, "tiles export --bbox -180,-85,180,85 --zoom 0-30 -o {dir}/out.mbtiles")
case("args-scale-absurd", None, "render --scale 1000 -o {dir}/map.png")

with open(os.path.join(BAD, "manifest.tsv"), "w") as f:
    f.write("# NAME\tARGUMENTS (see scripts/tools/make-bad-corpus.py)\n")
    for name, arguments in cases:
        f.write(f"{name}\t{arguments}\n")
print(f"{len(cases)} cases in {os.path.relpath(BAD, ROOT)}")
