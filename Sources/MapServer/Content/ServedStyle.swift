public import Foundation
public import MapData
public import MapRenderer
public import MapStyle
import MapUtilities
import Synchronization

/// A style served as tiles under `/styles/NAME/…`, drawn as a basemap (the style's layers; photos
/// come as the separate overlay).
public struct ServedStyle: Sendable {
    /// The name in URLs.
    public var name: String
    /// The style, its raster sources configured.
    public var style: Style
    /// The vector data it draws from.
    public var data: MapData
    /// A hash of what the tiles depend on besides their address: the style file's bytes and the
    /// raster source; the cache is keyed by it.
    public var contentHash: String
    /// The style file as read: `/styles/NAME/style.json` is this JSON with its sources, sprite
    /// and glyphs pointed at the server (``ClientStyle``).
    public var fileBytes: Data

    /// A style whose cache key is a hash of `fileBytes` (the style file as read) and `extra`
    /// (e.g. the raster source).
    public init(name: String, style: Style, data: MapData, fileBytes: Data, extra: String = "") {
        self.name = name
        self.style = style
        self.data = data
        self.fileBytes = fileBytes
        var hash = FNV1a(fileBytes)
        hash.combine(Array(extra.utf8))
        contentHash = hash.hexDigits
    }
}

/// The photo overlay served under `/overlays/photos/…`: pins, clusters, the callout, tracks and
/// shapes on transparent tiles; and the photos as a density map under `/overlays/heatmap/…`.
public struct ServedOverlay: Sendable {
    /// The style whose pin, cluster, callout and overlay looks the tiles use.
    public var style: Style
    /// Whether the photos are served as a density map too (``heatmapStyle()``): false for
    /// overlays without photos.
    public var hasHeatmap: Bool { makeHeatmapStyle != nil }
    /// The vector data (labels are not drawn; markers need none, but the renderer takes it).
    public var data: MapData
    /// A hash of the photos, overlays and options drawn, and the style; the cache is keyed by it.
    public var contentHash: String
    /// What the tiles are drawn for beyond ``contentHash`` when the photos change while serving
    /// (the fingerprint of a library's photos now), recorded in the cache files so that a file
    /// drawn for other photos is never served; `nil` when the photos cannot change.
    public var drawnFor: String?
    /// Makes what the tiles draw at a scale.
    private let makeContent: @Sendable (_ scale: Int) throws -> MapTileContent
    /// Makes the density map's style.
    private let makeHeatmapStyle: (@Sendable () -> Style)?
    /// The contents made so far, by scale: 256- and 512-point tiles, the annotations API and a
    /// library's change detection share one (clustering a million photos takes a second).
    private let made = MadeContents()

    private final class MadeContents: Sendable {
        let byScale = Mutex<[Int: MapTileContent]>([:])
        let heatmapStyle = Mutex<Style?>(nil)
    }

    /// The photos as a density map on transparent tiles (`PhotoHeatmap.overlayStyle`), made on
    /// first use and kept (its GeoJSON of every photo is made only if a heatmap tile is asked
    /// for); nil when no photos are served.
    public func heatmapStyle() -> Style? {
        guard let makeHeatmapStyle else { return nil }
        if let style = made.heatmapStyle.withLock({ $0 }) { return style }
        let style = makeHeatmapStyle()
        return made.heatmapStyle.withLock { kept in
            if let kept { return kept }
            kept = style
            return style
        }
    }

    public init(
        style: Style, data: MapData, contentHash: String, drawnFor: String? = nil,
        heatmapStyle: (@Sendable () -> Style)? = nil,
        content: @escaping @Sendable (_ scale: Int) throws -> MapTileContent
    ) {
        self.style = style
        self.makeHeatmapStyle = heatmapStyle
        self.data = data
        self.contentHash = contentHash
        self.drawnFor = drawnFor
        self.makeContent = content
    }

    /// What the tiles draw at a scale (callout thumbnails are made at the tiles' scale), made on
    /// first use and kept. Two threads asking at once may both make it; the first kept wins.
    public func content(_ scale: Int) throws -> MapTileContent {
        if let content = made.byScale.withLock({ $0[scale] }) { return content }
        let content = try makeContent(scale)
        return made.byScale.withLock { byScale in
            if let kept = byScale[scale] { return kept }
            byScale[scale] = content
            return content
        }
    }
}
