public import MapJSON

/// One layer of a style: what to draw, from which source, at which zooms, and how.
///
/// Layers are drawn in order, the first at the bottom (MapLibre Style Specification, "Layers").
/// The renderer reads a layer like this:
///
/// ```swift
/// for layer in style.layers where layer.isVisible(atZoom: zoom) {
///     switch layer.kind {
///     case .fill(let fill): draw(features(layer), color: fill.color.value(atZoom: zoom))
///     ...
///     }
/// }
/// ```
public struct StyleLayer: Hashable, Sendable {
    /// The layer's properties, by type.
    public enum Kind: Hashable, Sendable {
        case background(BackgroundLayer)
        case fill(FillLayer)
        case line(LineLayer)
        case symbol(SymbolLayer)
        case raster(RasterLayer)
        case circle(CircleLayer)
        case hillshade(HillshadeLayer)
        case heatmap(HeatmapLayer)
        case fillExtrusion(FillExtrusionLayer)
    }

    /// The unique layer name, `id`.
    public var id: String
    /// The layer's type and its paint and layout properties.
    public var kind: Kind
    /// The `source` id; nil for background layers.
    public var source: String?
    /// `source-layer`: the table of a GeoPackage (vector) source, such as `countries`; nil for
    /// other sources.
    public var sourceLayer: String?
    /// `minzoom`: the layer is hidden below this zoom. The default is nil (no limit).
    public var minZoom: Double?
    /// `maxzoom`: the layer is hidden at and above this zoom. The default is nil (no limit).
    public var maxZoom: Double?
    /// `filter`: which features to draw; nil draws all. The default is nil.
    public var filter: Filter?
    /// The `visibility` layout property. The default is visible.
    public var visibility: Visibility

    /// Creates a layer.
    public init(
        id: String,
        kind: Kind,
        source: String? = nil,
        sourceLayer: String? = nil,
        minZoom: Double? = nil,
        maxZoom: Double? = nil,
        filter: Filter? = nil,
        visibility: Visibility = .visible
    ) {
        self.id = id
        self.kind = kind
        self.source = source
        self.sourceLayer = sourceLayer
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.filter = filter
        self.visibility = visibility
    }

    /// The layer's `type`.
    public var type: LayerType {
        switch kind {
        case .background: return .background
        case .fill: return .fill
        case .line: return .line
        case .symbol: return .symbol
        case .raster: return .raster
        case .circle: return .circle
        case .hillshade: return .hillshade
        case .heatmap: return .heatmap
        case .fillExtrusion: return .fillExtrusion
        }
    }

    /// Whether the layer is drawn at a zoom level: visible, and `minzoom <= zoom < maxzoom`, the
    /// half-open range of the specification ("Layers: minzoom, maxzoom").
    public func isVisible(atZoom zoom: Double) -> Bool {
        guard visibility == .visible else { return false }
        if let minZoom, zoom < minZoom { return false }
        if let maxZoom, zoom >= maxZoom { return false }
        return true
    }

    /// Whether the layer draws a feature with these properties at zoom `zoom` (which only
    /// expression filters read; the default is 0): true without a filter. `geometry`, the
    /// feature's shape in degrees, is what `within` and `distance` filters read (nil, the
    /// default, for filters that do not: see ``Filter/readsGeometry``).
    public func includes(_ properties: [String: FeatureValue], zoom: Double = 0, geometry: GeoShapes? = nil) -> Bool {
        filter?.evaluate(properties, zoom: zoom, geometry: geometry) ?? true
    }
}
