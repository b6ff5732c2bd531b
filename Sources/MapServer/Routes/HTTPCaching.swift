import Foundation
import Hummingbird
import MapUtilities

/// Responses of bytes that clients may keep: `Content-Type`, a strong `ETag` from the bytes' MD5,
/// `Cache-Control: public, max-age=N`, and 304 without a body when `If-None-Match` names the ETag.
enum HTTPCaching {
    /// The strong ETag of some bytes: their MD5 in hex, quoted.
    static func entityTag(of data: Data) -> String {
        "\"" + MD5.digest(of: data).hexDigits + "\""
    }

    /// Whether an `If-None-Match` value (a list of tags, weak or strong, or `*`) matches `tag`.
    static func matches(ifNoneMatch: String, tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { part in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }

    static func response(_ data: Data, contentType: String, request: Request, maxAgeSeconds: Int) -> Response {
        let tag = entityTag(of: data)
        var headers: HTTPFields = [
            .eTag: tag,
            .cacheControl: "public, max-age=\(maxAgeSeconds)",
        ]
        if let condition = request.headers[.ifNoneMatch], matches(ifNoneMatch: condition, tag: tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        headers[.contentLength] = "\(data.count)"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func json(_ object: Any, request: Request, maxAgeSeconds: Int) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return response(data, contentType: "application/json", request: request, maxAgeSeconds: maxAgeSeconds)
    }
}
