/// The properties of a `hillshade` layer: relief shading of a `raster-dem` source's elevations
/// (MapLibre Style Specification, "Layers: hillshade").
///
/// Slopes facing away from the light take the shadow colour, those facing it the highlight
/// colour, steep ground the accent colour, each as strong as the slope is steep.
public struct HillshadeLayer: Hashable, Sendable {
    /// `hillshade-illumination-direction`, in degrees clockwise from the top of the map or the
    /// viewport (see ``illuminationAnchor``): where the light comes from. The default is 335
    /// (north-north-west).
    public var illuminationDirection: StyleValue<Double> = .constant(335)
    /// `hillshade-illumination-anchor`: whether the direction turns with the map. The default is
    /// viewport.
    public var illuminationAnchor: StyleValue<HillshadeIlluminationAnchor> = .constant(.viewport)
    /// `hillshade-exaggeration`, in [0, 1]: the shading's strength. The default is 0.5.
    public var exaggeration: StyleValue<Double> = .constant(0.5)
    /// `hillshade-shadow-color`. The default is black.
    public var shadowColor: StyleValue<Color> = .constant(.black)
    /// `hillshade-highlight-color`. The default is white.
    public var highlightColor: StyleValue<Color> = .constant(.white)
    /// `hillshade-accent-color`: the colour of steep ground whatever it faces. The default is black.
    public var accentColor: StyleValue<Color> = .constant(.black)
    /// `hillshade-illumination-altitude`, in degrees above the horizon, read by the methods other
    /// than standard. The default is 45.
    public var illuminationAltitude: StyleValue<Double> = .constant(45)
    /// `hillshade-method`. The default is standard.
    public var method: StyleValue<HillshadeMethod> = .constant(.standard)

    public init() {}
}

/// What `hillshade-illumination-direction` is measured from, `hillshade-illumination-anchor`
/// (MapLibre Style Specification, "Layers: hillshade").
///
/// The default is ``viewport``.
public enum HillshadeIlluminationAnchor: String, StyleValueType, CaseIterable {
    /// North: the light turns with the map.
    case map
    /// The top of the view: the light stays put as the map turns.
    case viewport
}

/// How slopes become shades, `hillshade-method` (MapLibre Style Specification, "Layers:
/// hillshade").
///
/// The default is ``standard``.
public enum HillshadeMethod: String, StyleValueType, CaseIterable {
    /// MapLibre's own: shadow and highlight by aspect, accent by slope, eased by the exaggeration.
    case standard
    /// Lambertian shading from a light at the illumination altitude.
    case basic
    /// Shading by the angle to the light, scaled by the slope.
    case combined
    /// Igor Kamenev's: shadow and highlight by aspect, as strong as the slope, never hiding the map.
    case igor
    /// Several lights around the direction; drawn as ``basic`` from the one direction.
    case multidirectional
}
