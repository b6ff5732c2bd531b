import Foundation
public import Hummingbird

/// An answer other than 2xx, with a one-line reason in plain text: what every route throws for
/// a request it cannot serve. Anything else thrown becomes a bare 500 (no message, no trace).
public struct ServeError: HTTPResponseError, CustomStringConvertible {
    public var status: HTTPResponse.Status
    /// The reason, one line.
    public var reason: String
    /// Extra headers, e.g. `Retry-After`.
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ reason: String, headers: HTTPFields = [:]) {
        self.status = status
        self.reason = reason.replacingOccurrences(of: "\n", with: " ")
        self.headers = headers
    }

    public var description: String { "\(status.code) \(reason)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: reason + "\n")))
    }

    static func badRequest(_ reason: String) -> ServeError { ServeError(.badRequest, reason) }
    static func notFound(_ reason: String) -> ServeError { ServeError(.notFound, reason) }
    static func unavailable(_ reason: String, retryAfterSeconds: Int) -> ServeError {
        ServeError(.serviceUnavailable, reason, headers: [.retryAfter: "\(retryAfterSeconds)"])
    }
}
