"""Debian's headless chromium driven through the DevTools protocol, for the scripts that check
Mapwright's web viewer (viewer-check.py) and compare GL JS's drawing with Mapwright's
(gl-compare.py). Needs python3-websocket (Debian).

The browser draws WebGL on the CPU through SwiftShader (ANGLE's Vulkan back end), asked for
explicitly with --use-angle=swiftshader --enable-unsafe-swiftshader: no GPU is needed or used.
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
import urllib.request

import websocket

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def fail(reason):
    """Prints {"error": reason} as the script's one line of JSON and exits 1."""
    print(json.dumps({"error": reason}))
    sys.exit(1)


class Browser:
    """One headless chromium with a throwaway profile and its first page, a fixed width x height
    view at device scale 1. Steps that fail call fail() after closing the browser."""

    def __init__(self, width=1000, height=700):
        if not os.path.exists(CHROMIUM):
            fail(f"{CHROMIUM} is missing: run scripts/setup.sh (Debian's chromium)")
        self.profile = tempfile.mkdtemp(prefix="mapwright-chromium-")
        self.process = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
             f"--window-size={width},{height}", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
             "about:blank"],
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
        self.call("Page.enable")
        # A fixed view whatever the window's frame takes.
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

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
        """The first truthy value of expression, polled every 0.2 s; fail() after seconds."""
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

    def drag(self, start, end, button="right", steps=10):
        """A mouse drag with button held from start to end, in page pixels, in steps moves."""
        buttons = {"left": 1, "right": 2, "middle": 4}[button]
        (x0, y0), (x1, y1) = start, end
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x0, y=y0)
        self.call("Input.dispatchMouseEvent", type="mousePressed", x=x0, y=y0, button=button, buttons=buttons, clickCount=1)
        for step in range(1, steps + 1):
            x, y = x0 + (x1 - x0) * step / steps, y0 + (y1 - y0) * step / steps
            self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button=button, buttons=buttons)
            time.sleep(0.03)
        self.call("Input.dispatchMouseEvent", type="mouseReleased", x=x1, y=y1, button=button, buttons=0, clickCount=1)

    def screenshot(self, path):
        """The page as a PNG at path."""
        shot = self.call("Page.captureScreenshot", format="png")
        with open(path, "wb") as handle:
            handle.write(base64.b64decode(shot["data"]))

    def close(self):
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


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
