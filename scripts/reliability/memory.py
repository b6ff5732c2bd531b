#!/usr/bin/env python3
"""serve's memory ceiling under uncached load (issue 52), and the soak.

    python3 scripts/reliability/memory.py MAPWRIGHT [--seconds 40] [--limit 512] [--soak]

Starts `mapwright serve --style standard --photos Samples/photos` (its default --memory-limit
512, or --limit) and loads it for SECONDS with wrk at 32 connections asking uncached static maps
(600x400 @2x at zooms 3-8, random centres) and uncached style tiles at zooms 8-10, while a viewer
asks one uncached tile at a time. Prints the kernel's high-water mark of serve's resident memory
(VmHWM, not samples) against the limit, wrk's figures, and the viewer's p50 and p99; exits 1 when
the peak passes the limit or the viewer's p99 passes 0.5 s.

--soak runs 10 minutes (or SECONDS) with the same load plus a tileset replaced by rename every 5 s
and photos added to a served library every second, sampling VmRSS every second; it fails when
RSS grows 20 MiB or more over the last 5 minutes (a leak), or when anything is lost (an answer
other than 200, 304 or a deliberate 503; an added photo missing from the annotations).
"""

import argparse
import json
import math
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from serving import start_serve

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as status:
        return int(next(line for line in status if line.startswith(field + ":")).split()[1])


def tile_at(lon, lat, z):
    s = math.sin(math.radians(lat))
    x = int((lon + 180) / 360 * 2 ** z)
    y = int((0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * 2 ** z)
    return z, min(x, 2 ** z - 1), min(max(y, 0), 2 ** z - 1)


def load_paths(count, rng):
    """Uncached static maps and tiles, random over the land-heavy middle latitudes."""
    paths = []
    for _ in range(count):
        lon, lat = rng.uniform(-125, 145), rng.uniform(-40, 65)
        if rng.random() < 0.5:
            paths.append(f"/styles/standard/static/{lon:.4f},{lat:.4f},{rng.randint(3, 8)}/600x400@2x.png")
        else:
            z, x, y = tile_at(lon, lat, rng.randint(8, 10))
            paths.append(f"/styles/standard/{z}/{x}/{y}.png")
    return paths


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mapwright")
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--limit", type=int, default=512)
    parser.add_argument("--soak", action="store_true")
    options = parser.parse_args()
    seconds = options.seconds or (600 if options.soak else 40)
    rng = random.Random(52)
    work = tempfile.mkdtemp(prefix="mapwright-memory-")
    try:
        arguments = ["--style", "standard", "--photos", "Samples/photos", "--cache", f"{work}/cache/serve.mbtiles",
                     "--memory-limit", str(options.limit), "--log-level", "warning"]
        library = tileset = None
        if options.soak:
            tileset = f"{work}/served.mbtiles"
            subprocess.run([options.mapwright, "tiles", "export", "--bbox", "-10,35,30,60", "--zoom", "0-4", "-o",
                            tileset], check=True, capture_output=True, cwd=ROOT)
            library = f"{work}/library.sqlite"
            subprocess.run([options.mapwright, "photos", "import", "Samples/photos", "--library", library], check=True,
                           capture_output=True, cwd=ROOT)
            arguments = ["--style", "standard", "--library", library, "--tiles", tileset, "--cache",
                         f"{work}/cache/serve.mbtiles", "--memory-limit", str(options.limit), "--log-level", "warning"]
        os.makedirs(f"{work}/cache")
        log = []
        server, port, said = start_serve(options.mapwright, arguments, log, cwd=ROOT)
        if port is None:
            raise SystemExit(f"memory.py: serve did not start: {' '.join(said)}")
        base = f"http://127.0.0.1:{port}"
        with open(f"{work}/paths.txt", "w") as listing:
            listing.write("\n".join(load_paths(200_000, rng)) + "\n")
        stop = threading.Event()
        viewer = []
        viewer_failures = []

        def view():
            # One uncached tile at a time, as a person panning a map.
            own = random.Random(7)
            while not stop.is_set():
                z, x, y = tile_at(own.uniform(-125, 145), own.uniform(-40, 65), own.randint(8, 10))
                start = time.perf_counter()
                try:
                    with urllib.request.urlopen(f"{base}/styles/standard/{z}/{x}/{y}.png", timeout=60) as answer:
                        answer.read()
                except urllib.error.HTTPError as error:
                    if error.code != 503:
                        viewer_failures.append(error.code)
                except Exception as error:
                    viewer_failures.append(str(error))
                viewer.append(time.perf_counter() - start)
                time.sleep(0.05)

        samples = []

        def sample():
            while not stop.is_set():
                samples.append((time.perf_counter(), status_kib(server.pid, "VmRSS") // 1024))
                time.sleep(0.2 if not options.soak else 1)

        writers = {"replaced": 0, "added": 0, "failures": []}

        def replace_tileset():
            while not stop.wait(5):
                fresh = f"{work}/fresh.mbtiles"
                shutil.copyfile(tileset, fresh)
                os.rename(fresh, tileset)
                writers["replaced"] += 1

        def add_photos():
            images = sorted(os.path.join(r, n) for r, _, files in os.walk(os.path.join(ROOT, "Samples/photos"))
                            for n in files if n.lower().endswith(".jpg"))
            while not stop.wait(1):
                result = subprocess.run([options.mapwright, "photos", "add", "--library", library, "--image",
                                         rng.choice(images), "--title", f"soak {writers['added']}", "--at",
                                         f"{rng.uniform(-40, 60):.4f},{rng.uniform(-120, 140):.4f}"],
                                        capture_output=True, text=True, cwd=ROOT)
                if result.returncode == 0:
                    writers["added"] += 1
                else:
                    writers["failures"].append(result.stderr.strip()[:200])

        threads = [threading.Thread(target=view, daemon=True), threading.Thread(target=sample, daemon=True)]
        if options.soak:
            threads += [threading.Thread(target=replace_tileset, daemon=True),
                        threading.Thread(target=add_photos, daemon=True)]
        for thread in threads:
            thread.start()
        started = status_kib(server.pid, "VmRSS") // 1024
        wrk = subprocess.run(["wrk", "-t2", "-c32", f"-d{int(seconds)}s", "--timeout", "60s", "-s",
                              os.path.join(HERE, "load.lua"), base], capture_output=True, text=True,
                             env={**os.environ, "PATHS": f"{work}/paths.txt"})
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
        peak = status_kib(server.pid, "VmHWM") // 1024
        problems = []
        result = next((l.split()[1:] for l in wrk.stdout.splitlines() if l.startswith("RESULT")), None)
        if result is None:
            problems.append(f"wrk failed: {wrk.stdout[-300:]} {wrk.stderr[-300:]}")
        else:
            requests, rate, p50, p99 = int(result[0]), float(result[1]), float(result[2]), float(result[3])
            ok, refused, server_errors, client_errors, busy, socket_errors = map(int, result[4:])
            print(f"wrk, 32 connections, {int(seconds)} s: {requests} requests ({rate:.1f}/s), p50 {p50:.0f} ms, "
                  f"p99 {p99:.0f} ms; {ok} answered, {refused} deliberate 503s, {server_errors} other 5xx, "
                  f"{client_errors} 4xx, {socket_errors} socket errors")
            if server_errors or client_errors or socket_errors:
                problems.append(f"{server_errors} 5xx, {client_errors} 4xx, {socket_errors} socket errors")
        timings = sorted(viewer)
        if timings:
            viewer_p50 = timings[len(timings) // 2]
            viewer_p99 = timings[min(len(timings) - 1, int(len(timings) * 0.99))]
            print(f"viewer, one uncached tile at a time: {len(timings)} tiles, p50 {viewer_p50 * 1000:.0f} ms, "
                  f"p99 {viewer_p99 * 1000:.0f} ms (goal: p99 <= 500 ms)")
            if viewer_p99 > 0.5:
                problems.append(f"the viewer's p99 is {viewer_p99 * 1000:.0f} ms, over 500 ms")
        if viewer_failures:
            problems.append(f"the viewer got {viewer_failures[:3]}")
        print(f"serve's resident memory: {started} MiB at the start, peak (VmHWM) {peak} MiB, limit {options.limit} MiB; "
              f"every 5 s: {[mib for _, mib in samples][::25 if not options.soak else 5]}")
        if peak > options.limit:
            problems.append(f"the peak, {peak} MiB, is over the {options.limit} MiB limit")
        if options.soak:
            end = samples[-1][0]
            last = [mib for t, mib in samples if t >= end - 300]
            growth = (statistics.median(last[-30:]) - statistics.median(last[:30])) if len(last) >= 60 else 0
            print(f"soak: RSS every minute {[mib for t, mib in samples][::60]}; over the last 5 minutes it grew "
                  f"{growth:.0f} MiB (medians of its first and last 30 s); {writers['replaced']} tileset replacements, "
                  f"{writers['added']} photos added")
            if growth >= 20:
                problems.append(f"RSS grew {growth:.0f} MiB over the last 5 minutes")
            if writers["failures"]:
                problems.append(f"photos add failed: {writers['failures'][:2]}")
            expected = sqlite3.connect(f"file:{library}?mode=ro", uri=True).execute(
                "SELECT count(*) FROM photos").fetchone()[0]
            total = 0
            for _ in range(100):
                features = json.load(urllib.request.urlopen(f"{base}/annotations.json?bbox=-180,-85,180,85&zoom=0"))
                total = sum(f["properties"].get("point_count", 1) for f in features["features"])
                if total == expected:
                    break
                time.sleep(0.1)
            if total != expected:
                problems.append(f"the annotations count {total} photos, the library {expected}")
        server.terminate()
        server.wait()
        for problem in problems:
            print(f"FAILED: {problem}")
        if any("error" in line.lower() for line in log):
            print("serve logged:", [l.strip() for l in log if "error" in l.lower()][:5])
        return 1 if problems else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
