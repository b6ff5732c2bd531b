"""SDF glyph ranges (MapLibre's `{fontstack}/{range}.pbf`) made from installed fonts, so MapLibre
Native can draw a style's text in the side-by-side benchmark (scripts/bench/styles.sh).

Nothing packaged here makes them (node-fontnik is npm's, build_pbf_glyphs crates.io's), so this
follows node-fontnik's conventions: glyphs rasterised by FreeType at 24 px, a 3 px buffer, the
signed distance over an 8 px radius with the edge at 0.25 (value 191), as TinySDF encodes it;
`top` is the glyph's bearing minus the font's ascender, rounded. Each font stack is drawn from
the first of its fonts that fontconfig finds by family and style (as Mapwright's renderer finds
them), the stack's others being fallbacks that are not needed for the Latin text of the sample.

Usage: sdf_glyphs.py OUTPUT_FOLDER "Noto Sans Regular" "Metropolis Light,Noto Sans Regular" ...
"""
import os
import subprocess
import sys

import freetype
import numpy as np
from scipy import ndimage

SIZE, BUFFER, RADIUS, CUTOFF = 24, 3, 8.0, 0.25
# Latin, Latin-1, Latin Extended, Greek and Cyrillic, Latin Extended Additional (Vietnamese names
# in POIs), general punctuation: what Helsinki needs.
RANGES = [0, 256, 512, 768, 1024, 7680, 8192]
WEIGHTS = {"thin": 100, "extralight": 200, "light": 300, "regular": 400, "book": 400, "medium": 500,
           "semibold": 600, "bold": 700, "extrabold": 800, "heavy": 800, "black": 900}


def font_file(name):
    """The installed file fontconfig matches for a style's font name, and whether it is that family."""
    words = name.split()
    italic = words and words[-1].lower() in ("italic", "oblique")
    if italic:
        words = words[:-1]
    weight = 400
    if len(words) > 1 and words[-1].lower() in WEIGHTS:
        weight = WEIGHTS[words.pop().lower()]
    family = " ".join(words)
    pattern = f"{family}:weight={ {100: 0, 200: 40, 300: 50, 400: 80, 500: 100, 600: 180, 700: 200, 800: 205, 900: 210}[weight] }"
    if italic:
        pattern += ":slant=100"
    out = subprocess.run(["fc-match", "-f", "%{file}\n%{family}", pattern], capture_output=True, text=True).stdout.split("\n")
    return out[0], family.lower() in out[1].lower()


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


def field(number, wire, payload):
    key = varint(number << 3 | wire)
    if wire == 0:
        return key + varint(payload)
    return key + varint(len(payload)) + payload


def zigzag(value):
    return (value << 1) ^ (value >> 63)


def sdf(bitmap):
    """TinySDF's encoding of a coverage bitmap (0-255) with the buffer already around it."""
    inside = bitmap >= 128
    outer = ndimage.distance_transform_edt(~inside)
    inner = ndimage.distance_transform_edt(inside)
    distance = outer - inner
    return np.clip(np.round(255 - 255 * (distance / RADIUS + CUTOFF)), 0, 255).astype(np.uint8)


def glyph_range(face, start, name):
    glyphs = b""
    ascender = round(face.size.ascender / 64)
    for code in range(start, start + 256):
        if face.get_char_index(code) == 0:
            continue
        face.load_char(code, freetype.FT_LOAD_RENDER | freetype.FT_LOAD_NO_HINTING)
        slot = face.glyph
        bitmap = slot.bitmap
        width, height = bitmap.width, bitmap.rows
        message = field(1, 0, code)
        if width > 0 and height > 0:
            pixels = np.array(bitmap.buffer, dtype=np.uint8).reshape(height, bitmap.pitch)[:, :width]
            padded = np.zeros((height + 2 * BUFFER, width + 2 * BUFFER), dtype=np.uint8)
            padded[BUFFER:BUFFER + height, BUFFER:BUFFER + width] = pixels
            message += field(2, 2, sdf(padded).tobytes())
        message += field(3, 0, width) + field(4, 0, height)
        message += field(5, 0, zigzag(slot.bitmap_left)) + field(6, 0, zigzag(slot.bitmap_top - ascender))
        message += field(7, 0, slot.advance.x >> 6)
        glyphs += field(3, 2, message)
    stack = field(1, 2, name.encode()) + field(2, 2, f"{start}-{start + 255}".encode()) + glyphs
    return field(1, 2, stack)


def main():
    output, stacks = sys.argv[1], sys.argv[2:]
    for stack in stacks:
        names = stack.split(",")
        path, _ = next(((p, m) for p, m in map(font_file, names) if m), font_file(names[-1]))
        face = freetype.Face(path)
        face.set_pixel_sizes(0, SIZE)
        folder = os.path.join(output, stack)
        os.makedirs(folder, exist_ok=True)
        for start in RANGES:
            with open(os.path.join(folder, f"{start}-{start + 255}.pbf"), "wb") as file:
                file.write(glyph_range(face, start, stack))
        print(f"glyphs: {stack}: {os.path.basename(path)}")


if __name__ == "__main__":
    main()
