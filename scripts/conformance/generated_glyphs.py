"""The GL render-test suite's text tests (those whose style has a `text-field`) run twice by the
conformance runner: with the suite's glyphs folder, and with glyphs `mapwright serve` generates from
the installed fonts (its /fonts/{fontstack}/{range}.pbf, FontGlyphs) in place of it; prints how many
pass each way and the tests whose verdicts differ.

The generated folder holds the same stacks and ranges as the suite's, each fetched from serve by
the stack's folder name: `Open Sans Semibold,Arial Unicode MS Bold` is the installed Open Sans
Semibold (Arial Unicode MS, not free, is not installed: its Arabic and CJK glyphs, which the suite
takes from it, are missing, an expected difference), `NotoCJK` serve's fallback face (Noto Sans
Regular, no CJK: expected too). Each run reads a copy of the suite made of links, holding the
text tests only and one glyphs folder, so the runner itself is unchanged.

Measured 2026-12-05 (debug build), with FontGlyphs drawing glyphs as the suite's generator did
(FreeType's bitmap and an anti-aliased distance transform): of the 238 text tests, 164 pass with
the suite's glyphs, 115 with generated ones, none the other way (with distances measured to the
outline, as node-fontnik now does, 101). Of the 49 that then fail, 14 draw the `NotoCJK` stack
(expected: Noto Sans CJK is not installed, so serve's fallback, Noto Sans Regular, draws them,
without CJK glyphs); the 35 others draw `Open Sans Semibold,Arial Unicode MS Bold` text holding
one of the five glyphs of one straight stroke (`-`, `I`, `_`, `l`, `|`), the only ASCII glyphs
whose bytes differ from the suite's (by 2.5-4.8 on average: the suite's bitmaps of them read as
if FreeType's rasterizer then gave their inner pixels a coverage just under full; the other 89
ASCII glyphs are equal or within 0.1, FontGlyphsTests), by 0.018-0.5% of pixels against GL's
0.015% allowance.

Usage: python3 scripts/conformance/generated_glyphs.py [--keep DIR]
  (uses .build/debug/mapwright and .build/debug/RenderConformance; MAPWRIGHT_BIN and
  MAPWRIGHT_RUNNER override them; the suite is scripts/conformance/get-suite.sh's)
"""
import json
import os
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "reliability"))
from serving import start_serve  # noqa: E402


def text_tests(suite):
    """The ids (category/test) of the render tests whose style has a layer with a `text-field`."""
    tests = []
    root = os.path.join(suite, "render", "tests")
    for folder, _, files in os.walk(root):
        if "style.json" not in files:
            continue
        with open(os.path.join(folder, "style.json")) as file:
            style = json.load(file)
        layers = style.get("layers", [])
        if any("text-field" in (layer.get("layout") or {}) for layer in layers if isinstance(layer, dict)):
            tests.append(os.path.relpath(folder, root))
    return sorted(tests)


def font_stacks(suite, test):
    """The `text-font` stacks a test's style names (literal ones), joined as GL names them."""
    with open(os.path.join(suite, "render", "tests", test, "style.json")) as file:
        style = json.load(file)
    stacks = set()
    for layer in style.get("layers", []):
        fonts = (layer.get("layout") or {}).get("text-font") if isinstance(layer, dict) else None
        if isinstance(fonts, list) and all(isinstance(font, str) for font in fonts):
            stacks.add(",".join(fonts))
        elif fonts is not None:
            stacks.add("(an expression)")
    return sorted(stacks) or ["(the default stack)"]


def shadow_suite(suite, glyphs, tests, destination):
    """A copy of `suite` made of links: its folders but `render` and `glyphs`, `glyphs` linked to
    `glyphs`, and `render/tests` holding only `tests` (real folders of linked files, which the
    runner's folder walk enters)."""
    os.makedirs(destination)
    for entry in os.listdir(suite):
        if entry not in ("render", "glyphs"):
            os.symlink(os.path.join(suite, entry), os.path.join(destination, entry))
    os.symlink(glyphs, os.path.join(destination, "glyphs"))
    for test in tests:
        source = os.path.join(suite, "render", "tests", test)
        target = os.path.join(destination, "render", "tests", test)
        os.makedirs(target)
        for entry in os.listdir(source):
            os.symlink(os.path.join(source, entry), os.path.join(target, entry))


def generate_glyphs(mapwright, suite, destination):
    """Every range file of the suite's glyphs folder fetched from serve by its stack folder's name
    into the same place under `destination`; returns the files serve did not answer."""
    server, port, warnings = start_serve(mapwright, [], cwd=ROOT)
    if port is None:
        raise SystemExit("serve did not start: " + " | ".join(warnings))
    missing = []
    try:
        source_root = os.path.join(suite, "glyphs")
        for folder, _, files in os.walk(source_root):
            for name in sorted(files):
                if not name.endswith(".pbf"):
                    continue
                relative = os.path.relpath(os.path.join(folder, name), source_root)
                stack = os.path.basename(folder)
                url = f"http://127.0.0.1:{port}/fonts/{urllib.parse.quote(stack)}/{name}"
                try:
                    data = urllib.request.urlopen(url).read()
                except Exception as error:
                    missing.append(f"{relative}: {error}")
                    continue
                os.makedirs(os.path.dirname(os.path.join(destination, relative)), exist_ok=True)
                with open(os.path.join(destination, relative), "wb") as file:
                    file.write(data)
    finally:
        server.terminate()
        server.wait()
    return missing


def failures(runner, suite, work, label):
    """The runner's failing tests of `suite` (test id: reason), read from the ignore list
    --update-ignores writes."""
    ignores = os.path.join(work, f"failures-{label}.txt")
    subprocess.run([runner, suite, "--ignores", ignores, "--update-ignores", "--basemap",
                    os.path.join(ROOT, "Tiles", "basemap")], check=True, stdout=subprocess.DEVNULL)
    failed = {}
    with open(ignores) as file:
        for line in file:
            if line.startswith("#") or not line.strip():
                continue
            test, _, reason = line.rstrip("\n").partition(" ")
            failed[test] = reason.strip()
    return failed


def main():
    keep = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--keep" else None
    mapwright = os.environ.get("MAPWRIGHT_BIN", os.path.join(ROOT, ".build", "debug", "mapwright"))
    runner = os.environ.get("MAPWRIGHT_RUNNER", os.path.join(ROOT, ".build", "debug", "RenderConformance"))
    suite = subprocess.run(["bash", os.path.join(ROOT, "scripts", "conformance", "get-suite.sh")],
                           check=True, capture_output=True, text=True).stdout.strip()
    work = keep or tempfile.mkdtemp(prefix="mapwright-generated-glyphs-")
    tests = text_tests(suite)
    generated = os.path.join(work, "generated-glyphs")
    missing = generate_glyphs(mapwright, suite, generated)
    for line in missing:
        print(f"not generated: {line}")
    shadow_suite(suite, os.path.join(suite, "glyphs"), tests, os.path.join(work, "shipped"))
    shadow_suite(suite, generated, tests, os.path.join(work, "generated"))
    shipped_failures = failures(runner, os.path.join(work, "shipped"), work, "shipped")
    generated_failures = failures(runner, os.path.join(work, "generated"), work, "generated")
    print(f"text tests: {len(tests)}")
    print(f"pass with the suite's glyphs: {len(tests) - len(shipped_failures)}")
    print(f"pass with generated glyphs:  {len(tests) - len(generated_failures)}")
    for test in tests:
        before, after = test in shipped_failures, test in generated_failures
        if before != after:
            print(f"{'fails' if after else 'passes'} only with generated glyphs: {test} "
                  f"[{' | '.join(font_stacks(suite, test))}]: "
                  f"{generated_failures.get(test) or shipped_failures.get(test)}")
    print(f"work folder: {work}")


if __name__ == "__main__":
    main()
