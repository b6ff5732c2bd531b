import Foundation
import Hummingbird
import MapUtilities

/// Responses of bytes that clients may keep: `Content-Type`, a strong `ETag` from the bytes'
/// content hash, `Cache-Control: public, max-age=N` (or `no-cache` for bytes that may change at
/// the same URL any time: clients revalidate with the ETag), and 304 without a body when
/// `If-None-Match` names the ETag.
enum HTTPCaching {
    /// The strong ETag of some bytes: their CRC-32 and Adler-32 (zlib's, both over every byte)
    /// and their length, in hex, quoted: `"1c291ca3 0b1e04a7-2a3"`-like, 64 bits of content hash
    /// plus the size. A tag only has to change when the bytes at one URL change; this one costs a
    /// fifth of an MD5, which took a fifth of the server's time on cached tiles.
    static func entityTag(of data: Data) -> String {
        let (crc, adler) = data.withUnsafeBytes { raw in (UInt(Gzip.crc32(of: raw)), UInt(Gzip.adler32(of: raw))) }
        return "\"" + hex(crc, digits: 8) + hex(adler, digits: 8) + "-" + String(data.count, radix: 16) + "\""
    }

    private static func hex(_ value: UInt, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Whether an `If-None-Match` value (a list of tags, weak or strong, or `*`) matches `tag`.
    static func matches(ifNoneMatch: String, tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { part in
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
        }
    }

    /// - Parameter maxAgeSeconds: How long clients may keep the bytes without asking; `nil`
    ///   sends `no-cache`.
    static func response(_ data: Data, contentType: String, request: Request, maxAgeSeconds: Int?) -> Response {
        response(CachedTile(data), contentType: contentType, request: request, maxAgeSeconds: maxAgeSeconds)
    }

    /// The response of bytes whose tag is worked out already.
    static func response(_ tile: CachedTile, contentType: String, request: Request, maxAgeSeconds: Int?) -> Response {
        let tag = tile.entityTag
        var headers: HTTPFields = [
            .eTag: tag,
            .cacheControl: maxAgeSeconds.map { "public, max-age=\($0)" } ?? "no-cache",
        ]
        if let condition = request.headers[.ifNoneMatch], matches(ifNoneMatch: condition, tag: tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        headers[.contentLength] = "\(tile.bytes.readableBytes)"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: tile.bytes))
    }

    static func json(_ object: Any, request: Request, maxAgeSeconds: Int?) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return response(data, contentType: "application/json", request: request, maxAgeSeconds: maxAgeSeconds)
    }
}
