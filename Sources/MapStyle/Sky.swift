import Foundation

/// The root `sky` of a style: the colours a pitched view shows above the horizon and the fog
/// that blends the far ground into it (MapLibre Style Specification, "Sky"). Flat views never
/// show it.
///
/// Each property may change with zoom. A property the style leaves out is nil, and the
/// renderer picks it from the style's background: a light sky over light maps, a night sky
/// over dark ones.
public struct Sky: Hashable, Sendable {
    /// `sky-color`: the colour at the top of the sky. The default is nil.
    public var skyColor: StyleValue<Color>?
    /// `horizon-color`: the colour at the horizon. The default is nil.
    public var horizonColor: StyleValue<Color>?
    /// `fog-color`: the colour the far ground fades into. The default is nil.
    public var fogColor: StyleValue<Color>?
    /// `sky-horizon-blend`, in [0, 1]: how far up the sky the horizon colour reaches, as a
    /// fraction of the sky's height; 0 is the sky colour only. The default is nil.
    public var skyHorizonBlend: StyleValue<Double>?
    /// `fog-ground-blend`, in [0, 1]: where the fog starts on the ground, as a fraction of the
    /// way from the view's centre (0) to the horizon (1). The default is nil.
    public var fogGroundBlend: StyleValue<Double>?

    /// A sky the style does not describe: every property nil.
    public init() {}
}
