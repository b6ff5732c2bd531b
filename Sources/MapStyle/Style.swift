import Foundation

/// A map style: sources, the layers drawn from them, and Mapwright's own section for pins,
/// callouts and overlays.
///
/// Styles are JSON files following the MapLibre Style Specification, with the exceptions
/// `Styles/README.md` lists. For example:
///
/// ```swift
/// let (style, warnings) = try Style.named("dark", in: URL(fileURLWithPath: "Styles"))
/// warnings.forEach { print("warning: \($0)") }
/// for layer in style.layers where layer.isVisible(atZoom: 4) { ... }
/// ```
public struct Style: Hashable, Sendable {
    /// The style's identifier: its file name without `.json` when loaded from a file, such as
    /// `dark`; otherwise its `name`, or `style`.
    public var id: String
    /// The root `name`, for people. The default is nil.
    public var name: String?
    /// `sources`, by id.
    public var sources: [String: StyleSource]
    /// `layers`, bottom first.
    public var layers: [StyleLayer]
    /// Mapwright's section, `metadata.mapwright`, with defaults for what the style leaves out.
    public var mapwright: MapwrightMetadata
    /// The root `sky`: what pitched views show above the horizon. The default describes nothing
    /// (the renderer's sky).
    public var sky: Sky
    /// The root `light`: how extruded buildings are lit. The default is MapLibre's.
    public var light = Light()
    /// The root `sprite`: the sheets of images that patterns and icons name, in order. The
    /// default is none.
    public var sprites: [SpriteReference] = []
    /// The root `glyphs`: where SDF glyph ranges are, a template with `{fontstack}` and
    /// `{range}` (`0-255`...): an absolute path for local glyphs, or the URL as written. Text
    /// is drawn from local glyphs when they have its font stack (see the renderer); nil (the
    /// default) draws text with the installed fonts.
    public var glyphs: String?
    /// The root `center`, `zoom`, `bearing` and `pitch`: the style's own view, drawn when
    /// nothing else frames a map; nil (the default) when the style has no `center`.
    public var camera: StyleCamera?

    /// Creates a style.
    public init(
        id: String,
        name: String? = nil,
        sources: [String: StyleSource] = [:],
        layers: [StyleLayer] = [],
        mapwright: MapwrightMetadata = MapwrightMetadata(),
        sky: Sky = Sky()
    ) {
        self.id = id
        self.name = name
        self.sources = sources
        self.layers = layers
        self.mapwright = mapwright
        self.sky = sky
    }

    /// The layers drawn at a zoom level, bottom first.
    public func layers(visibleAtZoom zoom: Double) -> [StyleLayer] {
        layers.filter { $0.isVisible(atZoom: zoom) }
    }

    /// The credit line: `metadata.mapwright.attribution.text`, or else the distinct `attribution`s
    /// of the sources the layers use, joined by " · "; nil when there is none.
    public var attributionText: String? {
        if let text = mapwright.attribution.text { return text }
        var seen: Set<String> = []
        let credits = layers.compactMap { $0.source.flatMap { sources[$0]?.attribution } }
            .filter { seen.insert($0).inserted }
        return credits.isEmpty ? nil : credits.joined(separator: " · ")
    }
}
