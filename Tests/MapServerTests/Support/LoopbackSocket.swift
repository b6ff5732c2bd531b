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
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
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
        let bytes = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
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
}
