#!/usr/bin/env python3
"""Makes Mapwright's sample photo set: Samples/photos, Samples/flickr-photos.json, Samples/track.gpx.

A developer tool, run by hand when the samples should change; the samples themselves are committed,
so neither setup nor CI needs it. It needs Python 3.9+ and Pillow (`pip install pillow`) for the
pixels and the JPEG encoding. The EXIF block is written byte by byte here (EXIF 2.32: a TIFF header,
IFD0, the Exif IFD and the GPS IFD), so every tag is exactly what the samples claim: GPS rationals with
N/S/E/W references, altitude with its reference, GPSHPositioningError, DateTimeOriginal with
OffsetTimeOriginal, UTF-8 ImageDescription and Artist, a UTF-16LE XPTitle, both byte orders.

    python3 scripts/tools/make-samples.py          # from the repository root

The output is the same on every run: shapes come from a seeded random generator, nothing from the clock.
"""

import io
import json
import math
import random
import struct
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "Samples"
WIDTH, HEIGHT = 160, 120

# --- EXIF, byte by byte ------------------------------------------------------------------------

ASCII, BYTE, SHORT, LONG, RATIONAL = 2, 1, 3, 4, 5


def ascii_value(text):
    return (ASCII, text.encode("utf-8") + b"\0")


def utf16le_value(text):
    return (BYTE, text.encode("utf-16-le") + b"\0\0")


def rationals(*pairs):
    return (RATIONAL, list(pairs))


def dms(degrees):
    """Degrees as three rationals, the seconds in hundredths."""
    degrees = abs(degrees)
    whole = math.floor(degrees)
    minutes = math.floor((degrees - whole) * 60)
    seconds = ((degrees - whole) * 60 - minutes) * 60
    return rationals((whole, 1), (minutes, 1), (round(seconds * 100), 100))


def tiff(ifd0, exif, gps, big_endian=False):
    """The TIFF structure that follows `Exif\\0\\0`: IFD0 at offset 8, then the Exif IFD, then the GPS IFD."""
    order = ">" if big_endian else "<"

    def encoded(value):
        kind, data = value
        if kind == RATIONAL:
            return kind, len(data), b"".join(struct.pack(order + "II", n, d) for n, d in data)
        if kind == SHORT:
            return kind, 1, struct.pack(order + "H", data)
        if kind == LONG:
            return kind, 1, struct.pack(order + "I", data)
        return kind, len(data), bytes(data)

    def size(entries, extra):
        out_of_line = sum(len(p) + len(p) % 2 for _, _, p in map(encoded, entries.values()) if len(p) > 4)
        return 2 + 12 * (len(entries) + extra) + 4 + out_of_line

    ifd0 = dict(ifd0)
    exif_offset = 8 + size(ifd0, bool(exif) + bool(gps))
    gps_offset = exif_offset + (size(exif, 0) if exif else 0)
    if exif:
        ifd0[0x8769] = (LONG, exif_offset)
    if gps:
        ifd0[0x8825] = (LONG, gps_offset)

    def ifd(entries, offset):
        table = struct.pack(order + "H", len(entries))
        data = b""
        data_offset = offset + 2 + 12 * len(entries) + 4
        for tag in sorted(entries):
            kind, count, payload = encoded(entries[tag])
            table += struct.pack(order + "HHI", tag, kind, count)
            if len(payload) <= 4:
                table += payload.ljust(4, b"\0")
            else:
                table += struct.pack(order + "I", data_offset + len(data))
                data += payload + (b"\0" if len(payload) % 2 else b"")
        return table + struct.pack(order + "I", 0) + data

    out = (b"MM" if big_endian else b"II") + struct.pack(order + "HI", 42, 8) + ifd(ifd0, 8)
    if exif:
        out += ifd(exif, exif_offset)
    if gps:
        out += ifd(gps, gps_offset)
    return out


def with_exif(jpeg, tiff_bytes):
    """`jpeg` with an APP1 EXIF segment right after its SOI marker."""
    payload = b"Exif\0\0" + tiff_bytes
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


# --- Pixels ----------------------------------------------------------------------------------------


def landscape(seed, palette):
    """A small landscape: a sky gradient, a sun, ridges and a foreground, shaped by `seed`."""
    rng = random.Random(seed)
    sky_top, sky_bottom, ridge_far, ridge_near, ground, sun = palette
    image = Image.new("RGB", (WIDTH, HEIGHT))
    draw = ImageDraw.Draw(image)
    for y in range(HEIGHT):
        t = y / (HEIGHT - 1)
        draw.line([(0, y), (WIDTH, y)], fill=tuple(round(a + (b - a) * t) for a, b in zip(sky_top, sky_bottom)))
    sx, sy, r = rng.randint(20, 140), rng.randint(12, 40), rng.randint(6, 14)
    draw.ellipse([sx - r, sy - r, sx + r, sy + r], fill=sun)
    for color, base, height in [(ridge_far, 70, 45), (ridge_near, 88, 35)]:
        points, x = [(0, HEIGHT)], 0
        while x <= WIDTH:
            points.append((x, base - rng.random() * height * (0.4 + 0.6 * abs(math.sin(x / 23 + seed)))))
            x += rng.randint(8, 22)
        points += [(WIDTH, base), (WIDTH, HEIGHT)]
        draw.polygon(points, fill=color)
    draw.rectangle([0, 100, WIDTH, HEIGHT], fill=ground)
    for _ in range(rng.randint(2, 5)):  # trees, rocks, people: something distinct per photo
        x, y = rng.randint(0, WIDTH), rng.randint(92, 112)
        draw.polygon([(x, y - rng.randint(8, 20)), (x - 5, y), (x + 5, y)], fill=ridge_near)
    return image


def gray(image):
    return image.convert("L").convert("RGB")


def sepia(image):
    g = image.convert("L")
    return Image.merge("RGB", [g.point(lambda v: min(255, v * 1.07 + 20)), g.point(lambda v: v * 0.92 + 8), g.point(lambda v: v * 0.72)])


COLOR = [(90, 150, 230), (250, 210, 160), (120, 110, 140), (70, 90, 70), (150, 130, 90), (255, 235, 170)]
DUSK = [(40, 50, 110), (240, 140, 90), (90, 60, 90), (50, 40, 60), (110, 90, 70), (255, 200, 120)]

# --- The photos --------------------------------------------------------------------------------------

# A hike in Yosemite Valley, from Tunnel View to Vernal Fall, on 15 June 2024 from 09:00 PDT.
TRACK_WAYPOINTS = [  # latitude, longitude, elevation in meters
    (37.7159, -119.6773, 1343), (37.7170, -119.6600, 1230), (37.7168, -119.6465, 1200),
    (37.7215, -119.6400, 1200), (37.7270, -119.6350, 1210), (37.7330, -119.6150, 1205),
    (37.7400, -119.6000, 1208), (37.7430, -119.5960, 1215), (37.7445, -119.5850, 1212),
    (37.7420, -119.5720, 1220), (37.7460, -119.5560, 1230), (37.7487, -119.5493, 1250),
    (37.7400, -119.5540, 1235), (37.7320, -119.5580, 1250), (37.7280, -119.5510, 1380),
    (37.7276, -119.5446, 1530),
]
TRACK_START = datetime(2024, 6, 15, 16, 0, 0, tzinfo=timezone.utc)
PDT = timezone(timedelta(hours=-7))


def track_points(count=200):
    """`count` points along the waypoints, evenly by distance, wandering a little, one every 100 s."""
    legs = [math.dist(a[:2], b[:2]) for a, b in zip(TRACK_WAYPOINTS, TRACK_WAYPOINTS[1:])]
    total, rng, points = sum(legs), random.Random(7), []
    for i in range(count):
        along, leg = total * i / (count - 1), 0
        while leg < len(legs) - 1 and along > legs[leg]:
            along -= legs[leg]
            leg += 1
        t = min(1, along / legs[leg])
        a, b = TRACK_WAYPOINTS[leg], TRACK_WAYPOINTS[leg + 1]
        wobble = 0.00012 * math.sin(i * 0.7) + rng.uniform(-0.00004, 0.00004)
        points.append((
            a[0] + (b[0] - a[0]) * t + wobble,
            a[1] + (b[1] - a[1]) * t + wobble * 0.6,
            a[2] + (b[2] - a[2]) * t + rng.uniform(-1.5, 1.5),
            TRACK_START + timedelta(seconds=100 * i),
        ))
    return points


def time_on_track(points, latitude, longitude):
    """When the hike passed closest to a place."""
    return min(points, key=lambda p: math.dist(p[:2], (latitude, longitude)))[3]


def photo(folder, name, artist, latitude=None, longitude=None, description=None, xp_title=None,
          altitude=None, accuracy=None, taken=None, offset=None, gps_time=None, big_endian=False):
    return dict(folder=folder, name=name, artist=artist, latitude=latitude, longitude=longitude,
                description=description, xp_title=xp_title, altitude=altitude, accuracy=accuracy,
                taken=taken, offset=offset, gps_time=gps_time, big_endian=big_endian)


def photos(track):
    adams, lange, li = "ansel-adams", "dorothea-lange", "li-ming"
    out = []
    for name, title, lat, lon, alt, acc in [
        ("tunnel-view", "Tunnel View, clearing storm", 37.7159, -119.6773, 1343, 4.0),
        ("bridalveil-fall", "Bridalveil Fall", 37.7168, -119.6465, 1200, 6.5),
        ("el-capitan", "El Capitan from the meadow", 37.7270, -119.6350, 1210, 5.0),
        ("yosemite-falls", "Upper and Lower Yosemite Falls", 37.7430, -119.5960, 1215, 8.0),
        ("mirror-lake", "Half Dome in Mirror Lake", 37.7487, -119.5493, 1250, 3.5),
        ("vernal-fall", "Vernal Fall, Mist Trail", 37.7276, -119.5446, 1530, 12.0),
    ]:
        utc = time_on_track(track, lat, lon)
        out.append(photo(adams, name, "Ansel Adams", lat, lon, title, altitude=alt, accuracy=acc,
                         taken=utc.astimezone(PDT), offset="-07:00", gps_time=utc))
    out.append(photo(adams, "glacier-point", "Ansel Adams", 37.7306, -119.5738, "Half Dome from Glacier Point",
                     altitude=2199, taken=datetime(2024, 6, 14, 19, 40), offset="-07:00"))
    out.append(photo(adams, "darkroom-test-strip", "Ansel Adams", description="Darkroom test strip (no GPS)",
                     taken=datetime(2024, 6, 16, 10, 0)))

    for name, title, lat, lon, taken in [
        ("nipomo-pea-pickers", "Pea pickers' camp, Nipomo", 35.0427, -120.4760, datetime(1936, 3, 7, 15, 0)),
        ("ferry-building", "Ferry Building, Embarcadero", 37.7955, -122.3937, datetime(1937, 5, 2, 9, 30)),
        ("golden-gate", "Golden Gate from Fort Point", 37.8106, -122.4771, datetime(1937, 5, 28, 11, 10)),
        ("grant-avenue", "Grant Avenue, Chinatown", 37.7941, -122.4078, datetime(1938, 2, 12, 16, 45)),
        ("salinas-lettuce", "Lettuce cutters, Salinas Valley", 36.6777, -121.6555, datetime(1939, 6, 1, 8, 20)),
        ("manzanar", "Manzanar, dust storm", 36.7281, -118.1542, datetime(1942, 7, 3, 14, 5)),
    ]:
        out.append(photo(lange, name, "Dorothea Lange", lat, lon, title,
                         altitude=1190 if name == "manzanar" else None, taken=taken))
    out.append(photo(lange, "oakland-waterfront", "Dorothea Lange", 37.7955, -122.2790, "   ",
                     taken=datetime(1942, 4, 20, 12, 0)))  # a blank description: the title is the file name
    out.append(photo(lange, "studio-portrait", "Dorothea Lange", description="Studio portrait (no GPS)",
                     taken=datetime(1934, 1, 10, 10, 0)))

    for name, title, xp, lat, lon, alt, acc, taken, offset, big in [
        ("great-wall", "长城日落", None, 40.4319, 116.5704, 800, 5.0, datetime(2023, 10, 3, 17, 42), "+08:00", False),
        ("west-lake", "西湖晨雾", None, 30.2431, 120.1500, 8, None, datetime(2023, 10, 8, 6, 15), "+08:00", False),
        ("acropolis", "Ακρόπολη την αυγή", None, 37.9715, 23.7257, 156, 10.0, datetime(2024, 4, 21, 6, 48), "+03:00", False),
        ("oia-santorini", "Οία, Σαντορίνη", None, 36.4618, 25.3753, 120, None, datetime(2024, 4, 24, 20, 5), "+03:00", True),
        ("alexandria-library", "مكتبة الإسكندرية", None, 31.2089, 29.9092, 5, None, datetime(2024, 5, 2, 11, 30), "+03:00", False),
        ("sydney-opera-house", None, "悉尼歌剧院", -33.8568, 151.2153, 4, 6.0, datetime(2024, 11, 9, 19, 20), "+11:00", True),
        ("caminito-la-boca", "Caminito, La Boca", None, -34.6393, -58.3627, 6, None, datetime(2025, 2, 14, 16, 0), "-03:00", False),
    ]:
        out.append(photo(li, name, "李明", lat, lon, title, xp_title=xp, altitude=alt, accuracy=acc,
                         taken=taken, offset=offset, big_endian=big))
    return out


def exif_for(p):
    ifd0, exif, gps = {}, {}, {}
    if p["description"] is not None:
        ifd0[0x010E] = ascii_value(p["description"])
    ifd0[0x013B] = ascii_value(p["artist"])
    if p["xp_title"]:
        ifd0[0x9C9B] = utf16le_value(p["xp_title"])
    ifd0[0x0112] = (SHORT, 1)
    if p["taken"]:
        exif[0x9003] = ascii_value(p["taken"].strftime("%Y:%m:%d %H:%M:%S"))
        if p["offset"]:
            exif[0x9011] = ascii_value(p["offset"])
    if p["latitude"] is not None:
        gps[0x0000] = (BYTE, b"\x02\x03\x00\x00")
        gps[0x0001] = ascii_value("N" if p["latitude"] >= 0 else "S")
        gps[0x0002] = dms(p["latitude"])
        gps[0x0003] = ascii_value("E" if p["longitude"] >= 0 else "W")
        gps[0x0004] = dms(p["longitude"])
        if p["altitude"] is not None:
            gps[0x0005] = (BYTE, b"\x01" if p["altitude"] < 0 else b"\x00")
            gps[0x0006] = rationals((round(abs(p["altitude"]) * 10), 10))
        if p["gps_time"]:
            t = p["gps_time"]
            gps[0x0007] = rationals((t.hour, 1), (t.minute, 1), (t.second, 1))
            gps[0x001D] = ascii_value(t.strftime("%Y:%m:%d"))
        if p["accuracy"] is not None:
            gps[0x001F] = rationals((round(p["accuracy"] * 10), 10))
    return tiff(ifd0, exif, gps, big_endian=p["big_endian"])


def write_photos(track):
    for index, p in enumerate(photos(track)):
        folder = SAMPLES / "photos" / p["folder"]
        folder.mkdir(parents=True, exist_ok=True)
        image = landscape(index * 7919 + 17, DUSK if index % 3 == 2 else COLOR)
        image = gray(image) if p["folder"] == "ansel-adams" else sepia(image) if p["folder"] == "dorothea-lange" else image
        path = folder / f"{p['name']}.jpg"

        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=72, optimize=True)
        path.write_bytes(with_exif(buffer.getvalue(), exif_for(p)))


def write_gpx(track):
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<gpx version="1.1" creator="Mapwright make-samples.py" xmlns="http://www.topografix.com/GPX/1/1">',
        "  <metadata><name>Yosemite Valley: Tunnel View to Vernal Fall</name>"
        f"<time>{TRACK_START.strftime('%Y-%m-%dT%H:%M:%SZ')}</time></metadata>",
        "  <trk>",
        "    <name>Yosemite Valley: Tunnel View to Vernal Fall</name>",
        "    <type>hiking</type>",
        "    <trkseg>",
    ]
    for lat, lon, ele, time in track:
        lines.append(f'      <trkpt lat="{lat:.6f}" lon="{lon:.6f}"><ele>{ele:.1f}</ele>'
                     f"<time>{time.strftime('%Y-%m-%dT%H:%M:%SZ')}</time></trkpt>")
    lines += ["    </trkseg>", "  </trk>", "</gpx>", ""]
    (SAMPLES / "track.gpx").write_text("\n".join(lines), encoding="utf-8")


def write_flickr():
    """A Flickr `flickr.photos.search` answer with extras=geo,owner_name,description,date_taken,url_sq,url_s,url_l."""
    def entry(id, secret, title, description, lat, lon, owner, ownername, taken):
        base = f"https://live.staticflickr.com/65535/{id}_{secret}"
        return {
            "id": id, "owner": owner, "secret": secret, "server": "65535", "farm": 66, "title": title,
            "ispublic": 1, "isfriend": 0, "isfamily": 0, "description": {"_content": description},
            "datetaken": taken, "datetakengranularity": 0, "datetakenunknown": "0", "ownername": ownername,
            "latitude": lat, "longitude": lon, "accuracy": "16" if lat not in (0, "0") else 0,
            "context": 0, "place_id": "", "woeid": "", "geo_is_public": 1,
            "url_sq": f"{base}_s.jpg", "height_sq": 75, "width_sq": 75,
            "url_s": f"{base}_m.jpg", "height_s": 180, "width_s": 240,
            "url_l": f"{base}_b.jpg", "height_l": 768, "width_l": 1024,
        }
    photos = [
        entry("53012345671", "a1b2c3d4e5", "Golden Gate Bridge in the fog", "Karl the Fog rolling in at 7am.",
              37.8199, -122.4783, "12345678@N00", "Maya Chen", "2023-07-14 07:02:41"),
        entry("53012345672", "b2c3d4e5f6", "Painted Ladies", "Alamo Square, late afternoon.",
              "37.776260", "-122.432758", "12345678@N00", "Maya Chen", "2023-07-15 17:40:03"),
        entry("53012345673", "c3d4e5f6a7", "", "Cable car climbing Hyde Street",
              "37.8017", "-122.4187", "87654321@N01", "Tomás Rivera", "2023-08-02 10:15:00"),
        entry("53012345674", "d4e5f6a7b8", "Φάρος στο Point Bonita", "Ο φάρος στην άκρη των Marin Headlands.",
              37.8157, -122.5297, "24681357@N02", "Νίκος Αντωνίου", "2023-09-10 18:30:12"),
        entry("53012345675", "e5f6a7b8c9", "金门公园的日本茶园", "",
              "37.770127", "-122.470496", "13572468@N03", "王芳", "2023-10-01 09:05:55"),
        entry("53012345676", "f6a7b8c9d0", "Studio shot, not geotagged", "Flickr reports 0, 0 for photos without a location.",
              0, 0, "87654321@N01", "Tomás Rivera", "2023-08-05 20:00:00"),
    ]
    document = {"photos": {"page": 1, "pages": 1, "perpage": 100, "total": len(photos), "photo": photos}, "stat": "ok"}
    (SAMPLES / "flickr-photos.json").write_text(json.dumps(document, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def main():
    track = track_points()
    write_photos(track)
    write_gpx(track)
    write_flickr()
    total = sum(f.stat().st_size for f in SAMPLES.rglob("*") if f.is_file())
    print(f"make-samples: wrote {SAMPLES.relative_to(ROOT)} ({total // 1024} KB)", file=sys.stderr)


if __name__ == "__main__":
    main()
