#!/usr/bin/python3
"""Draws views of a running `mapwright serve`'s styles in MapLibre GL JS, the web viewer's GL mode
(`?gl&style=NAME`), in Debian's headless chromium (WebGL through SwiftShader), and writes each as
a PNG of the map's canvas, for a test to compare with `mapwright render` of the same view.

Usage: gl-capture.py VIEWS.json FOLDER

VIEWS.json is a list of views, each {"url": THE SERVER'S PAGE (http://127.0.0.1:PORT/),
"style": NAME, "zoom": MAPLIBRE_ZOOM, "center": [LON, LAT], "size": [WIDTH, HEIGHT], "file": NAME.png};
views of one style come one after another in one page load: the page is opened once per style
(the browser once for all, at the first view's size), then for each view the map jumps there
without animation, GL JS's `idle` is waited for, and the canvas is read as it is drawn (inside a
`render` event after a repaint, so no preserveDrawingBuffer is needed). Prints one JSON object:
{"renderer": UNMASKED WEBGL RENDERER, "views": [{"style", "zoom", "file", "errors": [GL JS's error
messages while the view loaded and drew, and for a style's first view while the style loaded],
"seconds": TIME TO IDLE}]}; a view whose style never loads, or that is not idle within 60 s, has
"error" instead of "file". Before each view the server's raster tiles of it are asked for until
they are drawn (see warm()), so GL JS draws them rather than the stand-ins a loaded server
gives. Exits 1 with a one-line reason when the browser or a page fails. Needs python3-websocket (Debian).
"""
import base64
import json
import os
import sys
import time
import urllib.parse

import websocket

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium import Browser, fail  # noqa: E402
from served_tiles import warm  # noqa: E402


def main():
    if len(sys.argv) != 3:
        fail("usage: gl-capture.py VIEWS.json FOLDER")
    views_file, folder = sys.argv[1:]
    views = json.load(open(views_file))
    if not views:
        fail(f"{views_file}: no views")
    width, height = views[0]["size"]
    browser = Browser(width=width, height=height)
    report = {"views": []}
    current_style, style_loaded = None, False
    try:
        for view in views:
            if (view["url"], view["style"]) != current_style:
                current_style = (view["url"], view["style"])
                browser.call("Page.navigate", url=view["url"] + "?gl&style=" + urllib.parse.quote(view["style"]))
                browser.wait_for("!!(window.mapwright && window.mapwright.map)", f"the GL view of {view['style']}", 60)
                # A style GL JS refuses never loads: its views report the errors. Refused is an
                # error other than a resource's (AJAXError) while the style is not loaded.
                deadline = time.time() + 60
                refused = """(function () {
                    const map = window.mapwright.map;
                    return !map.isStyleLoaded() && window.mapwright.errors.some(e => !e.startsWith('AJAXError'));
                })()"""
                while time.time() < deadline and not browser.evaluate("window.mapwright.map.loaded()"):
                    if browser.evaluate(refused):
                        time.sleep(1)
                        if browser.evaluate(refused):
                            break
                    time.sleep(0.2)
                style_loaded = browser.evaluate("window.mapwright.map.loaded()")
                load_errors = browser.evaluate("window.mapwright.errors")
                report.setdefault("renderer", browser.evaluate("""(function () {
                    const gl = window.mapwright.map.painter.context.gl;
                    const info = gl.getExtension('WEBGL_debug_renderer_info');
                    return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
                })()"""))
            if not style_loaded:
                report["views"].append({"style": view["style"], "zoom": view["zoom"], "error": "the style did not load",
                                        "errors": browser.evaluate("window.mapwright.errors")})
                continue
            w, h = view["size"]
            if [w, h] != [width, height]:
                fail("every view must have the first view's size")
            warm(view)
            started = time.time()
            browser.evaluate(f"""(function () {{
                window.mapwright.errors = [];
                window.mapwright.idle = false;
                const map = window.mapwright.map;
                map.jumpTo({{center: {json.dumps(view['center'])}, zoom: {view['zoom']}, bearing: 0, pitch: 0}});
                map.triggerRepaint();
                return true;
            }})()""")
            entry = {"style": view["style"], "zoom": view["zoom"]}
            deadline = time.time() + 60
            while time.time() < deadline and not browser.evaluate(
                    "window.mapwright.idle && window.mapwright.map.loaded() && window.mapwright.map.areTilesLoaded()"):
                time.sleep(0.2)
            entry["seconds"] = round(time.time() - started, 2)
            entry["errors"] = load_errors + browser.evaluate("window.mapwright.errors")
            load_errors = []
            if time.time() >= deadline:
                entry["error"] = "GL JS was not idle after 60 s"
                report["views"].append(entry)
                continue
            data = browser.evaluate("""new Promise(function (resolve) {
                const map = window.mapwright.map;
                map.once('render', function () { resolve(map.getCanvas().toDataURL('image/png')); });
                map.triggerRepaint();
            })""")
            path = os.path.join(folder, view["file"])
            with open(path, "wb") as handle:
                handle.write(base64.b64decode(data.split(",", 1)[1]))
            entry["file"] = path
            report["views"].append(entry)
    except (RuntimeError, websocket.WebSocketException, OSError) as error:
        browser.close()
        fail(str(error).splitlines()[0])
    browser.close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
