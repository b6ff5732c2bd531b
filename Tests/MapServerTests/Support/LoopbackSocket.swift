import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to a server on 127.0.0.1, for what the testing client cannot do: send
/// nothing, or send a request and leave before the answer. Blocking calls; closed on deinit.
final class LoopbackSocket {
    private var descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Connects to `port` on 127.0.0.1.
    ///
    /// - Parameter receiveTimeoutSeconds: How long ``receive(maximumBytes:)`` waits. The default is 10.
    init(port: Int, receiveTimeoutSeconds: Int = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close()
            throw Failure(description: "connect to port \(port): \(reason)")
        }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Sends a GET of `path` (HTTP/1.1, keep-alive).
    func sendGet(_ path: String) throws {
        try send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    }

    /// Sends `text` as it is, in one `send` (several requests at once are pipelined).
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw Failure(description: "send: \(String(cString: strerror(errno)))")
        }
    }

    /// What the server sends next, up to `maximumBytes`: empty when it closed the connection,
    /// `nil` when nothing came within the receive timeout.
    func receive(maximumBytes: Int = 65_536) -> Data? {
        var buffer = [UInt8](repeating: 0, count: maximumBytes)
        let count = recv(descriptor, &buffer, maximumBytes, 0)
        return count < 0 ? nil : Data(buffer.prefix(count))
    }

    /// Closes the connection (the client leaves); later calls do nothing.
    func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    /// A GET of `path` over its own connection, on a thread of its own, answered within
    /// `timeoutSeconds` (default 120): the status and the body (by `Content-Length`).
    ///
    /// For live tests under the whole suite's load: the testing client gives up after a fixed
    /// 20 s, and the synchronous tests running beside can hold both of the cooperative pool's
    /// threads (which the server's handlers need) for longer; this waits without taking one.
    static func get(port: Int, path: String, timeoutSeconds: Int = 120) async throws -> (status: Int, body: Data) {
        let answer = try await request(port: port, path: path, timeoutSeconds: timeoutSeconds)
        return (answer.status, answer.body)
    }

    /// Sends `text` over a new connection and reads until `isComplete` says the bytes received
    /// are all, the server closes, or `timeoutSeconds` pass; on a thread of its own, so that a
    /// blocking read never holds one of the cooperative pool's threads, which the server needs.
    static func exchange(
        port: Int, _ text: String, timeoutSeconds: Int = 120, isComplete: @escaping @Sendable (Data) -> Bool
    ) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let socket = try LoopbackSocket(port: port, receiveTimeoutSeconds: timeoutSeconds)
                    try socket.send(text)
                    var received = Data()
                    while !isComplete(received) {
                        guard let chunk = socket.receive(), !chunk.isEmpty else { break }
                        received.append(chunk)
                    }
                    continuation.resume(returning: received)
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    /// An answer as it came: status, header lines in order, body.
    struct Answer: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: Data

        /// The first value of a header, by name in any case.
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    }

    /// A GET of `path` with `headers` over its own connection, on a thread of its own (see
    /// ``get(port:path:timeoutSeconds:)``), with `Host: 127.0.0.1:PORT` so that URLs the server
    /// writes from the request's host are whole: the whole answer.
    static func request(port: Int, path: String, headers: [(String, String)] = [], timeoutSeconds: Int = 120)
        async throws -> Answer
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    let socket = try LoopbackSocket(port: port, receiveTimeoutSeconds: timeoutSeconds)
                    try socket.send(
                        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                            + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n")
                    var received = Data()
                    while true {
                        guard let chunk = socket.receive() else {
                            throw Failure(description: "GET \(path): no answer within \(timeoutSeconds) s")
                        }
                        guard !chunk.isEmpty else {
                            throw Failure(description: "GET \(path): the connection closed mid-answer")
                        }
                        received.append(chunk)
                        guard let end = received.range(of: Data("\r\n\r\n".utf8)) else { continue }
                        let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(
                            separatedBy: "\r\n")
                        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
                        let fields = head.dropFirst().compactMap { line -> (name: String, value: String)? in
                            let parts = line.split(separator: ":", maxSplits: 1)
                            guard parts.count == 2 else { return nil }
                            return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces))
                        }
                        let length =
                            fields.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
                        guard received.count - end.upperBound >= length else { continue }
                        continuation.resume(
                            returning: Answer(
                                status: status, headers: fields,
                                body: Data(received[end.upperBound..<(end.upperBound + length)])))
                        return
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}
