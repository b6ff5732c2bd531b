"""The server's raster tiles of a view asked for until they are drawn, for the scripts that draw
served styles in GL clients (gl-capture.py, native-capture.py). Standard library only."""
import json
import math
import time
import urllib.error
import urllib.parse
import urllib.request


def warm(view, seconds=120):
    """Asks the server for the raster tiles of view (the style's raster sources, as GL JS will
    at that zoom) until each is the tile itself: not 503 and not a stand-in (`X-Tile-Stand-In`,
    a parent tile enlarged while the tile is drawn), so GL JS then gets the drawn tiles. A loaded
    server answers with stand-ins and 503 rather than keep a client waiting; GL JS keeps those."""
    def get(url):
        with urllib.request.urlopen(url, timeout=seconds) as response:
            return json.load(response)
    style = get(view["url"] + "styles/" + urllib.parse.quote(view["style"]) + "/style.json")
    longitude, latitude = view["center"]
    width, height = view["size"]
    for source in style.get("sources", {}).values():
        if source.get("type") != "raster":
            continue
        tiles = source.get("tiles") or get(source["url"]).get("tiles", [])
        if not tiles or not tiles[0].startswith(view["url"]):
            continue
        size = source.get("tileSize", 512)
        zoom = round(view["zoom"] + math.log2(512 / size))
        world = size * 2 ** zoom
        x = (longitude + 180) / 360 * world
        y = (1 - math.log(math.tan(math.radians(latitude)) + 1 / math.cos(math.radians(latitude))) / math.pi) / 2 * world
        for tx in range(int((x - width / 2) // size), int((x + width / 2) // size) + 1):
            for ty in range(int((y - height / 2) // size), int((y + height / 2) // size) + 1):
                url = tiles[0].replace("{z}", str(zoom)).replace("{x}", str(tx % 2 ** zoom)).replace("{y}", str(ty))
                deadline = time.time() + seconds
                while True:
                    try:
                        with urllib.request.urlopen(url, timeout=seconds) as response:
                            if response.headers.get("X-Tile-Stand-In") is None:
                                break
                    except urllib.error.HTTPError as error:
                        if error.code != 503:
                            break
                    if time.time() > deadline:
                        raise RuntimeError(f"{url}: still not drawn after {seconds} s")
                    time.sleep(0.5)
