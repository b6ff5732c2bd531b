import Dispatch
import Foundation
public import Logging
import MapUtilities
import Synchronization

/// `serve`'s log: lines in swift-log's `StreamLogHandler` form (`2026-11-29T12:00:00+0000 info
/// mapwright.serve: [MapServer] GET /styles/… 200 0.2 ms`), written to a file descriptor
/// (standard error by default) by a thread of the log's own, never by the thread that logs. A
/// request's line costs its event loop an append to a list; the writer wakes at most every
/// ``flushIntervalSeconds`` and writes what came meanwhile in one `write(2)`, as nginx's
/// `access_log … buffer=` does. (A line per request written by the event loop itself halved the
/// server's throughput on cached tiles.)
///
/// **Bounds.** At most ``capacityLines`` lines wait; more are dropped and counted, and the count
/// is written in a line of its own (a terminal or pipe slower than the requests must not grow the
/// server's memory). ``close()`` writes what waits and stops the thread; call it before the
/// process exits (lines logged after it are written at once, by the caller).
public final class ServerLog: Sendable {
    /// The most lines that wait for the writer. The default is 100,000 (about 10 MB).
    public let capacityLines: Int
    /// How long the writer lets lines gather before it writes them, in seconds. The default is 0.05.
    public let flushIntervalSeconds: Double
    private let fileDescriptor: Int32
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    private struct State {
        var lines: [Entry] = []
        var dropped = 0
        /// Whether the writer has been woken for the lines waiting.
        var isWriterWoken = false
        var isClosed = false
    }

    /// What a line is made of: the event and its time, formatted on the writer's thread.
    struct Line: Sendable {
        var seconds: Int
        var label: String
        var event: LogEvent
        var metadata: Logger.Metadata
    }

    /// A request's line, `METHOD PATH STATUS T.T ms`, as ``RequestLogMiddleware`` logs it at
    /// info level from MapServer, kept as its parts and written as such a `Line` is: the kept
    /// tiles' answers log through it without making a message on the event loop.
    struct RequestLine: Sendable {
        var seconds: Int
        var label: String
        var method: StaticString
        var path: String
        var status: Int
        var tenthsOfMilliseconds: UInt64
    }

    private enum Entry: Sendable {
        case line(Line)
        case request(RequestLine)
    }

    /// A log writing to `fileDescriptor` (2, standard error, by default), its writer thread started.
    public init(fileDescriptor: Int32 = 2, capacityLines: Int = 100_000, flushIntervalSeconds: Double = 0.05) {
        self.fileDescriptor = fileDescriptor
        self.capacityLines = max(1, capacityLines)
        self.flushIntervalSeconds = flushIntervalSeconds
        let thread = Thread { [self] in writeLoop() }
        thread.name = "mapwright-log"
        thread.start()
    }

    /// A logger writing to this log at `level`.
    public func logger(label: String, level: Logger.Level) -> Logger {
        var logger = Logger(label: label) { label in Handler(label: label, log: self) }
        logger.logLevel = level
        return logger
    }

    /// Writes what waits and stops the writer. Later lines are written by the thread that logs them.
    public func close() {
        let wasOpen = state.withLock { state in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        guard wasOpen else { return }
        wake.signal()
        stopped.wait()
    }

    func append(_ line: Line) { append(.line(line)) }

    /// Appends a request's line (see ``RequestLine``).
    func append(_ line: RequestLine) { append(.request(line)) }

    /// Appends requests' lines at once: what an event loop gathered while it answered them.
    func append(contentsOf lines: [RequestLine]) { append(lines.map { .request($0) }) }

    private func append(_ line: Entry) { append([line]) }

    private func append(_ lines: [Entry]) {
        enum Action { case none, wake, writeNow }
        let action: Action = state.withLock { state in
            if state.isClosed { return .writeNow }
            let room = max(0, capacityLines - state.lines.count)
            state.dropped += max(0, lines.count - room)
            guard room > 0 else { return .none }
            state.lines.append(contentsOf: lines.prefix(room))
            guard !state.isWriterWoken else { return .none }
            state.isWriterWoken = true
            return .wake
        }
        switch action {
        case .none: break
        case .wake: wake.signal()
        case .writeNow: write(lines, dropped: 0)
        }
    }

    private func writeLoop() {
        while true {
            wake.wait()
            if !state.withLock({ $0.isClosed }) { Thread.sleep(forTimeInterval: flushIntervalSeconds) }
            let (lines, dropped, isClosed) = state.withLock { state in
                defer {
                    state.lines.removeAll(keepingCapacity: true)
                    state.dropped = 0
                    state.isWriterWoken = false
                }
                return (state.lines, state.dropped, state.isClosed)
            }
            write(lines, dropped: dropped)
            if isClosed {
                stopped.signal()
                return
            }
        }
    }

    private func write(_ lines: [Entry], dropped: Int) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.count * 100)
        var formatter = TimestampFormatter()
        for entry in lines {
            switch entry {
            case .line(let line):
                bytes.append(contentsOf: Self.format(line, timestamp: formatter.text(line.seconds)).utf8)
            case .request(let line):
                Self.append(line, timestamp: formatter.text(line.seconds), to: &bytes)
            }
        }
        if dropped > 0 {
            bytes.append(
                contentsOf:
                    "\(formatter.text(time(nil))) warning mapwright.log: \(dropped) log lines were dropped: the log's output is slower than the server\n"
                    .utf8)
        }
        guard !bytes.isEmpty else { return }
        // A log that cannot be written (a closed terminal) loses its lines: there is nowhere to say so.
        _ = bytes.withUnsafeBytes { MapUtilities.writeAll($0, to: fileDescriptor) }
    }

    /// A request's line as ``format(_:timestamp:)`` writes the `Line` of its message.
    static func append(_ line: RequestLine, timestamp: String, to bytes: inout [UInt8]) {
        // Small numbers are small strings, kept inline: no allocation.
        func number(_ value: UInt64) { bytes.append(contentsOf: String(value).utf8) }
        bytes.append(contentsOf: timestamp.utf8)
        bytes.append(contentsOf: " info ".utf8)
        bytes.append(contentsOf: line.label.utf8)
        bytes.append(contentsOf: ": [MapServer] ".utf8)
        line.method.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: line.path.utf8)
        bytes.append(UInt8(ascii: " "))
        number(UInt64(line.status))
        bytes.append(UInt8(ascii: " "))
        number(line.tenthsOfMilliseconds / 10)
        bytes.append(UInt8(ascii: "."))
        number(line.tenthsOfMilliseconds % 10)
        bytes.append(contentsOf: " ms\n".utf8)
    }

    /// A line as `StreamLogHandler` writes it.
    static func format(_ line: Line, timestamp: String) -> String {
        var metadata = line.metadata
        if let explicit = line.event.metadata { metadata.merge(explicit) { _, new in new } }
        if let error = line.event.error {
            metadata["error.message"] = "\(error)"
            metadata["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pretty =
            metadata.isEmpty
            ? "" : " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(timestamp) \(line.event.level) \(line.label):\(pretty) [\(line.event.source)] \(line.event.message)\n"
    }

    /// Local time as `%Y-%m-%dT%H:%M:%S%z`, made again only when the second changes.
    private struct TimestampFormatter {
        var second = -1
        var kept = ""

        mutating func text(_ seconds: Int) -> String {
            guard seconds != second else { return kept }
            var value = time_t(seconds)
            var parts = tm()
            localtime_r(&value, &parts)
            var buffer = [CChar](repeating: 0, count: 64)
            let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
            second = seconds
            kept = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return kept
        }
    }

    /// The swift-log handler of a ``ServerLog``.
    struct Handler: LogHandler {
        let label: String
        let log: ServerLog
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.append(Line(seconds: time(nil), label: label, event: event, metadata: metadata))
        }
    }
}
