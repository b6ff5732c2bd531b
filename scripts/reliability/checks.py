"""Checks 1 to 4 of scripts/reliability.sh (which builds the release binary and runs this, then
the fuzzing of check 5); see that script's header for what each check does.

Usage: checks.py MAPWRIGHT WORK LONG ONLY
  MAPWRIGHT  the release binary
  WORK       an empty folder for the checks' files (the caller removes it)
  LONG       1 for the long form, else 0
  ONLY       the checks to run, as 1,2,3,4

Run from the checkout's root (it reads Samples/ and Tests/Fixtures/). Exits 1 when a check
failed, and a check that cannot run (checks 3 and 3b need root to mount a tmpfs) fails with
the reason: it never passes unrun.
"""
import os, random, signal, sqlite3, subprocess, sys, threading, time
mapwright, work, long_form = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
checks_wanted = set(sys.argv[4].split(","))
def wanted(number): return str(number) in checks_wanted
failures = 0
zooms = "0-8" if long_form else "0-6"
area = ["--bbox", "-25,34,45,72", "--zoom", zooms]
random.seed(15)
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import serving

def start_serve(arguments, log=None):
    """Starts `mapwright serve --port 0 ARGUMENTS` and waits for /health (serving.py)."""
    return serving.start_serve(mapwright, arguments, log)

def mount_tmpfs(name, options):
    """Mounts a tmpfs with OPTIONS at WORK/NAME; returns the folder, or None after printing why
    it could not (not root, or mounting not permitted here). The check then fails: one that did
    not run must not pass."""
    if os.geteuid() != 0:
        print("  FAILED: not run: mounting a tmpfs needs root (CI runs this script as root; run it with sudo)")
        return None
    mount = f"{work}/{name}"
    os.makedirs(mount)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", mount], capture_output=True, text=True)
    if mounted.returncode != 0:
        print(f"  FAILED: not run: mount -t tmpfs -o {options} failed: {mounted.stderr.strip()}")
        return None
    return mount

if wanted(1):
    print(f"\n== 1. crash-safe export: SIGKILL at 20 random moments, then --resume (Europe, zooms {zooms})")
    for extension in ["mbtiles", "pmtiles"]:
        reference = f"{work}/reference.{extension}"
        start = time.perf_counter()
        subprocess.run([mapwright, "tiles", "export", *area, "-o", reference], check=True, capture_output=True)
        full_seconds = time.perf_counter() - start
        output = f"{work}/killed.{extension}"
        kills = 0
        for attempt in range(20):
            moment = random.uniform(0.1, 0.4) * full_seconds
            command = [mapwright, "tiles", "export", *area, "-o", output] + (["--resume"] if os.path.exists(output + ".partial") else [])
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(moment)
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                kills += 1
            process.wait()
            partial = output + ".partial"
            if os.path.exists(partial):
                check = sqlite3.connect(f"file:{partial}?mode=ro", uri=True).execute("PRAGMA integrity_check").fetchone()[0]
                if check != "ok":
                    failures += 1
                    print(f"  {extension}: after kill {attempt + 1} the work file fails integrity_check: {check}")
            if os.path.exists(output) and not os.path.exists(partial):
                break  # the export finished before the kill
        if os.path.exists(output + ".partial"):
            subprocess.run([mapwright, "tiles", "export", *area, "-o", output, "--resume"], check=True, capture_output=True)
        diff = subprocess.run([mapwright, "tiles", "diff", reference, output], capture_output=True, text=True)
        same = diff.returncode == 0
        failures += 0 if same else 1
        print(f"  {extension}: {kills} kills (the export alone takes {full_seconds:.1f} s), resumed to a tileset "
              f"{'equal to' if same else 'DIFFERENT from'} the uninterrupted one: {diff.stdout.strip().splitlines()[-1] if diff.stdout.strip() else diff.stderr.strip()}")
        for name in [output, output + ".partial"]:
            if os.path.exists(name): os.remove(name)

if wanted(2):
    load_seconds = 60 if long_form else 30
    memory_bound_mib = 512  # serve's --memory-limit: its high-water mark (VmHWM) stays under it
    print(f"\n== 2. serve under wrk ({load_seconds} s, 128 connections, loopback) while an export and `photos add` write its files")
    import json, urllib.request
    load = f"{work}/load"
    os.makedirs(f"{load}/cache")
    europe = (-10.0, 35.0, 30.0, 60.0)
    def tiles_in(z, box=europe):
        import math
        def column(lon): return int((lon + 180) / 360 * 2 ** z)
        def row(lat):
            s = math.sin(math.radians(lat))
            return int((0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * 2 ** z)
        return [(z, x, y) for x in range(column(box[0]), min(column(box[2]), 2 ** z - 1) + 1)
                for y in range(row(box[3]), min(row(box[1]), 2 ** z - 1) + 1)]
    # The files the writers share with serve: a tileset it serves, and a photo library of 10,000
    # photos over Europe (a CSV) plus the samples.
    served = f"{load}/served.mbtiles"
    subprocess.run([mapwright, "tiles", "export", "--bbox", ",".join(map(str, europe)), "--zoom", "0-5", "-o", served], check=True, capture_output=True)
    library = f"{load}/library.sqlite"
    with open(f"{load}/photos.csv", "w") as csv:
        csv.write("latitude,longitude,title,photographer\n")
        for i in range(10000):
            csv.write(f"{random.uniform(36, 59):.5f},{random.uniform(-9, 29):.5f},Photo {i},{random.choice(['Ansel Adams', 'Dorothea Lange', 'Li Ming'])}\n")
    subprocess.run([mapwright, "photos", "import", "Samples/photos", f"{load}/photos.csv", "--library", library], check=True, capture_output=True)
    serve_log = []
    server, port, _ = start_serve(["--style", "standard", "--cache", f"{load}/cache/serve.mbtiles", "--library", library,
                                   "--tiles", served, "--log-level", "warning"], serve_log)
    base = f"http://127.0.0.1:{port}"
    # Cached tiles: Europe's style tiles at zooms 0-6, asked once before the load.
    cached = [f"/styles/standard/{z}/{x}/{y}.png" for z in range(7) for (z, x, y) in tiles_in(z)]
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda path: urllib.request.urlopen(base + path).read(), cached))
    paths = {
        "cached tiles": (cached, 40),
        "uncached tiles": ([f"/styles/standard/{z}/{x}/{y}.png" for z in range(9, 15) for _ in range(2000)
                            for (z, x, y) in tiles_in(z, (lambda lon, lat: (lon, lat, lon, lat))(random.uniform(-9, 29), random.uniform(36, 59)))], 12),
        "tileset tiles": ([f"/tilesets/served/{z}/{x}/{y}.png" for z in range(6) for (z, x, y) in tiles_in(z)], 15),
        "photo tiles": ([f"/overlays/photos/{z}/{x}/{y}.png" for z in range(3, 9) for (z, x, y) in tiles_in(z)], 13),
        "static maps": ([f"/styles/standard/static/{random.uniform(-5, 25):.2f},{random.uniform(40, 55):.2f},{random.randint(4, 9)}/400x300.png" for _ in range(40)], 5),
        "annotations": ([f"/annotations.json?bbox={w},{s},{w + 10},{s + 8}&zoom={z}" for w in range(-10, 25, 5) for s in range(35, 55, 5) for z in range(3, 12)], 15),
    }
    names = list(paths)
    with open(f"{load}/paths.txt", "w") as listing:
        for _ in range(100000):
            name = random.choices(names, weights=[paths[n][1] for n in names])[0]
            listing.write(random.choice(paths[name][0]) + "\n")
    stop = threading.Event()
    writers = {"exports": 0, "export failures": [], "photos added": 0, "add failures": []}
    def export_loop():
        while not stop.is_set():
            result = subprocess.run([mapwright, "tiles", "export", "--bbox", ",".join(map(str, europe)), "--zoom", "0-5", "-o", served],
                                    capture_output=True, text=True)
            if result.returncode == 0: writers["exports"] += 1
            else: writers["export failures"].append(result.stderr.strip()[:200])
    def add_loop():
        images = sorted(os.path.join(root, name) for root, _, files in os.walk("Samples/photos") for name in files if name.lower().endswith(".jpg"))
        while not stop.is_set():
            result = subprocess.run([mapwright, "photos", "add", "--library", library, "--image", random.choice(images),
                                     "--title", f"Added under load {writers['photos added']}", "--at", f"{random.uniform(36, 59):.4f},{random.uniform(-9, 29):.4f}"],
                                    capture_output=True, text=True)
            if result.returncode == 0: writers["photos added"] += 1
            else: writers["add failures"].append(result.stderr.strip()[:200])
            time.sleep(0.2)
    memory = []
    def sample_memory():
        while not stop.is_set():
            with open(f"/proc/{server.pid}/status") as status:
                memory.append(int(next(l for l in status if l.startswith("VmRSS:")).split()[1]) // 1024)
            time.sleep(0.5)
    # Beside wrk, one client per kind of request asks one at a time, to time each kind under the load.
    probes = {name: [] for name in names}
    # Each answer's time and what it was: the thing asked for, a stand-in for a tile not drawn yet
    # (X-Tile-Stand-In: stale or parent), or a 503 (its time counts: it is the answer the person got).
    def probe(name):
        while not stop.is_set():
            start = time.perf_counter()
            try:
                with urllib.request.urlopen(base + random.choice(paths[name][0]), timeout=120) as answer:
                    answer.read()
                    kind = answer.headers.get("X-Tile-Stand-In") or "drawn"
                probes[name].append(((time.perf_counter() - start) * 1000, kind))
            except urllib.error.HTTPError as error:
                probes[name].append(((time.perf_counter() - start) * 1000, "503") if error.code == 503 else None)
            except Exception:
                probes[name].append(None)
            time.sleep(0.05)
    background = [threading.Thread(target=f, daemon=True) for f in (export_loop, add_loop, sample_memory)]
    background += [threading.Thread(target=probe, args=(name,), daemon=True) for name in names]
    for thread in background: thread.start()
    wrk = subprocess.run(["wrk", "-t2", "-c128", f"-d{load_seconds}s", "--timeout", "45s", "-s", os.path.join(here, "load.lua"), base],
                         capture_output=True, text=True, env={**os.environ, "PATHS": f"{load}/paths.txt"})
    stop.set()
    for thread in background: thread.join(timeout=120)
    result = next((l.split()[1:] for l in wrk.stdout.splitlines() if l.startswith("RESULT")), None)
    if result is None:
        failures += 1
        print(f"  wrk failed: {wrk.stdout[-300:]} {wrk.stderr[-300:]}")
    else:
        requests, rate, p50, p99 = int(result[0]), float(result[1]), float(result[2]), float(result[3])
        ok, refused, server_errors, client_errors, busy, socket_errors = map(int, result[4:])
        # After the load: every photo added is in the annotations, and every file passes integrity_check.
        # (A request waits at most 0.5 s for serve to read the library's last change: ask until it shows.)
        expected = sqlite3.connect(f"file:{library}?mode=ro", uri=True).execute("SELECT count(*) FROM photos").fetchone()[0]
        caught_up = time.perf_counter()
        for _ in range(100):
            total = sum(f["properties"].get("point_count", 1) for f in json.load(urllib.request.urlopen(f"{base}/annotations.json?bbox=-180,-85,180,85&zoom=0"))["features"])
            if total == expected: break
            time.sleep(0.1)
        caught_up = time.perf_counter() - caught_up
        checks = {name: sqlite3.connect(f"file:{name}?mode=ro", uri=True).execute("PRAGMA integrity_check").fetchone()[0]
                  for name in [library, served] + [os.path.join(f"{load}/cache", n) for n in os.listdir(f"{load}/cache") if n.endswith(".mbtiles")]}
        log_problems = [l for l in serve_log if any(word in l.lower() for word in ("busy", "locked", "error"))]
        peak, settled = max(memory), memory[-1]
        # The kernel's high-water mark of serve's resident memory, beside the samples.
        with open(f"/proc/{server.pid}/status") as status:
            high_water = int(next(l for l in status if l.startswith("VmHWM:")).split()[1]) // 1024
        problems = []
        if server_errors: problems.append(f"{server_errors} 5xx other than 503")
        if busy: problems.append(f"{busy} answers mentioning SQLite busy/locked")
        if socket_errors: problems.append(f"{socket_errors} socket errors: " + next((l for l in wrk.stdout.splitlines() if l.startswith("SOCKETS")), ""))
        if writers["export failures"] or writers["add failures"]: problems.append(f"writer failures: {writers['export failures'][:2]} {writers['add failures'][:2]}")
        if total != expected: problems.append(f"annotations count {total} photos, the library {expected}")
        if any(v != "ok" for v in checks.values()): problems.append(f"integrity_check: {checks}")
        if log_problems: problems.append(f"serve logged: {log_problems[:3]}")
        if high_water > memory_bound_mib: problems.append(f"serve's memory peaked at {high_water} MiB (VmHWM; bound {memory_bound_mib} MiB)")
        for name in names:
            if None in probes[name]: problems.append(f"a request for {name} failed (other than 503)")
        failures += len(problems)
        print(f"  wrk: {requests} requests, {rate:.0f} req/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms; {ok} answered, {refused} deliberate 503s "
              f"(render queue full), {server_errors} other 5xx, {client_errors} 4xx, {socket_errors} socket errors, {busy} SQLITE_BUSY")
        print("  one request at a time beside the load, by kind: p50 / p99 of every answer (503s too), and what answered")
        for name in names:
            answers = [a for a in probes[name] if a is not None]
            timings = sorted(t for t, _ in answers)
            if timings:
                kinds = {}
                for _, kind in answers: kinds[kind] = kinds.get(kind, 0) + 1
                print(f"    {name:15} p50 {timings[len(timings) // 2]:8.1f} ms   p99 {timings[min(len(timings) - 1, int(len(timings) * 0.99))]:8.1f} ms   "
                      f"({len(timings)} requests: {', '.join(f'{count} {kind}' for kind, count in sorted(kinds.items(), key=lambda item: -item[1]))})")
        print(f"  meanwhile: {writers['exports']} exports replaced the served tileset, {writers['photos added']} photos added "
              f"(annotations then counted {total} of the library's {expected}, after {caught_up:.1f} s); integrity_check ok on {sum(v == 'ok' for v in checks.values())} of {len(checks)} files")
        print(f"  serve's memory: {memory[0]} MiB at the start, peak {peak} MiB sampled, high-water mark (VmHWM) {high_water} MiB "
              f"(bound: its --memory-limit, {memory_bound_mib} MiB), {settled} MiB at the end; every 10 s: {memory[::20]}")
        for problem in problems: print(f"  FAILED: {problem}")
    server.terminate(); server.wait()

if wanted(3):
    print("\n== 3. a full disk during export (a 1 MiB tmpfs, then grown to 64 MiB and resumed)")
    mount = mount_tmpfs("small disk", "size=1m")
    if mount is None:
        failures += 1
    else:
        try:
            for extension in ["mbtiles", "pmtiles"]:
                if not os.path.exists(f"{work}/reference.{extension}"):  # check 1 makes it when it runs
                    subprocess.run([mapwright, "tiles", "export", *area, "-o", f"{work}/reference.{extension}"], check=True, capture_output=True)
                output = f"{mount}/europe.{extension}"
                first = subprocess.run([mapwright, "tiles", "export", *area, "-o", output], capture_output=True, text=True)
                lines = [l for l in first.stderr.splitlines() if "tiles/s" not in l]
                kept = os.path.exists(output + ".partial")
                full_ok = first.returncode == 2 and len(lines) == 1 and "disk is full" in lines[0] and kept and not os.path.exists(output)
                subprocess.run(["mount", "-o", "remount,size=64m", mount], check=True)
                resumed = subprocess.run([mapwright, "tiles", "export", *area, "-o", output, "--resume"], capture_output=True, text=True)
                same = resumed.returncode == 0 and subprocess.run(
                    [mapwright, "tiles", "diff", f"{work}/reference.{extension}", output], capture_output=True).returncode == 0
                failures += 0 if full_ok and same else 1
                print(f"  {extension}: {lines[0] if lines else first.stderr.strip()!r} (exit {first.returncode}, work file kept: {kept}); "
                      f"resumed with room: {'equal to the uninterrupted export' if same else 'FAILED'}")
                os.remove(output)
                subprocess.run(["mount", "-o", "remount,size=1m", mount], check=True)
        finally:
            subprocess.run(["umount", mount])

if wanted(3):
    print("\n== 3b. serve with its cache on a read-only file system")
    mount = mount_tmpfs("read-only disk", "size=1m,ro")
    if mount is None:
        failures += 1
    else:
        import urllib.request
        server, port, warnings = start_serve(["--cache", f"{mount}/cache.mbtiles"])
        warning = warnings[0] if warnings else ""
        try:
            statuses = []
            for path in ["/styles/standard/2/1/1.png", "/styles/standard/2/1/1.png", "/styles/standard/3/4/2.png"]:
                try: statuses.append(urllib.request.urlopen(f"http://127.0.0.1:{port}{path}").status)
                except Exception as error: statuses.append(str(error))
            ok = statuses == [200, 200, 200] and ("read-only" in warning.lower() or "not writable" in warning)
            failures += 0 if ok else 1
            print(f"  {warning!r}; tiles answered {statuses}, nothing written: {os.listdir(mount) == []}")
        finally:
            server.terminate(); server.wait()
            subprocess.run(["umount", mount])

if wanted(3):
    print("\n== 3c. SIGTERM during a burst of uncached tile requests")
    import http.client, urllib.request
    server, port, _ = start_serve([])
    outcomes = []
    lock = threading.Lock()
    def fetch(z, x, y):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            connection.request("GET", f"/styles/standard/{z}/{x}/{y}.png")
            response = connection.getresponse()
        except Exception as error:
            with lock: outcomes.append(("not started", type(error).__name__))
            return
        try:
            body = response.read()
            length = response.getheader("Content-Length")
            whole = (length is None or int(length) == len(body)) and (response.status != 200 or body.endswith(b"IEND\xaeB`\x82"))
            with lock: outcomes.append(("answered", response.status, whole))
        except Exception as error:
            with lock: outcomes.append(("cut", type(error).__name__))
    threads = [threading.Thread(target=fetch, args=(6, x, y)) for x in range(16) for y in range(16, 28)]
    for thread in threads: thread.start()
    time.sleep(1.0)
    server.send_signal(signal.SIGTERM)
    for thread in threads: thread.join()
    status = server.wait(timeout=120)
    answered = [o for o in outcomes if o[0] == "answered"]
    cut = [o for o in outcomes if o[0] == "cut" or (o[0] == "answered" and not o[2])]
    refused = [o for o in outcomes if o[0] == "not started"]
    statuses = sorted(set(o[1] for o in answered))
    failures += 1 if cut or status != 0 else 0
    print(f"  {len(threads)} requests: {len(answered)} answered whole (statuses {statuses}), {len(cut)} cut short, "
          f"{len(refused)} not started (the server had stopped listening); serve exited with status {status}")

if wanted(4):
    # BadInputCorpusTests (Tests/MapCLITests) runs every case of the corpus through the command its
    # manifest names (render, photos add, tiles info, ...). This check gives the same files to
    # `serve`, whose own start-up reads them (ServeCommand's styles, photo sources, overlays and
    # tilesets, the photo feed, the tile cache in a temporary folder), which those tests never run.
    print("\n== 4. the bad-input corpus given to `serve` (BadInputCorpusTests gives it to the other commands)")
    bad = "Tests/Fixtures/bad"
    cases = [line.rstrip("\n").split("\t") for line in open(f"{bad}/manifest.tsv") if not line.startswith("#")]

    def serve_options(arguments):
        """serve's options that give it a case's file, or None when serve takes no such input."""
        words = arguments.split(" ")
        if words[0] == "tiles" and words[1] in ("info", "convert") and words[2] == "{file}":
            return ["--tiles", "{file}"]
        if words[0] != "render":
            return None
        options, index = [], 1
        while index + 1 < len(words):
            option, value = words[index], words[index + 1]
            if option in ("--photos", "--overlay", "--track", "--vector-source", "--style") and (value == "{file}" or option == "--style"):
                options += [option, value]
            index += 2
        return options if "{file}" in options else None

    def ask(port, path):
        """One GET on loopback: (status, body), or (None, reason) when no whole answer came in 60 s."""
        import urllib.request, urllib.error
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except Exception as error:
            return None, repr(error)

    # A file serve accepts at start-up (a valid container whose damage is inside: a tile out of the
    # grid, vector tiles that are not protocol buffers) is read when a tile is asked for. Then each
    # answer must be whole (200, 204 or 404, or a 500 whose body is one line), serve must stay up
    # (/health 200 afterwards) and stop cleanly on SIGTERM (exit 0), writing nothing where it ran.
    # Tiles: the world, and Helsinki at zoom 14 (where the corpus's vector tiles are).
    asked_paths = ["0/0/0", "14/9327/4742"]
    given = refused = served_cleanly = 0
    for name, arguments in cases:
        options = serve_options(arguments)
        if options is None:
            continue
        given += 1
        folder = f"{work}/serve-case-{name}"
        os.makedirs(folder)
        args = [a.replace("{file}", os.path.abspath(f"{bad}/{name}")) for a in options]
        server = subprocess.Popen([mapwright, "serve", "--port", "0", *args], cwd=folder,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace")
        lines, port = [], None
        for line in server.stderr:
            lines.append(line.rstrip("\n"))
            if "serving on http://127.0.0.1:" in line:
                port = int(line.rsplit(":", 1)[1].strip().split("/")[0])
                break
        if port is None:
            status = server.wait(timeout=120)
            problems = [l for l in lines if not l.startswith("mapwright: warning:")]
            if (status in (1, 2) and len(problems) == 1 and problems[0].startswith("mapwright: ")
                    and name in problems[0] and not os.listdir(folder)):
                refused += 1
            else:
                failures += 1
                print(f"  {name}: serve {' '.join(options)}: exit {status}, {chr(10).join(lines)[:300]!r}, left {os.listdir(folder)}")
            continue
        threading.Thread(target=lambda: [lines.append(l.rstrip("\n")) for l in server.stderr], daemon=True).start()
        tileset = os.path.splitext(name)[0]
        prefix = f"/tilesets/{tileset}" if options[0] == "--tiles" else f"/styles/{'streets' if '--vector-source' in options else 'standard'}"
        wrong = []
        for path in [prefix + ".json"] + [f"{prefix}/{tile}.{'png'}" for tile in asked_paths]:
            status, body = ask(port, path)
            if status not in (200, 204, 404, 500) or (status == 500 and body.count(b"\n") > 1):
                wrong.append(f"{path}: {status} {body[:120]!r}")
        health, _ = ask(port, "/health")
        if health != 200:
            wrong.append(f"/health: {health} afterwards")
        server.send_signal(signal.SIGTERM)
        status = server.wait(timeout=120)
        if status != 0:
            wrong.append(f"exit {status} on SIGTERM")
        if os.listdir(folder):
            wrong.append(f"left {os.listdir(folder)}")
        if wrong:
            failures += 1
            print(f"  {name}: serve {' '.join(options)} started, then: {'; '.join(wrong)}")
        else:
            served_cleanly += 1
    print(f"  {given} files serve takes (styles, photo sources, overlays, tracks, vector sources, tilesets): "
          f"{refused} refused at start-up in one line naming the file (exit 1 or 2, nothing written); "
          f"{served_cleanly} with their damage inside served, every tile asked for answered whole, "
          f"serve still healthy and stopped cleanly")

print(f"\nchecks 1-4: {'passed' if failures == 0 else f'{failures} FAILED'}")
sys.exit(1 if failures else 0)
