public import Foundation

/// A real nginx on 127.0.0.1 serving the files of a folder, for tests of HTTP range requests:
/// nginx answers `Range` with `206 Partial Content`, sends an `ETag` (the file's modification
/// time and size) and honours `If-Match`, as object stores and CDNs do; or proxying a path to a
/// server, as an ingress does (``init(proxying:to:in:)``).
///
/// nginx runs in the foreground with a configuration, prefix and logs of its own in a temporary
/// folder, on a port free when it starts. Every request is logged (``requests()``): path,
/// status, `Range` and `If-Match`. ``stop()`` (or the end of the value) stops it.
///
/// For example:
///
/// ```swift
/// let server = try LoopbackNginx(serving: folder.url, in: scratch)
/// let url = URL(string: "\(server.baseURL)/world.pmtiles")!
/// ```
public final class LoopbackNginx {
    /// The port nginx listens on.
    public let port: Int
    private let process: Process
    private let logURL: URL

    /// One logged request.
    public struct LoggedRequest: Hashable, Sendable {
        public var path: String
        public var status: Int
        /// The `Range` header; nil without one.
        public var range: String?
        /// The `If-Match` header; nil without one.
        public var ifMatch: String?
    }

    /// Why nginx did not start.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Starts nginx serving `root`; its configuration and logs go in a new folder in `directory`.
    ///
    /// - Throws: ``Failure`` with nginx's error log when it does not start within 10 seconds.
    public convenience init(serving root: URL, in directory: TemporaryDirectory) throws {
        try self.init(server: "root \(root.path);", in: directory)
    }

    /// Starts nginx as a reverse proxy in front of `upstream` (`http://127.0.0.1:PORT`) under
    /// `pathPrefix` (`/maps/`), as an ingress serves an application under a path: the prefix is
    /// stripped before the request is passed on, `Host` and `X-Forwarded-Proto` are set.
    public convenience init(proxying pathPrefix: String, to upstream: String, in directory: TemporaryDirectory) throws {
        try self.init(
            server: """
                location \(pathPrefix) {
                    proxy_pass \(upstream)/;
                    proxy_set_header Host $http_host;
                    proxy_set_header X-Forwarded-Proto $scheme;
                }
                """, in: directory)
    }

    private init(server: String, in directory: TemporaryDirectory) throws {
        let prefix = directory.file("nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: prefix.appendingPathComponent("logs"), withIntermediateDirectories: true)
        logURL = prefix.appendingPathComponent("logs/access.log")
        var lastError = ""
        for _ in 0..<5 {
            let port = try Self.freePort()
            let configuration = """
                daemon off;
                worker_processes 1;
                pid \(prefix.path)/nginx.pid;
                error_log \(prefix.path)/logs/error.log warn;
                events { worker_connections 256; }
                http {
                    log_format ranges '$uri\\t$status\\t$http_range\\t$http_if_match';
                    access_log \(logURL.path) ranges;
                    client_body_temp_path \(prefix.path)/client_body;
                    proxy_temp_path \(prefix.path)/proxy;
                    fastcgi_temp_path \(prefix.path)/fastcgi;
                    uwsgi_temp_path \(prefix.path)/uwsgi;
                    scgi_temp_path \(prefix.path)/scgi;
                    types { application/octet-stream pmtiles; }
                    server {
                        listen 127.0.0.1:\(port);
                        \(server)
                    }
                }
                """
            let configurationURL = prefix.appendingPathComponent("nginx.conf")
            try Data(configuration.utf8).write(to: configurationURL)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = [
                "-p", prefix.path, "-c", configurationURL.path, "-e",
                prefix.appendingPathComponent("logs/error.log").path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // nginx writes its pid file once it listens.
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning,
                !FileManager.default.fileExists(atPath: prefix.appendingPathComponent("nginx.pid").path),
                Date() < deadline
            {
                Thread.sleep(forTimeInterval: 0.02)
            }
            if process.isRunning,
                FileManager.default.fileExists(atPath: prefix.appendingPathComponent("nginx.pid").path)
            {
                self.port = port
                self.process = process
                return
            }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            lastError =
                (try? String(contentsOf: prefix.appendingPathComponent("logs/error.log"), encoding: .utf8))
                ?? "no error log"
        }
        throw Failure(description: "nginx did not start: \(lastError)")
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops nginx and waits for it to exit.
    public func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The requests answered so far, in order.
    public func requests() throws -> [LoggedRequest] {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            func value(_ index: Int) -> String? {
                fields.count > index && fields[index] != "-" && !fields[index].isEmpty ? fields[index] : nil
            }
            return LoggedRequest(path: fields[0], status: Int(value(1) ?? "") ?? 0, range: value(2), ifMatch: value(3))
        }
    }

    /// nginx: `/usr/sbin/nginx` (Debian's `nginx-light`, which `scripts/setup.sh` installs).
    static let executable = "/usr/sbin/nginx"

    /// A port nothing listens on now, as the system picks one.
    private static func freePort() throws -> Int {
        let output = try ExternalCommand.run(
            "python3",
            ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
        guard let port = Int(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "no free port: \(output.transcript)")
        }
        return port
    }
}
