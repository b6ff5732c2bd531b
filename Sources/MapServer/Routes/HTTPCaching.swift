import Foundation
import HTTPTypes
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
        answer(tile, contentType: contentType, ifNoneMatch: request.headers[.ifNoneMatch], maxAgeSeconds: maxAgeSeconds)
            .response
    }

    /// The answer of bytes whose tag is worked out already, to a request whose `If-None-Match`
    /// is `ifNoneMatch`: the routes make a ``Response`` of it, ``KeptTileByteHandler`` writes it to
    /// the channel itself.
    static func answer(_ tile: CachedTile, contentType: String, ifNoneMatch: String?, maxAgeSeconds: Int?) -> Answer {
        let tag = tile.entityTag
        var headers = HTTPFields()
        headers.reserveCapacity(10)
        headers.append(HTTPField(name: .eTag, value: tag))
        headers.append(HTTPField(name: .cacheControl, value: cacheControl(maxAgeSeconds: maxAgeSeconds)))
        if let ifNoneMatch, matches(ifNoneMatch: ifNoneMatch, tag: tag) {
            return Answer(status: .notModified, headers: headers, body: nil)
        }
        headers.append(HTTPField(name: .contentType, value: contentType))
        headers.append(HTTPField(name: .contentLength, value: String(tile.bytes.readableBytes)))
        return Answer(status: .ok, headers: headers, body: tile.bytes)
    }

    /// `public, max-age=N`, or `no-cache` for `nil`; the server's usual ages made once.
    static func cacheControl(maxAgeSeconds: Int?) -> String {
        guard let maxAgeSeconds else { return "no-cache" }
        switch maxAgeSeconds {
        case 3_600: return "public, max-age=3600"
        case 10: return "public, max-age=10"
        default: return "public, max-age=\(maxAgeSeconds)"
        }
    }

    /// A response's parts before it becomes a Hummingbird ``Response``: its status, headers and
    /// body bytes (`nil` for none).
    struct Answer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer?

        var response: Response {
            Response(
                status: status, headers: headers, body: body.map { ResponseBody(byteBuffer: $0) } ?? ResponseBody())
        }
    }

    static func json(_ object: Any, request: Request, maxAgeSeconds: Int?) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return response(data, contentType: "application/json", request: request, maxAgeSeconds: maxAgeSeconds)
    }
}
