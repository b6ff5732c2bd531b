public import Foundation

/// The encoding of a tile's bytes, as the MBTiles `format` metadata names it.
///
/// MBTiles 1.3 gives the format as a MIME type and accepts the older short names as synonyms:
/// `png` for `image/png`, `jpg` for `image/jpeg`, `pbf` for `application/vnd.mapbox-vector-tile`.
public enum TileFormat: String, Hashable, Sendable, CaseIterable {
    /// PNG images (`image/png`).
    case png
    /// JPEG images (`image/jpeg`).
    case jpg
    /// WebP images (`image/webp`).
    case webp
    /// Mapbox Vector Tiles (`application/vnd.mapbox-vector-tile`), usually gzip-compressed.
    case pbf

    /// Reads an MBTiles `format` value: a short name or a MIME type, in any case.
    ///
    /// For example, `"image/jpeg"`, `"jpeg"` and `"JPG"` are all ``jpg``. Nil for other formats.
    public init?(metadataValue: String) {
        switch metadataValue.trimmingCharacters(in: .whitespaces).lowercased() {
        case "png", "image/png": self = .png
        case "jpg", "jpeg", "image/jpeg", "image/jpg": self = .jpg
        case "webp", "image/webp": self = .webp
        case "pbf", "mvt", "application/vnd.mapbox-vector-tile", "application/x-protobuf": self = .pbf
        default: return nil
        }
    }

    /// Recognises tile bytes by their first bytes ("magic numbers").
    ///
    /// PNG starts with `89 50 4E 47 0D 0A 1A 0A`, JPEG with `FF D8 FF`, WebP with `RIFF`, a length
    /// and `WEBP`; gzip (`1F 8B`) is taken for a compressed vector tile. Nil for anything else.
    public init?(sniffing data: Data) {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpg
        } else if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8)
        {
            self = .webp
        } else if bytes.starts(with: [0x1F, 0x8B]) {
            self = .pbf
        } else {
            return nil
        }
    }

    /// Whether `data`, recognised as this format by its first bytes, also ends as a whole file of
    /// it does: a PNG with its `IEND` chunk, a JPEG with its end-of-image marker (`FF D9`, allowing
    /// trailing padding), a WebP as long as its RIFF header says, gzip with its 8-byte trailer.
    /// What a tile fetcher checks before caching an answer for good: a cut-off image is not kept.
    public func isWhole(_ data: Data) -> Bool {
        let bytes = [UInt8](data.suffix(64))
        switch self {
        case .png:
            return bytes.count >= 12
                && Array(bytes.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        case .jpg:
            let trimmed = bytes.reversed().drop { $0 == 0 || $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }
            return Array(trimmed.prefix(2)) == [0xD9, 0xFF]
        case .webp:
            guard data.count >= 12 else { return false }
            let start = data.startIndex
            let size = (4..<8).reduce(0) { $0 | Int(data[start + $1]) << (8 * ($1 - 4)) }
            return size + 8 == data.count || size + 9 == data.count
        case .pbf:
            return data.count >= 18
        }
    }

    /// Why bytes of no known format are no tile: `no bytes`, or `it starts with` their first 8
    /// bytes in hex (`it starts with 3C 21 44 4F 43 54 59 50`: an HTML page).
    public static func unrecognisedReason(_ data: Data) -> String {
        let start = data.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
        return data.isEmpty ? "no bytes" : "it starts with \(start)"
    }

    /// The MIME type, for example `image/png`; a tile server's `Content-Type`.
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpg: "image/jpeg"
        case .webp: "image/webp"
        case .pbf: "application/vnd.mapbox-vector-tile"
        }
    }
}
