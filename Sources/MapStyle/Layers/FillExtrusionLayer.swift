import Foundation

/// The properties of a `fill-extrusion` layer: polygons raised into lit blocks, buildings
/// (MapLibre Style Specification, "Layers: fill-extrusion").
///
/// A flat view shows the roofs; a pitched view the walls too. Faces are lit by the style's
/// ``Light`` as MapLibre lights them (see ``FillExtrusionLayer/litColor(_:normal:light:bearingDegrees:)``).
/// With `fill-extrusion-pattern`, roofs and walls show a sprite image instead of the colour,
/// lit as MapLibre lights patterns (see ``FillExtrusionLayer/patternLighting(normal:light:bearingDegrees:gradient:)``).
public struct FillExtrusionLayer: Hashable, Sendable {
    /// `fill-extrusion-color`; its alpha darkens it rather than letting the ground show through
    /// (as in MapLibre; the opacity does that). The default is black.
    public var color: StyleValue<Color> = .constant(.black)
    /// `fill-extrusion-opacity`, in [0, 1], for the whole layer: only the nearest face of each
    /// pixel shows through. The default is 1.
    public var opacity: StyleValue<Double> = .constant(1)
    /// `fill-extrusion-height`, the roof's height above the ground, in metres; negative reads
    /// as 0. The default is 0.
    public var height: StyleValue<Double> = .constant(0)
    /// `fill-extrusion-base`, the bottom's height, in metres; negative reads as 0. The default
    /// is 0.
    public var base: StyleValue<Double> = .constant(0)
    /// `fill-extrusion-vertical-gradient`: walls darken towards the ground. The default is true.
    public var verticalGradient = true
    /// `fill-extrusion-translate`, in points: the buildings are moved on the ground (as GL moves
    /// them, before the perspective). The default is ``Translation/zero``.
    public var translate: StyleValue<Translation> = .constant(.zero)
    /// `fill-extrusion-translate-anchor`. The default is map.
    public var translateAnchor: StyleValue<TranslateAnchor> = .constant(.map)
    /// `fill-extrusion-pattern`: a sprite image on roofs and walls instead of the colour; nil
    /// draws the colour. The default is nil.
    public var pattern: StyleValue<ResolvedImage>?

    public init() {}

    /// The colour MapLibre gives a face of an extrusion of `color` (its alpha ignored) whose
    /// outward normal is `normal` (x east, y south, z up; unit length), lit by `light` in a view
    /// turned `bearingDegrees` clockwise. `gradient` is the vertical gradient's factor at this
    /// point of a wall (1 for roofs and without the gradient). The result is opaque; the
    /// layer's opacity applies to the layer as a whole.
    public static func litColor(
        _ color: Color, normal: (x: Double, y: Double, z: Double), light: Light, bearingDegrees: Double,
        gradient: Double = 1
    ) -> Color {
        // MapLibre's colours are premultiplied: a translucent colour is a darker one here.
        let color = Color(
            red: color.red * color.alpha, green: color.green * color.alpha, blue: color.blue * color.alpha)
        let position = light.direction(bearingDegrees: bearingDegrees)
        let luminance = color.red * 0.2126 + color.green * 0.7152 + color.blue * 0.0722
        let intensity = light.intensity
        let cosine = min(1, max(0, normal.x * position.x + normal.y * position.y + normal.z * position.z))
        // A narrower range of light and shade for a dim light and for bright colours.
        let low = 1 - intensity
        let high = max(1 - luminance + intensity, 1)
        let directional = (low + (high - low) * cosine) * gradient
        // Slight ambient light: no face is black; the shade tends to the light's complement.
        func channel(_ value: Double, _ light: Double) -> Double {
            min(1, max(0.3 * (1 - light), (value + 0.03) * directional * light))
        }
        return Color(
            red: channel(color.red, light.color.red), green: channel(color.green, light.color.green),
            blue: channel(color.blue, light.color.blue))
    }

    /// What MapLibre's pattern shader multiplies a patterned face's texel by (red, green, blue):
    /// the light's colour times the face's directional light (from `1 - intensity` facing away
    /// to `max(0.5 + intensity, 1)` facing the light, times `gradient` on walls), at least
    /// `0.3 × (1 - light colour)` and at most 1.
    public static func patternLighting(
        normal: (x: Double, y: Double, z: Double), light: Light, bearingDegrees: Double, gradient: Double = 1
    ) -> (red: Double, green: Double, blue: Double) {
        let position = light.direction(bearingDegrees: bearingDegrees)
        let intensity = light.intensity
        let cosine = min(1, max(0, normal.x * position.x + normal.y * position.y + normal.z * position.z))
        let low = 1 - intensity
        let high = max(0.5 + intensity, 1)
        let directional = (low + (high - low) * cosine) * gradient
        func channel(_ light: Double) -> Double { min(1, max(0.3 * (1 - light), directional * light)) }
        return (channel(light.color.red), channel(light.color.green), channel(light.color.blue))
    }

    /// The vertical gradient's factor of a wall point: `t` is 0 at the wall's bottom, 1 at its
    /// top; `base` and `height` in metres (already clamped at 0).
    public static func verticalGradientFactor(t: Double, base: Double, height: Double, light: Light) -> Double {
        let floor = 0.7 + (0.98 - 0.7) * (1 - light.intensity)
        return min(1, max(floor, (t + base) * (height / 150).squareRoot()))
    }
}
