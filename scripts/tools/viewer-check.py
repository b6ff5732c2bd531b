#!/usr/bin/python3
"""Drives Mapwright's web viewer in Debian's headless chromium through the DevTools protocol.

Usage: viewer-check.py URL SCREENSHOT.png

Opens URL (a running `mapwright serve`), waits until map tiles have loaded and photo markers are
on the map, clicks a cluster and waits for the map to zoom to the cluster's expansion zoom, then
zooms in until a photo marker shows, clicks it and waits for its popup, takes a screenshot of the
page with the popup open, and prints one JSON object with what it saw (including whether anything
set `window.__mapwrightInjected` and which elements the popup holds). Exits 1 with a one-line
reason when a step does not happen within its time limit. Needs python3-websocket (Debian).
"""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import websocket

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def fail(reason):
    print(json.dumps({"error": reason}))
    sys.exit(1)


class Browser:
    def __init__(self):
        if not os.path.exists(CHROMIUM):
            fail(f"{CHROMIUM} is missing: run scripts/setup.sh (Debian's chromium)")
        self.profile = tempfile.mkdtemp(prefix="mapwright-chromium-")
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--hide-scrollbars", "--window-size=1000,700",
             "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if time.time() > deadline or self.process.poll() is not None:
                self.close()
                fail("chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        port = open(port_file).read().split()[0]
        # The first page target.
        import urllib.request
        deadline = time.time() + 10
        while True:
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
            pages = [t for t in targets if t.get("type") == "page"]
            if pages:
                break
            if time.time() > deadline:
                self.close()
                fail("chromium has no page")
            time.sleep(0.1)
        self.socket = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=120)
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        message_id = self.next_id
        self.socket.send(json.dumps({"id": message_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == message_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, what, seconds=60):
        deadline = time.time() + seconds
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.2)
        self.close()
        fail(f"timed out after {seconds} s waiting for {what}")

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def close(self):
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def centre(browser, selector):
    return browser.evaluate(centre_expression(selector))


def centre_expression(selector):
    """The centre, in page pixels, of the first element matching selector that is the topmost
    element at its centre inside the window (not under another marker or a control), or None."""
    return f"""(function () {{
        for (const element of document.querySelectorAll({json.dumps(selector)})) {{
            const box = element.getBoundingClientRect();
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
            const top = document.elementFromPoint(x, y);
            if (top === element || element.contains(top)) return [x, y];
        }}
        return null;
    }})()"""


def main():
    if len(sys.argv) != 3:
        fail("usage: viewer-check.py URL SCREENSHOT.png")
    url, screenshot = sys.argv[1], sys.argv[2]
    browser = Browser()
    seen = {}
    try:
        browser.call("Page.enable")
        # A fixed 1000 x 700 view whatever the window's frame takes.
        browser.call("Emulation.setDeviceMetricsOverride", width=1000, height=700, deviceScaleFactor=1, mobile=False)
        browser.call("Page.navigate", url=url)
        browser.wait_for("document.querySelectorAll('img.leaflet-tile-loaded').length > 0", "map tiles to load")
        browser.wait_for("window.mapwright && window.mapwright.ready && document.querySelectorAll('.leaflet-marker-icon').length > 0",
                         "photo markers")
        seen["tilesLoaded"] = browser.evaluate("document.querySelectorAll('img.leaflet-tile-loaded').length")
        seen["clusters"] = browser.evaluate("document.querySelectorAll('.mw-cluster').length")
        seen["photos"] = browser.evaluate("document.querySelectorAll('img.mw-photo').length")
        seen["zoomBefore"] = browser.evaluate("window.mapwright.map.getZoom()")
        seen["attribution"] = browser.evaluate("document.querySelector('.leaflet-control-attribution').textContent")
        seen["layers"] = browser.evaluate(
            "Array.from(document.querySelectorAll('.leaflet-control-layers-base label, .leaflet-control-layers-overlays label')).map(l => l.textContent.trim())")
        seen["links"] = browser.evaluate("Array.from(document.querySelectorAll('.mw-links a')).map(a => a.getAttribute('href'))")

        if seen["clusters"] > 0:
            cluster = browser.evaluate("""(function () {
                const bubble = document.querySelector('.mw-cluster');
                return {id: bubble.dataset.clusterId, expansionZoom: Number(bubble.dataset.expansionZoom), text: bubble.textContent};
            })()""")
            seen["clickedCluster"] = cluster
            x, y = browser.wait_for(f"({centre_expression('.mw-cluster')})", "a cluster not covered by another", 20)
            browser.click(x, y)
            browser.wait_for(f"window.mapwright.map.getZoom() === {cluster['expansionZoom']}", "the zoom to the cluster's expansion zoom", 20)
            seen["zoomAfterClusterClick"] = browser.evaluate("window.mapwright.map.getZoom()")

        # Zoom in until a photo marker shows (clusters split), then click it.
        for _ in range(20):
            browser.wait_for("window.mapwright.ready", "markers after moving")
            if browser.evaluate(centre_expression("img.mw-photo")):
                break
            browser.evaluate("window.mapwright.ready = false; window.mapwright.map.setZoom(window.mapwright.map.getZoom() + 1, {animate: false}); true")
            time.sleep(0.3)
        point = browser.wait_for(f"({centre_expression('img.mw-photo')})", "a photo marker not covered by another", 20)
        x, y = point
        browser.click(x, y)
        popup = browser.wait_for("""(function () {
            const box = document.querySelector('.leaflet-popup-content .mw-callout');
            if (!box) return null;
            const subtitle = box.querySelector('.mw-subtitle');
            return {title: box.querySelector('.mw-title').textContent, subtitle: subtitle ? subtitle.textContent : null,
                    thumbnail: box.querySelector('img').getAttribute('src'), link: box.querySelector('a').getAttribute('href'),
                    thumbnailLoaded: box.querySelector('img').complete && box.querySelector('img').naturalWidth > 0};
        })()""", "the photo's popup", 20)
        # The thumbnail is fetched when the popup opens: give it a moment, then look again.
        browser.wait_for("(function () { const i = document.querySelector('.leaflet-popup-content img'); return i && i.complete && i.naturalWidth > 0; })()",
                         "the popup's thumbnail", 20)
        popup["thumbnailLoaded"] = True
        seen["popup"] = popup
        # What a hostile photo title could have done if the page took it as HTML: a test gives
        # photos titles that set window.__mapwrightInjected or add elements.
        seen["injected"] = browser.evaluate("window.__mapwrightInjected === undefined ? null : String(window.__mapwrightInjected)")
        seen["elementsInPopup"] = browser.evaluate(
            "Array.from(document.querySelectorAll('.leaflet-popup-content *')).map(e => e.tagName.toLowerCase())")
        # Every tile in place and faded in (Leaflet fades tiles over 0.2 s).
        browser.wait_for("Array.from(document.querySelectorAll('img.leaflet-tile')).every(t => t.classList.contains('leaflet-tile-loaded'))",
                         "every tile of the view", 20)
        time.sleep(0.5)
        shot = browser.call("Page.captureScreenshot", format="png")
        with open(screenshot, "wb") as handle:
            handle.write(base64.b64decode(shot["data"]))
        seen["screenshot"] = screenshot
    except (RuntimeError, websocket.WebSocketException, OSError) as error:
        browser.close()
        fail(str(error).splitlines()[0])
    browser.close()
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
