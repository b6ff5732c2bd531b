#!/usr/bin/env bash
# Reliability checks (issue 15), on a release build. Built so far:
#
# 1. Crash-safe export: `mapwright tiles export` (MBTiles and PMTiles) killed with SIGKILL at
#    random moments, then finished with --resume; after every kill the work file passes
#    `PRAGMA integrity_check`, and the finished tileset equals an uninterrupted export tile for
#    tile (`tiles diff` exit status 0).
# 4. The bad-input corpus (Tests/Fixtures/bad/, see scripts/tools/make-bad-corpus.py): every case
#    refused in one line naming the file, exit status 1 or 2, no crash, nothing written.
#
# 3. A full disk during export (a 1 MiB tmpfs; needs root to mount it): one line saying the disk
#    is full, the work file kept, and --resume with room finishes a tileset equal to the
#    uninterrupted one.
#
#    And `serve` with its cache on a read-only tmpfs: one warning line, tiles answered by
#    rendering, nothing kept. And SIGTERM to `serve` during a burst of 192 uncached tile requests:
#    no response that was started is cut short, and serve exits with status 0.
#
# Not built yet (issue 15 stays open): serve under wrk with a concurrent writer, libFuzzer targets.
#
# Usage: scripts/reliability.sh [--long]
#   short form (default): 20 kills per format over Europe at zooms 0-6
#   --long: 20 kills per format over Europe at zooms 0-8
set -euo pipefail

LONG=0
if [[ "${1:-}" == "--long" ]]; then LONG=1; fi
cd "$(dirname "$0")/.."
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

echo "== building (release)"
swift build -c release --product mapwright >/dev/null
BIN="$(swift build -c release --show-bin-path)/mapwright"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

python3 - "$BIN" "$WORK" "$LONG" <<'PYTHON'
import os, random, signal, sqlite3, subprocess, sys, threading, time
mapwright, work, long_form = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
zooms = "0-8" if long_form else "0-6"
area = ["--bbox", "-25,34,45,72", "--zoom", zooms]
random.seed(15)

def start_serve(arguments):
    """Starts `mapwright serve --port 0 ARGUMENTS` and waits for /health; returns the process,
    its port and the warning lines it printed while starting."""
    import urllib.request
    server = subprocess.Popen([mapwright, "serve", "--port", "0", *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    port, warnings = None, []
    while port is None:
        line = server.stderr.readline()
        if not line: break
        if "warning:" in line: warnings.append(line.strip())
        if "serving on http://127.0.0.1:" in line: port = int(line.rsplit(":", 1)[1].strip().split("/")[0])
    threading.Thread(target=lambda: server.stderr.read(), daemon=True).start()
    for _ in range(600):
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/health").status == 200: break
        except Exception: time.sleep(0.1)
    return server, port, warnings

print(f"\n== 1. crash-safe export: SIGKILL at 20 random moments, then --resume (Europe, zooms {zooms})")
failures = 0
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

print("\n== 3. a full disk during export (a 1 MiB tmpfs, then grown to 64 MiB and resumed)")
if os.geteuid() != 0:
    print("  skipped: mounting a tmpfs needs root")
else:
    mount = f"{work}/small disk"
    os.makedirs(mount)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mount], check=True)
    try:
        for extension in ["mbtiles", "pmtiles"]:
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

print("\n== 3b. serve with its cache on a read-only file system")
if os.geteuid() != 0:
    print("  skipped: mounting a read-only tmpfs needs root")
else:
    import urllib.request
    mount = f"{work}/read-only disk"
    os.makedirs(mount)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", mount], check=True)
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

print("\n== 4. the bad-input corpus")
bad, good = "Tests/Fixtures/bad", "Tests/Fixtures/good"
cases = [line.rstrip("\n").split("\t") for line in open(f"{bad}/manifest.tsv") if not line.startswith("#")]
refused = 0
for name, arguments in cases:
    folder = f"{work}/case-{name}"
    os.makedirs(folder)
    args = [a.replace("{file}", os.path.abspath(f"{bad}/{name}")).replace("{good}", os.path.abspath(good)).replace("{dir}", folder)
            for a in arguments.split(" ")]
    result = subprocess.run([mapwright, *args], capture_output=True, text=True, errors="replace", cwd=folder, timeout=120)
    lines = [l for l in result.stderr.splitlines() if not l.startswith("mapwright: warning:")]
    ok = result.returncode in (1, 2) and len(lines) == 1 and (name.startswith("args-") or name in lines[0]) and not os.listdir(folder)
    if ok:
        refused += 1
    else:
        failures += 1
        print(f"  {name}: exit {result.returncode}, {result.stderr.strip()[:200]!r}, left {os.listdir(folder)}")
print(f"  {refused} of {len(cases)} cases refused in one line naming the file, nothing written")

print(f"\nreliability: {'all checks passed' if failures == 0 else f'{failures} FAILED'}")
sys.exit(1 if failures else 0)
PYTHON
