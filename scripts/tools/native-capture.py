"""Draws views of running `mapwright serve`s' styles in MapLibre Native (PyPI's mapli, on Mesa's
CPU renderer: run it under `xvfb-run -a`), each style read from the URL a GL client is given
(`SERVER/styles/NAME/style.json`, then its sources, sprite and glyphs from the server as the
style.json names them), and writes each view as a PNG, for a test to compare with
`mapwright render` of the same view. gl-capture.py's sibling, with its arguments and report.

Usage: native-capture.py VIEWS.json FOLDER

VIEWS.json is a list of views, each {"url": THE SERVER'S PAGE (http://127.0.0.1:PORT/), "style":
NAME, "zoom": MAPLIBRE_ZOOM, "center": [LON, LAT], "size": [WIDTH, HEIGHT], "file": NAME.png}.
Before each view the server's raster tiles of it are asked for until they are drawn
(served_tiles.warm), as gl-capture.py does. Prints one JSON object: {"renderer": "MapLibre Native
(mapli VERSION)", "views": [{"style", "zoom", "file", "errors": [], "seconds": TIME]}; a view
MapLibre Native cannot load or draw has "error" (its message) instead of "file". Exits 1 with a
one-line reason when mapli cannot start or a view's tiles are never drawn.
"""
import json
import os
import sys
import time
from importlib import metadata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from served_tiles import warm  # noqa: E402


def fail(reason):
    print(json.dumps({"error": reason}))
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        fail("usage: native-capture.py VIEWS.json FOLDER")
    views_file, folder = sys.argv[1:]
    try:
        import mapli
        pool = mapli.RenderPool(workers=1)
    except Exception as error:  # noqa: BLE001 - any failure to start is one line
        fail(f"MapLibre Native (mapli) cannot start: {error}")
    report = {"renderer": f"MapLibre Native (mapli {metadata.version('mapli')})", "views": []}
    for view in json.load(open(views_file)):
        style_id = view["url"] + view["style"]
        if not pool.has_style(style_id):
            pool.register_style(style_id, url=f"{view['url']}styles/{view['style']}/style.json")
        entry = {"style": view["style"], "zoom": view["zoom"], "errors": []}
        (longitude, latitude), (width, height) = view["center"], view["size"]
        try:
            warm(view)
        except (RuntimeError, OSError) as error:
            fail(str(error))
        started = time.time()
        try:
            png = pool.render(style_id, lon=longitude, lat=latitude, zoom=view["zoom"], width=width, height=height)
        except Exception as error:  # noqa: BLE001 - a style or render error is the view's report
            entry["error"] = f"{type(error).__name__}: {error}"
        else:
            path = os.path.join(folder, view["file"])
            with open(path, "wb") as file:
                file.write(png)
            entry["file"] = path
        entry["seconds"] = round(time.time() - started, 2)
        report["views"].append(entry)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
