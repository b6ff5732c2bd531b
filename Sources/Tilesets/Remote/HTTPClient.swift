import CCurl
import Foundation
import MapUtilities
import Synchronization

/// HTTP GET requests, blocking the calling thread, through libcurl opened on first use (see
/// `CCurl`): what remote tilesets (``HTTPTileSource``, ``HTTPRangeSource``) and remote styles,
/// sprites and glyphs (``HTTPFileCache``) fetch with.
///
/// - Requests follow redirects (at most 10), over HTTP and HTTPS only, and ask for compressed
///   answers, which arrive decoded (as URLSession's did).
/// - A request fails as ``HTTPFailure/Kind/timedOut`` when no byte arrives for
///   ``idleTimeoutSeconds``: while connecting, waiting for the answer, or within the body.
/// - Connections stay open between requests: up to ``keptConnections`` are kept for the next
///   requests, so a series of range requests to one server reuses one TLS session.
///
/// Call it from threads that may block (the renderer's), never from a Swift concurrency task.
final class HTTPClient: Sendable {
    /// How long a request may wait for its next byte, in seconds.
    let idleTimeoutSeconds: Double
    /// The `User-Agent` header of every request.
    let userAgent: String
    /// The most idle connections kept for later requests.
    let keptConnections: Int
    /// The idle connections (each used by one request at a time; see `mw_http_connection`).
    private let idle = Mutex<[UnsafeTransfer<OpaquePointer>]>([])

    /// A client whose requests wait at most `idleTimeoutSeconds` for each byte and name
    /// `userAgent`; `keptConnections` connections are kept open between requests.
    init(idleTimeoutSeconds: Double, userAgent: String, keptConnections: Int = 6) {
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.userAgent = userAgent
        self.keptConnections = keptConnections
    }

    deinit {
        for connection in idle.withLock({ $0 }) { mw_http_connection_free(connection.wrappedValue) }
    }

    /// GETs `url` with the extra `headers` (name and value), waiting for the whole answer.
    func get(_ url: String, headers: [(name: String, value: String)] = []) -> Result<HTTPAnswer, HTTPFailure> {
        guard let connection = idle.withLock({ $0.popLast() })?.wrappedValue ?? mw_http_connection_new() else {
            return .failure(HTTPFailure(kind: .failed, reason: "libcurl could not start a request"))
        }
        let lines = [("User-Agent", userAgent)] + headers
        var answer = mw_http_answer()
        withCStrings(lines.map { "\($0.0): \($0.1)" }) { pointers in
            mw_http_get(connection, url, pointers.baseAddress, pointers.count, idleTimeoutSeconds, &answer)
        }
        defer { mw_http_answer_free(&answer) }
        let kept = idle.withLock { connections in
            guard connections.count < keptConnections else { return false }
            connections.append(UnsafeTransfer(connection))
            return true
        }
        if !kept { mw_http_connection_free(connection) }
        guard answer.outcome == MW_HTTP_ANSWERED else {
            let reason = withUnsafeBytes(of: answer.reason) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return .failure(HTTPFailure(kind: HTTPFailure.Kind(answer.outcome), reason: reason))
        }
        let body = answer.body.map { Data(bytes: $0, count: answer.body_count) } ?? Data()
        let headerText =
            answer.headers.map {
                String(decoding: UnsafeRawBufferPointer(start: $0, count: answer.headers_count), as: UTF8.self)
            } ?? ""
        return .success(HTTPAnswer(statusCode: answer.status, headerBlock: headerText, body: body))
    }

    /// Calls `body` with the strings as a buffer of C strings, alive for the call.
    private func withCStrings<R>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return copies.map { UnsafePointer($0) }.withUnsafeBufferPointer(body)
    }
}

/// An HTTP answer: its status, header fields and body.
struct HTTPAnswer: Sendable {
    let statusCode: Int
    /// The header fields by lowercased name; a repeated field's values joined by ", ".
    let headerFields: [String: String]
    let body: Data

    init(statusCode: Int, headerFields: [String: String], body: Data) {
        self.statusCode = statusCode
        self.headerFields = headerFields
        self.body = body
    }

    /// An answer from its status and its header block as sent (the status line first).
    init(statusCode: Int, headerBlock: String, body: Data) {
        var fields: [String: String] = [:]
        for line in headerBlock.split(whereSeparator: \.isNewline).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        self.init(statusCode: statusCode, headerFields: fields, body: body)
    }

    /// The value of the header field `name` (any case), or nil.
    func value(forHeader name: String) -> String? { headerFields[name.lowercased()] }
}

/// Why a request got no answer.
struct HTTPFailure: Error, Sendable {
    enum Kind: Sendable {
        case hostNotFound
        case connectionRefused
        case timedOut
        /// The connection closed before the whole answer came.
        case connectionLost
        case failed

        init(_ outcome: mw_http_outcome) {
            switch outcome {
            case MW_HTTP_HOST_NOT_FOUND: self = .hostNotFound
            case MW_HTTP_CONNECTION_REFUSED: self = .connectionRefused
            case MW_HTTP_TIMED_OUT: self = .timedOut
            case MW_HTTP_CONNECTION_LOST: self = .connectionLost
            default: self = .failed
            }
        }
    }

    let kind: Kind
    /// libcurl's description, for ``Kind/failed``.
    let reason: String
}
