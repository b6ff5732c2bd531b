import Foundation
import Logging
import Testing

@testable import MapServer

/// `serve`'s log (``ServerLog``): lines as swift-log's `StreamLogHandler` writes them, from a
/// thread of its own, and a request's line kept as its parts written exactly as the router's
/// message line.
@Suite struct ServerLogTests {
    /// What a log writes to a pipe until it is closed.
    private func written(_ body: (ServerLog) -> Void) throws -> String {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let log = ServerLog(fileDescriptor: ends[1], flushIntervalSeconds: 0.01)
        body(log)
        log.close()
        Glibc.close(ends[1])
        let data = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func aRequestsLineIsWrittenAsTheRoutersMessageLineIs() throws {
        let second = 1_800_000_000
        let text = try written { log in
            for (path, status, tenths) in [
                ("/tilesets/world/1/0/0.png", 200, UInt64(3)), ("/styles/a%20b/0/0/0.png", 304, 12_345),
            ] {
                log.append(
                    ServerLog.RequestLine(
                        seconds: second, label: "mapwright.serve", method: "GET", path: path, status: status,
                        tenthsOfMilliseconds: tenths))
                let message = "GET \(path) \(status) \(tenths / 10).\(tenths % 10) ms"
                log.append(
                    ServerLog.Line(
                        seconds: second, label: "mapwright.serve",
                        event: LogEvent(
                            level: .info, message: "\(message)", metadata: nil, source: "MapServer", file: "",
                            function: "", line: 0),
                        metadata: [:]))
            }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines[4].isEmpty, "\(text)")
        #expect(lines[0] == lines[1] && lines[2] == lines[3], "\(text)")
        #expect(
            lines[0].hasSuffix(" info mapwright.serve: [MapServer] GET /tilesets/world/1/0/0.png 200 0.3 ms"),
            "\(lines[0])")
        #expect(
            lines[2].hasSuffix(" info mapwright.serve: [MapServer] GET /styles/a%20b/0/0/0.png 304 1234.5 ms"),
            "\(lines[2])")
    }

    @Test func aLoggersLinesCarryItsMetadataSorted() throws {
        let text = try written { log in
            var logger = log.logger(label: "mapwright.serve", level: .info)
            logger[metadataKey: "b"] = "2"
            logger.info("hello", metadata: ["a": "1"])
            logger.debug("not at info")
        }
        #expect(text.hasSuffix(" info mapwright.serve: a=1 b=2 [MapServerTests] hello\n"), "\(text)")
        #expect(text.split(separator: "\n").count == 1)
    }
}
