#!/usr/bin/env bash
# Benchmarks `mapwright serve` in a release build on loopback, with nginx beside it in the same run.
#
# 1. Cached 256-px tiles: the standard style's tiles of Europe at zooms 0 to MAX_ZOOM (default 8)
#    are exported to MBTiles and extracted to a folder. nginx (Debian's nginx-light, its own
#    config in a temporary folder, access log off, sendfile, a worker per core) serves the folder;
#    mapwright serves the same tiles from the MBTiles file (/tilesets/europe/...), with its
#    default request log on (a line per request), read once before to be kept in memory. Two
#    setups, as issue 26 asks: one hot tile (wrk asks for the same tile again and again: zoom 6's
#    largest, 53 KB) and random tiles of the set. Each pair runs ROUNDS times (default 2), alternating nginx and
#    mapwright; the script prints requests/s and p99 of each run and mapwright's ratio to nginx
#    over the rounds (goal: at least 0.8). Then the style's own tiles from the on-demand cache
#    (/styles/standard/..., warmed by one pass), and the tilesets without the request log.
#    wrk asks with CONNECTIONS connections (default 64) for DURATION seconds (default 10) each.
# 2. Cold renders on demand: a fresh cache, every tile of zooms 0 to 6, zoom by zoom, asked by 4
#    clients at once; p50 and p99 of the request latency (the first tile of a metatile pays for
#    all 64 of it, the others wait for it or find it cached).
# 3. Static maps: 20 maps of 1200x800@2x centred a little apart; p50.
# 4. Mixed load (reliability check 2's, scripts/reliability/checks.py, 30 s): wrk at 128
#    connections on uncached and cached style tiles, photo overlays, static maps and a tileset
#    while exports and photo additions run beside; p50/p99 by lane of requests asked one at a
#    time beside it (viewer tiles: the tiles lane; photo tiles and static maps: the images
#    lane), and serve's peak resident memory. Goals: viewer tiles p99 <= 1 s, memory <= 512 MiB.
#
# serve logs a line per request; its log goes to a file in the temporary folder.
# The machines are shared: run it when they are quiet (the load average is printed).
# Usage: scripts/bench/serve.sh         (DURATION=5 ROUNDS=1 MAX_ZOOM=6 scripts/bench/serve.sh for a quick look;
#        MAPWRIGHT=PATH uses that binary, such as the test build's .build/release/mapwright, instead of building)
set -euo pipefail

cd "$(dirname "$0")/../.."
DURATION="${DURATION:-10}"
ROUNDS="${ROUNDS:-2}"
CONNECTIONS="${CONNECTIONS:-64}"
MAX_ZOOM="${MAX_ZOOM:-8}"
PYTHON=/usr/bin/python3
say() { printf '\n== %s\n' "$*"; }

for tool in wrk nginx; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "serve.sh: $tool is missing: run scripts/setup.sh" >&2; exit 1; }
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [ -n "${MAPWRIGHT:-}" ]; then
    say "the given binary: $MAPWRIGHT"
else
    say "release build"
    swift build -c release --product mapwright 2>&1 | tail -1
    MAPWRIGHT="$PWD/.build/release/mapwright"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mapwright-serve-bench.XXXXXX")
chmod 755 "$WORK"   # nginx workers run as another user
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Starts `mapwright serve ARGS...` on a free port; sets SERVE_PORT when /health says 200.
start_serve() {
    SERVE_PORT=$(free_port)
    "$MAPWRIGHT" serve --port "$SERVE_PORT" "$@" 2>>"$WORK/serve.log" &
    PIDS+=($!)
    for _ in $(seq 1 600); do
        curl -sf "http://127.0.0.1:$SERVE_PORT/health" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "serve.sh: mapwright serve did not become ready; its log:" >&2
    tail -5 "$WORK/serve.log" >&2
    exit 1
}

stop_last() {
    local pid=${PIDS[-1]}
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    unset 'PIDS[-1]'
}

echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg), cores: $(nproc)"

say "tiles: Europe, zooms 0-$MAX_ZOOM"
"$MAPWRIGHT" tiles export --bbox -10,35,30,60 --zoom "0-$MAX_ZOOM" --style standard -o "$WORK/europe.mbtiles" 2>&1 | tail -1
"$MAPWRIGHT" tiles extract "$WORK/europe.mbtiles" "$WORK/www/tiles" 2>&1 | tail -1
chmod -R a+rX "$WORK/www"
(cd "$WORK/www/tiles" && find . -name '*.png' | sed 's|^\./||; s|\.png$||') | sort > "$WORK/paths.txt"
echo "$(wc -l < "$WORK/paths.txt") tiles"

# wrk picks a random tile of the list for each request under PREFIX (none: the URL's path).
cat > "$WORK/tiles.lua" <<'LUA'
local paths = {}
local prefix = os.getenv("PREFIX")
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
math.randomseed(42)
-- Without a prefix, wrk asks for the URL's own path every time (the hot tile).
if prefix ~= "" then
    request = function()
        return wrk.format("GET", prefix .. paths[math.random(#paths)] .. ".png")
    end
end
done = function(summary, latency, requests)
    io.write(string.format("RESULT %.1f %.2f %.2f %d %d\n", summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

# run_wrk NAME PORT PREFIX [URL_PATH]: prints "NAME  requests/s  p50  p99" and sets RATE and P99;
# with URL_PATH, asks for that one path every time (the hot tile).
run_wrk() {
    local line
    line=$(PATHS="$WORK/paths.txt" PREFIX="$3" wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$WORK/tiles.lua" "http://127.0.0.1:$2${4:-}" | grep '^RESULT')
    read -r _ RATE P50 P99 STATUS_ERRORS SOCKET_ERRORS <<<"$line"
    printf '%-44s %10s req/s   p50 %7s ms   p99 %7s ms   non-2xx %s, socket errors %s\n' "$1" "$RATE" "$P50" "$P99" "$STATUS_ERRORS" "$SOCKET_ERRORS"
}
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a + b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

say "cached tiles: wrk -c$CONNECTIONS for ${DURATION}s each, $ROUNDS rounds"
NGINX_PORT=$(free_port)
mkdir -p "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes $(nproc);
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types { image/png png; }
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WORK/www;
    }
}
CONF
"$NGINX" -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" -e "$WORK/nginx/error.log" &
PIDS+=($!)
for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/tiles/0/0/0.png" && break; sleep 0.1; done

start_serve --tiles "$WORK/europe.mbtiles" --jobs "$(nproc)"
# Every tile read once, so that all are kept in memory as a served set's tiles are after a while.
xargs -P 4 -I{} curl -sf -o /dev/null "http://127.0.0.1:$SERVE_PORT/tilesets/europe/{}.png" < "$WORK/paths.txt"
# The hot tile: the largest of zoom 6 (a busy one, as a city's tile is).
HOT=$(cd "$WORK/www/tiles" && find 6 -name '*.png' -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2 | sed 's|\.png$||')
echo "hot tile: $HOT ($(stat -c %s "$WORK/www/tiles/$HOT.png") bytes)"
NGINX_HOT=0 SERVE_HOT=0 NGINX_RANDOM=0 SERVE_RANDOM=0
for round in $(seq 1 "$ROUNDS"); do
    run_wrk "round $round, hot tile: nginx" "$NGINX_PORT" "" "/tiles/$HOT.png"; NGINX_HOT=$(sum "$NGINX_HOT" "$RATE")
    run_wrk "round $round, hot tile: mapwright, log on" "$SERVE_PORT" "" "/tilesets/europe/$HOT.png"; SERVE_HOT=$(sum "$SERVE_HOT" "$RATE")
    run_wrk "round $round, random tiles: nginx" "$NGINX_PORT" "/tiles/"; NGINX_RANDOM=$(sum "$NGINX_RANDOM" "$RATE")
    run_wrk "round $round, random tiles: mapwright, log on" "$SERVE_PORT" "/tilesets/europe/"; SERVE_RANDOM=$(sum "$SERVE_RANDOM" "$RATE")
done
stop_last

start_serve --tiles "$WORK/europe.mbtiles" --jobs "$(nproc)" --log-level warning
xargs -P 4 -I{} curl -sf -o /dev/null "http://127.0.0.1:$SERVE_PORT/tilesets/europe/{}.png" < "$WORK/paths.txt"
run_wrk "random tiles: mapwright, no request log" "$SERVE_PORT" "/tilesets/europe/"
UNLOGGED_RATE=$RATE
stop_last

mkdir -p "$WORK/cache" "$WORK/cold"
start_serve --style standard --cache "$WORK/cache/serve.mbtiles" --jobs "$(nproc)"
# Warm the cache: every tile of the list once, 4 at a time.
xargs -P 4 -I{} curl -sf -o /dev/null "http://127.0.0.1:$SERVE_PORT/styles/standard/{}.png" < "$WORK/paths.txt"
run_wrk "random style tiles, cached: mapwright, log on" "$SERVE_PORT" "/styles/standard/"
STYLE_RATE=$RATE
stop_last

echo
echo "mapwright/nginx, request log on, over $ROUNDS rounds: hot tile $(ratio "$SERVE_HOT" "$NGINX_HOT"), random tiles $(ratio "$SERVE_RANDOM" "$NGINX_RANDOM") (goal: at least 0.8)"
echo "random tiles without the request log: $(ratio "$UNLOGGED_RATE" "$(ratio "$NGINX_RANDOM" "$ROUNDS")") of nginx; the style's cached tiles: $(ratio "$STYLE_RATE" "$(ratio "$NGINX_RANDOM" "$ROUNDS")")"

say "cold renders on demand: zooms 0-6, 4 clients, a fresh cache"
start_serve --style standard --cache "$WORK/cold/serve.mbtiles" --jobs "$(nproc)" --log-level warning
"$PYTHON" - "$SERVE_PORT" <<'PY'
import concurrent.futures, http.client, statistics, sys, time
port = int(sys.argv[1])
def fetch(path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    start = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    connection.close()
    return time.perf_counter() - start, response.status
latencies, statuses = [], {}
start = time.perf_counter()
with concurrent.futures.ThreadPoolExecutor(4) as pool:
    for z in range(7):
        paths = [f"/styles/standard/{z}/{x}/{y}.png" for x in range(2 ** z) for y in range(2 ** z)]
        for seconds, status in pool.map(fetch, paths):
            latencies.append(seconds)
            statuses[status] = statuses.get(status, 0) + 1
total = time.perf_counter() - start
latencies.sort()
p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
print(f"{len(latencies)} tiles in {total:.1f} s ({len(latencies) / total:.0f} tiles/s): p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms; statuses {statuses}")
PY

say "static maps: 1200x800@2x, 20 centres"
"$PYTHON" - "$SERVE_PORT" <<'PY'
import http.client, statistics, sys, time
port = int(sys.argv[1])
times = []
for i in range(20):
    path = f"/styles/standard/static/{2.35 + i * 0.37:.2f},{48.85 - i * 0.21:.2f},5/1200x800@2x.png"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    start = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    times.append(time.perf_counter() - start)
    if response.status != 200:
        print(f"{path}: {response.status} {body[:100]!r}")
        sys.exit(0)
print(f"20 maps of 2400x1600 pixels: p50 {statistics.median(times) * 1000:.0f} ms, slowest {max(times) * 1000:.0f} ms")
PY
stop_last

say "mixed load: reliability check 2 (30 s), viewer tiles and the images lane beside it, serve's peak memory"
"$PYTHON" scripts/reliability/checks.py "$MAPWRIGHT" "$WORK/reliability" 0 2 || echo "serve.sh: the mixed load's check failed (see above)"

echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
