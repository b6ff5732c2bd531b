#!/usr/bin/python3
"""Drives Mapwright's web viewer in Debian's headless chromium through the DevTools protocol.

Usage: viewer-check.py [--gl] URL SCREENSHOT.png

Opens URL (a running `mapwright serve`'s page; with --gl, the page's GL mode, so URL ends in
`?gl`), waits until the map has drawn (Leaflet: tiles loaded; GL: MapLibre's `idle`) and photo
markers are on it, clicks a cluster and waits for the map to zoom to the cluster's expansion zoom
(GL: that zoom - 1, MapLibre's zoom of the same scale), then zooms in until a photo marker shows,
clicks it and waits for its popup and thumbnail, takes a screenshot of the page with the popup
open (with --gl, then drags with the right button, which turns and tilts the map), and prints one JSON object with what it saw (including whether anything set
`window.__mapwrightInjected`, which elements the popup holds and, with --gl, the messages of
MapLibre's `error` events). Exits 1 with a one-line reason when a step does not happen within its
time limit. Needs python3-websocket (Debian).
"""
import json
import os
import sys
import time

import websocket

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chromium import Browser, centre_expression, fail  # noqa: E402

# What differs between the modes: how drawing is seen to be done, which elements are markers,
# photos and popups, the zoom a cluster's click leads to, and how to zoom in one step.
MODES = {
    "leaflet": {
        "drawn": "document.querySelectorAll('img.leaflet-tile-loaded').length > 0",
        "all drawn": "Array.from(document.querySelectorAll('img.leaflet-tile')).every(t => t.classList.contains('leaflet-tile-loaded'))",
        "marker": ".leaflet-marker-icon",
        "photo": "img.mw-photo",
        "popup": ".leaflet-popup-content",
        "zoom offset": 0,
        "zoom in": "window.mapwright.map.setZoom(window.mapwright.map.getZoom() + 1, {animate: false})",
        "settled": "true",
    },
    "gl": {
        "drawn": "window.mapwright && window.mapwright.map && window.mapwright.idle",
        "all drawn": "window.mapwright.idle",
        "marker": ".maplibregl-marker",
        "photo": ".mw-photo",
        "popup": ".maplibregl-popup-content",
        "zoom offset": -1,
        "zoom in": "window.mapwright.map.jumpTo({zoom: window.mapwright.map.getZoom() + 1})",
        "settled": "!window.mapwright.map.isMoving()",
    },
}


def main():
    arguments = sys.argv[1:]
    gl = "--gl" in arguments
    arguments = [a for a in arguments if a != "--gl"]
    if len(arguments) != 2:
        fail("usage: viewer-check.py [--gl] URL SCREENSHOT.png")
    url, screenshot = arguments
    mode = MODES["gl" if gl else "leaflet"]
    browser = Browser()
    seen = {}
    try:
        browser.call("Page.navigate", url=url)
        browser.wait_for(mode["drawn"], "the map to draw", 90)
        browser.wait_for(f"window.mapwright && window.mapwright.ready && document.querySelectorAll('{mode['marker']}').length > 0",
                         "photo markers")
        seen["mode"] = browser.evaluate("window.mapwright.mode")
        if gl:
            seen["style"] = browser.evaluate("window.mapwright.style")
            seen["renderer"] = browser.evaluate("""(function () {
                const gl = window.mapwright.map.painter.context.gl;
                const info = gl.getExtension('WEBGL_debug_renderer_info');
                return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
            })()""")
            seen["canvas"] = browser.evaluate("[window.mapwright.map.getCanvas().width, window.mapwright.map.getCanvas().height]")
            seen["navigation"] = browser.evaluate("!!document.querySelector('.maplibregl-ctrl-compass')")
        else:
            seen["tilesLoaded"] = browser.evaluate("document.querySelectorAll('img.leaflet-tile-loaded').length")
            seen["attribution"] = browser.evaluate("document.querySelector('.leaflet-control-attribution').textContent")
            seen["layers"] = browser.evaluate(
                "Array.from(document.querySelectorAll('.leaflet-control-layers-base label, .leaflet-control-layers-overlays label')).map(l => l.textContent.trim())")
            seen["links"] = browser.evaluate("Array.from(document.querySelectorAll('.mw-links a')).map(a => a.getAttribute('href'))")
        seen["modeLinks"] = browser.evaluate("Array.from(document.querySelectorAll('.mw-mode a')).map(a => a.getAttribute('href'))")
        seen["clusters"] = browser.evaluate("document.querySelectorAll('.mw-cluster').length")
        seen["photos"] = browser.evaluate(f"document.querySelectorAll('{mode['photo']}').length")
        seen["zoomBefore"] = browser.evaluate("window.mapwright.map.getZoom()")

        if seen["clusters"] > 0:
            x, y = browser.wait_for(f"({centre_expression('.mw-cluster')})", "a cluster not covered by another", 20)
            # The cluster at that point, which the click reaches.
            cluster = browser.evaluate(f"""(function () {{
                const bubble = document.elementFromPoint({x}, {y}).closest('.mw-cluster');
                return {{id: bubble.dataset.clusterId, expansionZoom: Number(bubble.dataset.expansionZoom), text: bubble.textContent}};
            }})()""")
            seen["clickedCluster"] = cluster
            browser.click(x, y)
            target = cluster["expansionZoom"] + mode["zoom offset"]
            browser.wait_for(f"{mode['settled']} && Math.abs(window.mapwright.map.getZoom() - {target}) < 1e-6",
                             "the zoom to the cluster's expansion zoom", 20)
            seen["zoomAfterClusterClick"] = round(browser.evaluate("window.mapwright.map.getZoom()"), 6)

        # Zoom in until a photo marker shows (clusters split), then click it.
        for _ in range(20):
            browser.wait_for(f"window.mapwright.ready && {mode['settled']}", "markers after moving")
            if browser.evaluate(centre_expression(mode["photo"])):
                break
            browser.evaluate(f"window.mapwright.ready = false; {mode['zoom in']}; true")
            time.sleep(0.3)
        x, y = browser.wait_for(f"({centre_expression(mode['photo'])})", "a photo marker not covered by another", 20)
        browser.click(x, y)
        popup = browser.wait_for(f"""(function () {{
            const box = document.querySelector('{mode['popup']} .mw-callout');
            if (!box) return null;
            const subtitle = box.querySelector('.mw-subtitle');
            return {{title: box.querySelector('.mw-title').textContent, subtitle: subtitle ? subtitle.textContent : null,
                    thumbnail: box.querySelector('img').getAttribute('src'), link: box.querySelector('a').getAttribute('href')}};
        }})()""", "the photo's popup", 20)
        # The thumbnail is fetched when the popup opens.
        browser.wait_for(f"(function () {{ const i = document.querySelector('{mode['popup']} img'); return i && i.complete && i.naturalWidth > 0; }})()",
                         "the popup's thumbnail", 20)
        popup["thumbnailLoaded"] = True
        seen["popup"] = popup
        # What a hostile photo title could have done if the page took it as HTML: a test gives
        # photos titles that set window.__mapwrightInjected or add elements.
        seen["injected"] = browser.evaluate("window.__mapwrightInjected === undefined ? null : String(window.__mapwrightInjected)")
        seen["elementsInPopup"] = browser.evaluate(
            f"Array.from(document.querySelectorAll('{mode['popup']} *')).map(e => e.tagName.toLowerCase())")
        # Everything of the view drawn (Leaflet fades tiles in over 0.2 s).
        browser.wait_for(mode["all drawn"], "every tile of the view", 60)
        time.sleep(0.5)
        if gl:
            seen["errors"] = browser.evaluate("window.mapwright.errors")
        browser.screenshot(screenshot)
        seen["screenshot"] = screenshot
        if gl:
            # Rotation and tilt with the mouse: a drag with the right button (GL JS's defaults).
            # From a point of bare map (no marker, popup or control on it) up and to the right.
            x, y = browser.evaluate("""(function () {
                const canvas = window.mapwright.map.getCanvas();
                for (let y = 600; y > 200; y -= 50) for (let x = 100; x < 800; x += 50) {
                    if (document.elementFromPoint(x, y) === canvas && document.elementFromPoint(x + 150, y - 100) === canvas) return [x, y];
                }
                return [500, 450];
            })()""")
            browser.drag((x, y), (x + 150, y - 100))
            browser.wait_for("!window.mapwright.map.isMoving()", "the map to settle after the drag", 20)
            seen["afterRightDrag"] = browser.evaluate(
                "({bearing: window.mapwright.map.getBearing(), pitch: window.mapwright.map.getPitch()})")
    except (RuntimeError, websocket.WebSocketException, OSError) as error:
        browser.close()
        fail(str(error).splitlines()[0])
    browser.close()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
