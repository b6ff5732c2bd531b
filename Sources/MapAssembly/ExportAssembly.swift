public import Foundation
import MapComposer
public import MapCore
import MapData
public import MapRenderer
import MapStyle
import MapUtilities
public import TileExport
import TileSources
import TilesetTools

/// What a tile export exports, as values: the style and its data, the area and zooms, the photos
/// and overlays drawn over it, how pins are drawn, the tiles' options. Builds the
/// ``TileExport/TileExport`` as `mapwright tiles export` does, with the same metadata and the
/// same content fingerprint (what `--resume` checks):
///
/// ```swift
/// let inputs = ExportInputs(style: "standard", area: .place("Portugal"), zoomLevels: 0...6)
/// let made = try inputs.makeExport(output: URL(fileURLWithPath: "portugal.pmtiles"))
/// let summary = try made.export.run(isCancelled: { false }, progress: { _ in })
/// ```
public struct ExportInputs: Sendable {
    /// Where the tiles are: a region, or a country or state/province of the basemap.
    public enum Area: Hashable, Sendable {
        case region(CoordinateRegion)
        case place(String)
    }

    /// The style, by name or path. The default is `standard`.
    public var style: String
    /// Where the style and its data are.
    public var map: MapInputs
    public var photos: PhotoInputs
    public var overlays: OverlayInputs
    public var drawing: PhotoDrawing
    public var area: Area
    /// The zoom levels, 0 to ``TileID/maximumZoom``.
    public var zoomLevels: ClosedRange<Int>
    /// Tile size, scale, metatile size and layers. The default is 256-point tiles @1x in 8 × 8
    /// metatiles, everything drawn.
    public var tileOptions: TileRenderOptions
    /// Jobs, resuming, shard and PNG encoding; the fingerprint is worked out here.
    public var options: TileExport.Options
    /// The most tiles the export may have, a guard against the world at deep zooms by mistake.
    /// The default is 1,000,000,000 (the planet to zoom 14 is 358 million).
    public var maximumTileCount: Int
    /// The tileset's name in its metadata; nil (the default) takes the output's file name.
    public var name: String?
    /// The version of Mapwright named in the tileset's description. The default is empty.
    public var version: String

    public init(
        style: String = "standard", map: MapInputs = MapInputs(), photos: PhotoInputs = PhotoInputs(),
        overlays: OverlayInputs = OverlayInputs(), drawing: PhotoDrawing = PhotoDrawing(), area: Area,
        zoomLevels: ClosedRange<Int>,
        tileOptions: TileRenderOptions = TileRenderOptions(), options: TileExport.Options = TileExport.Options(),
        maximumTileCount: Int = 1_000_000_000, name: String? = nil, version: String = ""
    ) {
        self.style = style
        self.map = map
        self.photos = photos
        self.overlays = overlays
        self.drawing = drawing
        self.area = area
        self.zoomLevels = zoomLevels
        self.tileOptions = tileOptions
        self.options = options
        self.maximumTileCount = maximumTileCount
        self.name = name
        self.version = version
    }

    /// The export into `output`, ready to run, and what reading its inputs noticed (a style's
    /// ignored properties, photos without a location, thumbnails that could not be made).
    ///
    /// - Throws: ``AssemblyError`` naming the input at fault: the style, the place, the photos or
    ///   overlays, or an area and zooms of more than ``maximumTileCount`` tiles (`--zoom`).
    public func makeExport(output: URL) throws(AssemblyError) -> (export: TileExport, warnings: [String]) {
        let isPlace = if case .place = area { true } else { false }
        let styled = try map.load(style: style, needsPlaces: isPlace)
        var warnings = styled.warnings.map(\.description)
        let region: CoordinateRegion
        switch area {
        case .region(let value): region = value
        case .place(let name):
            do throws(PhotoMapError) { region = try styled.resolvePlace(named: name).region } catch {
                throw .photoMap(error)
            }
        }
        let cover: MetatileCover
        do throws(MapCoreError) {
            cover = try MetatileCover(region: region, zoomLevels: zoomLevels, metatileSize: tileOptions.metatileSize)
        } catch {
            throw .invalid(.zoom, reason: error.description)
        }
        guard cover.tileCount <= maximumTileCount else {
            throw .invalid(
                .zoom,
                reason:
                    "\(zoomLevels.lowerBound)-\(zoomLevels.upperBound) over this area is \(cover.tileCount.groupedText) tiles, "
                    + "more than --max-tiles \(maximumTileCount.groupedText): export fewer zooms or a smaller area, or raise --max-tiles"
            )
        }

        let tileSize = Double(tileOptions.tileSizePoints)
        let request = try drawing.request(
            loading: photos, overlays: overlays, style: styled.style, size: ViewSize(width: tileSize, height: tileSize),
            scale: Double(tileOptions.scale), warnings: &warnings)
        var photoWarnings: [PhotoMapWarning] = []
        let content: MapTileContent
        do throws(PhotoMapError) {
            content = try PhotoMapBuilder(data: styled.data).tileContent(for: request, warnings: &photoWarnings)
        } catch {
            throw .photoMap(error)
        }
        warnings += photoWarnings.map(\.description)
        let renderer: MapTileRenderer
        do throws(RendererError) {
            renderer = try MapTileRenderer(
                data: styled.data, style: styled.style, content: content, options: tileOptions)
        } catch {
            throw .render(error)
        }

        var metadata = TileMetadata(
            name: name ?? output.deletingPathExtension().lastPathComponent, format: .png,
            attribution: styled.data.attributionText(for: styled.style),
            description:
                "Rendered by Mapwright \(version): style \(style), zooms \(zoomLevels.lowerBound)-\(zoomLevels.upperBound), "
                + "\(tileOptions.tileSizePoints)-point tiles @\(tileOptions.scale)x, \(tileOptions.layers.rawValue)",
            type: tileOptions.layers == .overlays ? .overlay : .baselayer, version: "1")
        if let shard = options.shard { metadata.otherValues[TilesetMerge.shardMetadataKey] = shard.description }
        var exportOptions = options
        exportOptions.fingerprint = ContentFingerprint.text(
            style: style, map: map, photosFingerprint: ContentFingerprint.photos(request.photos), overlays: overlays,
            drawn: drawing.fingerprint)
        return (
            TileExport(renderer: renderer, cover: cover, output: output, metadata: metadata, options: exportOptions),
            warnings
        )
    }
}
