public import Foundation

/// A real HTTP server on 127.0.0.1: Python's `http.server`, run as a subprocess, serving the files
/// of a folder.
///
/// The server binds port 0 and prints the port the system chose, so parallel tests never race
/// for a port. Every GET is logged as a JSON line (path, `User-Agent`, requests in progress) to
/// ``logURL``; each answer waits `delaySeconds` first, so concurrent requests overlap. A path
/// `/status/CODE/...` answers with that HTTP status.
///
/// ``stop()`` (or the end of the value) terminates the server; should the test process die
/// first, the server exits when its standard input closes.
public final class LoopbackTileServer {
    public let port: Int
    public let logURL: URL
    private let process: Process
    private let input: Pipe

    private static let script = #"""
        import http.server, json, os, signal, sys, threading, time
        root, log_path, delay = sys.argv[1], sys.argv[2], float(sys.argv[3])
        # The test process's threads block signals, and a child inherits the mask: unblock SIGTERM.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])

        def exit_when_stdin_closes():
            # The test closes stdin to stop the server, and the system closes it if the test dies.
            sys.stdin.read()
            os._exit(0)

        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
        lock = threading.Lock()
        active = 0

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=root, **kwargs)

            def do_GET(self):
                global active
                with lock:
                    active += 1
                    with open(log_path, "a") as log:
                        log.write(json.dumps({"path": self.path, "userAgent": self.headers.get("User-Agent"), "active": active}) + "\n")
                try:
                    time.sleep(delay)
                finally:
                    # A request stops counting before its answer goes out: the client may start
                    # the next one the moment it reads this answer, before this thread would
                    # otherwise get the lock back.
                    with lock:
                        active -= 1
                if self.path.startswith("/status/"):
                    self.send_error(int(self.path.split("/")[2]))
                else:
                    super().do_GET()

            def log_message(self, format, *args):
                pass

        http.server.ThreadingHTTPServer.daemon_threads = True
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// Starts serving `root`.
    ///
    /// - Parameter delaySeconds: How long each request waits before it is answered. The default is 0.
    public init(serving root: URL, in directory: TemporaryDirectory, delaySeconds: Double = 0) throws {
        logURL = directory.file("requests-\(UUID().uuidString).jsonl")
        try Data().write(to: logURL)
        let input = Pipe()
        self.input = input
        (process, port) = try Self.startPython(
            script: Self.script, named: "tile_server.py", arguments: [root.path, logURL.path, String(delaySeconds)],
            input: input, in: directory)
    }

    /// Starts a Python server script (written to `name` in `directory`) that prints the port it
    /// bound as its first line and exits when its standard input (`input`) closes; returns the
    /// running process and the port.
    ///
    /// - Throws: ``ServerError/didNotStart(output:)`` when no port is printed.
    public static func startPython(
        script: String, named name: String, arguments: [String], input: Pipe, in directory: TemporaryDirectory
    ) throws -> (process: Process, port: Int) {
        let scriptURL = directory.file(name)
        try Data(script.utf8).write(to: scriptURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        // The first line is the port; an empty read means the server died before binding.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw ServerError.didNotStart(output: String(decoding: line, as: UTF8.self))
        }
        return (process, port)
    }

    deinit {
        stop()
    }

    /// The base URL, `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops the server and waits for it to exit; the port then refuses connections.
    public func stop() {
        if process.isRunning { process.terminate() }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The requests logged so far.
    public func requests() throws -> [LoggedRequest] {
        let text = try String(contentsOf: logURL, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(LoggedRequest.self, from: Data($0.utf8)) }
    }

    public struct LoggedRequest: Decodable, Sendable {
        public var path: String
        public var userAgent: String?
        /// Requests in progress when this one arrived, itself included.
        public var active: Int
    }

    public enum ServerError: Error {
        case didNotStart(output: String)
    }
}
