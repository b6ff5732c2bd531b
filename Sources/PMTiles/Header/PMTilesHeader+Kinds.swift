import Foundation

extension PMTilesHeader {
    /// A compression as the header names it (specification 3.3): of the directories and
    /// metadata, or of the tiles.
    ///
    /// A value the specification does not list yet is kept as read, so a header round-trips and
    /// tiles can still be served as they are.
    public struct Compression: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The byte in the header.
        public var rawValue: UInt8

        /// The compression with header byte `rawValue`.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// 0: not said.
        public static let unknown = Compression(rawValue: 0)
        /// 1: not compressed.
        public static let none = Compression(rawValue: 1)
        /// 2: gzip (RFC 1952).
        public static let gzip = Compression(rawValue: 2)
        /// 3: brotli (RFC 7932).
        public static let brotli = Compression(rawValue: 3)
        /// 4: Zstandard (RFC 8878).
        public static let zstd = Compression(rawValue: 4)

        /// The HTTP `Content-Encoding` of bytes so compressed: `gzip`, `br`, `zstd`; nil for none
        /// and unknown.
        public var httpContentEncoding: String? {
            switch self {
            case .gzip: "gzip"
            case .brotli: "br"
            case .zstd: "zstd"
            default: nil
            }
        }

        /// `unknown`, `none`, `gzip`, `brotli`, `zstd`, or `compression N`.
        public var description: String {
            switch self {
            case .unknown: "unknown"
            case .none: "none"
            case .gzip: "gzip"
            case .brotli: "brotli"
            case .zstd: "zstd"
            default: "compression \(rawValue)"
            }
        }
    }

    /// What the tiles are (specification 3.2, "Tile Type").
    ///
    /// A value the specification does not list yet is kept as read, as ``Compression`` is.
    public struct TileType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The byte in the header.
        public var rawValue: UInt8

        /// The tile type with header byte `rawValue`.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// 0: unknown or another kind.
        public static let unknown = TileType(rawValue: 0)
        /// 1: Mapbox Vector Tiles.
        public static let mvt = TileType(rawValue: 1)
        /// 2: PNG images.
        public static let png = TileType(rawValue: 2)
        /// 3: JPEG images.
        public static let jpeg = TileType(rawValue: 3)
        /// 4: WebP images.
        public static let webp = TileType(rawValue: 4)
        /// 5: AVIF images.
        public static let avif = TileType(rawValue: 5)
        /// 6: MapLibre Vector Tiles.
        public static let mlt = TileType(rawValue: 6)

        /// The tile type of an MBTiles `format` value or TileJSON-style format name, in any case:
        /// `png`, `jpg`/`jpeg`, `webp`, `avif`, `pbf`/`mvt`, `mlt`, or their MIME types;
        /// ``unknown`` for anything else.
        public init(format: String) {
            switch format.trimmingCharacters(in: .whitespaces).lowercased() {
            case "png", "image/png": self = .png
            case "jpg", "jpeg", "image/jpeg", "image/jpg": self = .jpeg
            case "webp", "image/webp": self = .webp
            case "avif", "image/avif": self = .avif
            case "pbf", "mvt", "application/vnd.mapbox-vector-tile", "application/x-protobuf": self = .mvt
            case "mlt", "application/vnd.maplibre-vector-tile": self = .mlt
            default: self = .unknown
            }
        }

        /// The MBTiles `format` name: `png`, `jpg`, `webp`, `avif`, `pbf`, `mlt`; nil for unknown.
        public var format: String? {
            switch self {
            case .png: "png"
            case .jpeg: "jpg"
            case .webp: "webp"
            case .avif: "avif"
            case .mvt: "pbf"
            case .mlt: "mlt"
            default: nil
            }
        }

        /// The MIME type a tile server sends (`Content-Type`); `application/octet-stream` for unknown.
        public var mimeType: String {
            switch self {
            case .png: "image/png"
            case .jpeg: "image/jpeg"
            case .webp: "image/webp"
            case .avif: "image/avif"
            case .mvt: "application/vnd.mapbox-vector-tile"
            case .mlt: "application/vnd.maplibre-vector-tile"
            default: "application/octet-stream"
            }
        }

        /// ``format``, or `unknown`, or `tile type N` for a value the specification does not list.
        public var description: String {
            if let format { return format }
            return self == .unknown ? "unknown" : "tile type \(rawValue)"
        }
    }
}
