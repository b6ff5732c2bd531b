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
        } else if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else if bytes.starts(with: [0x1F, 0x8B]) {
            self = .pbf
        } else {
            return nil
        }
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
