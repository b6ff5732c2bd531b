#!/usr/bin/env bash
# Benchmarks `mapwright serve` in a release build on loopback, with nginx beside it in the same run.
#
# 1. Cached 256-px tiles: the standard style's tiles of Europe at zooms 0 to MAX_ZOOM (default 8)
#    are exported to MBTiles and extracted to a folder. nginx (Debian's nginx-light, its own
#    config in a temporary folder, access log off, sendfile, a worker per core) serves the folder;
#    mapwright serves the same tiles two ways: straight from the MBTiles file
#    (/tilesets/europe/...) and as style tiles from its on-demand cache after one pass warmed it
#    (/styles/standard/...), without the request log (nginx's access log is off too; the
#    tilesets run once more with serve's default line per request, to show what it costs).
#    wrk asks each for random tiles of that set, CONNECTIONS connections
#    (default 64) for DURATION seconds (default 30), and the script prints requests/s and p99
#    latency of each and mapwright's ratio to nginx. Goals: at least 0.5 of nginx, p99 <= 20 ms.
# 2. Cold renders on demand: a fresh cache, every tile of zooms 0 to 6, zoom by zoom, asked by 4
#    clients at once; p50 and p99 of the request latency (the first tile of a metatile pays for
#    all 64 of it, the others wait for it or find it cached).
# 3. Static maps: 20 maps of 1200x800@2x centred a little apart; p50.
#
# serve logs a line per request; its log goes to a file in the temporary folder.
# The machines are shared: run it when they are quiet (the load average is printed).
# Usage: scripts/bench/serve.sh         (DURATION=10 MAX_ZOOM=6 scripts/bench/serve.sh for a quick look)
set -euo pipefail

cd "$(dirname "$0")/../.."
DURATION="${DURATION:-30}"
CONNECTIONS="${CONNECTIONS:-64}"
MAX_ZOOM="${MAX_ZOOM:-8}"
PYTHON=/usr/bin/python3
say() { printf '\n== %s\n' "$*"; }

for tool in wrk nginx; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "serve.sh: $tool is missing: run scripts/setup.sh" >&2; exit 1; }
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

say "release build"
swift build -c release --product mapwright 2>&1 | tail -1
MAPWRIGHT="$PWD/.build/release/mapwright"

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

# wrk picks a random tile of the list for each request under PREFIX.
cat > "$WORK/tiles.lua" <<'LUA'
local paths = {}
local prefix = os.getenv("PREFIX")
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
math.randomseed(42)
request = function()
    return wrk.format("GET", prefix .. paths[math.random(#paths)] .. ".png")
end
done = function(summary, latency, requests)
    io.write(string.format("RESULT %.1f %.2f %.2f %d %d\n", summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

# run_wrk NAME PORT PREFIX: prints "NAME  requests/s  p50  p99" and sets RATE and P99.
run_wrk() {
    local line
    line=$(PATHS="$WORK/paths.txt" PREFIX="$3" wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$WORK/tiles.lua" "http://127.0.0.1:$2" | grep '^RESULT')
    read -r _ RATE P50 P99 STATUS_ERRORS SOCKET_ERRORS <<<"$line"
    printf '%-38s %10s req/s   p50 %7s ms   p99 %7s ms   non-2xx %s, socket errors %s\n' "$1" "$RATE" "$P50" "$P99" "$STATUS_ERRORS" "$SOCKET_ERRORS"
}

say "cached tiles: wrk -c$CONNECTIONS for ${DURATION}s each"
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
run_wrk "nginx, static files" "$NGINX_PORT" "/tiles/"
NGINX_RATE=$RATE

start_serve --tiles "$WORK/europe.mbtiles" --jobs "$(nproc)"
run_wrk "mapwright, /tilesets, a log line each" "$SERVE_PORT" "/tilesets/europe/"
LOGGED_RATE=$RATE LOGGED_P99=$P99
stop_last

start_serve --tiles "$WORK/europe.mbtiles" --jobs "$(nproc)" --log-level warning
run_wrk "mapwright, /tilesets, no request log" "$SERVE_PORT" "/tilesets/europe/"
TILESET_RATE=$RATE TILESET_P99=$P99
stop_last

mkdir -p "$WORK/cache" "$WORK/cold"
start_serve --style standard --cache "$WORK/cache/serve.mbtiles" --jobs "$(nproc)" --log-level warning
# Warm the cache: every tile of the list once, 4 at a time.
xargs -P 4 -I{} curl -sf -o /dev/null "http://127.0.0.1:$SERVE_PORT/styles/standard/{}.png" < "$WORK/paths.txt"
run_wrk "mapwright, /styles cached, no request log" "$SERVE_PORT" "/styles/standard/"
STYLE_RATE=$RATE STYLE_P99=$P99
stop_last

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo
echo "mapwright/nginx without request logs (as nginx runs here): $(ratio "$TILESET_RATE" "$NGINX_RATE") (tilesets), $(ratio "$STYLE_RATE" "$NGINX_RATE") (cached styles), p99 $TILESET_P99 ms and $STYLE_P99 ms; with a log line per request: $(ratio "$LOGGED_RATE" "$NGINX_RATE"), p99 $LOGGED_P99 ms"
echo "goals: at least 0.5 of nginx, p99 <= 20 ms"

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

echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
