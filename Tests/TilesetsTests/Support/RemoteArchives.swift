import Foundation
import MapCore
import MapTestSupport
import PMTiles
import TileSources

extension PythonEnvironment {
    /// PyPI's `pmtiles` package at major version 3, the outside reference reader of PMTiles v3
    /// (the same environment as PMTilesTests').
    static let pmtiles = PythonEnvironment(
        name: "pmtiles-3", requirements: ["pmtiles>=3,<4"], check: "import pmtiles.reader, pmtiles.writer")
}

/// Archives for the remote reading tests, written with Mapwright's writer.
enum RemoteArchives {
    /// Every tile of zooms 0 to `maxZoom`, each with bytes of its own (its address, then 0 to 55
    /// random bytes); zooms 0-8 (87,381 tiles) are too many entries for the root directory, so
    /// lookups go through leaf directories.
    static func write(to url: URL, maxZoom: Int = 8, seed: UInt64 = 7, name: String = "Grid") throws -> [TileID: Data] {
        var random = SeededGenerator(seed: seed)
        var tiles: [TileID: Data] = [:]
        let writer = try PMTilesWriter(
            url: url,
            metadata: TileMetadata(
                name: name, format: .png, bounds: BoundingBox(west: -180, south: -85, east: 180, north: 85)))
        for z in 0...maxZoom {
            for y in 0..<(1 << z) {
                for x in 0..<(1 << z) {
                    let tile = try TileID(z: z, x: x, y: y)
                    var data = Data("\(name) \(tile) ".utf8)
                    data.append(
                        contentsOf: (0..<Int(random.next() % 56)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                    tiles[tile] = data
                    try writer.add(data, at: tile)
                }
            }
        }
        try writer.finish()
        return tiles
    }
}

/// A Python HTTP server for one archive that honours single `Range` requests (206, `ETag`) but
/// answers as `mode` says: `fail-once` answers each distinct range `503` the first time it is
/// asked for, `forbidden` answers everything `403`, `slow` answers each after 50 ms. Requests
/// are logged, one JSON line each, with the number in progress when each arrived.
final class FlakyRangeServer {
    let port: Int
    let logURL: URL
    private let process: Process
    private let input: Pipe

    private static let script = #"""
        import http.server, json, os, re, signal, sys, threading, time
        path, log_path, mode = sys.argv[1], sys.argv[2], sys.argv[3]
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        lock = threading.Lock()
        seen = set()
        active = 0

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_GET(self):
                global active
                asked = self.headers.get("Range", "")
                with lock:
                    first = asked not in seen
                    seen.add(asked)
                    active += 1
                    with open(log_path, "a") as log:
                        log.write(json.dumps({"range": asked, "active": active}) + "\n")
                if mode == "slow":
                    time.sleep(0.05)
                with lock:
                    active -= 1
                if mode == "forbidden" or (mode == "fail-once" and first):
                    status = 403 if mode == "forbidden" else 503
                    self.send_response(status)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = open(path, "rb").read()
                match = re.match(r"bytes=(\d+)-(\d+)", asked)
                first_byte, last_byte = int(match.group(1)), min(int(match.group(2)), len(data) - 1)
                body = data[first_byte:last_byte + 1]
                self.send_response(206)
                self.send_header("Content-Range", "bytes %d-%d/%d" % (first_byte, last_byte, len(data)))
                self.send_header("Content-Length", str(len(body)))
                self.send_header("ETag", '"v1"')
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, format, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    init(serving archive: URL, mode: String, in directory: TemporaryDirectory) throws {
        logURL = directory.file("flaky-\(UUID().uuidString).jsonl")
        try Data().write(to: logURL)
        let input = Pipe()
        self.input = input
        (process, port) = try LoopbackTileServer.startPython(
            script: Self.script, named: "flaky_server.py", arguments: [archive.path, logURL.path, mode], input: input,
            in: directory)
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The `Range` headers asked for, in order.
    func ranges() throws -> [String] {
        try requests().map { $0["range"] as? String ?? "" }
    }

    /// The most requests in progress at once.
    func mostActive() throws -> Int {
        try requests().map { $0["active"] as? Int ?? 0 }.max() ?? 0
    }

    private func requests() throws -> [[String: Any]] {
        try String(contentsOf: logURL, encoding: .utf8).split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        }
    }
}
