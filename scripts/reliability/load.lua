-- wrk's script for check 2 of scripts/reliability.sh: requests paths picked at random from the
-- file $PATHS names, and counts answers by kind (ok, 503, other 5xx, 4xx, SQLite busy or locked).
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local threads = {}
local next_id = 1
setup = function(thread) thread:set("id", next_id); next_id = next_id + 1; table.insert(threads, thread) end
init = function(args) math.randomseed(id * 7919); ok = 0; refused = 0; server_errors = 0; client_errors = 0; busy = 0 end
request = function() return wrk.format("GET", paths[math.random(#paths)]) end
response = function(status, headers, body)
    if status < 400 then ok = ok + 1
    elseif status == 503 then refused = refused + 1
    elseif status >= 500 then server_errors = server_errors + 1
    else client_errors = client_errors + 1 end
    if status >= 400 and body and (body:find("SQLITE") or body:find("locked") or body:find("busy")) then busy = busy + 1 end
end
done = function(summary, latency, requests)
    local totals = {ok = 0, refused = 0, server_errors = 0, client_errors = 0, busy = 0}
    for _, thread in ipairs(threads) do
        for key, _ in pairs(totals) do totals[key] = totals[key] + thread:get(key) end
    end
    io.write(string.format("RESULT %d %.1f %.2f %.2f %d %d %d %d %d %d\n", summary.requests, summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, totals.ok, totals.refused, totals.server_errors,
        totals.client_errors, totals.busy, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
io.write(string.format("SOCKETS connect %d, read %d, write %d, timeout %d\n", summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
end
