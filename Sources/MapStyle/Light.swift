import Foundation

/// The root `light` of a style: the light that shades extruded buildings (MapLibre Style
/// Specification, "Light"). Its properties are read as constants; a zoom function is read at
/// its first stop.
public struct Light: Hashable, Sendable {
    /// What the light's direction turns with, `anchor`.
    public enum Anchor: String, Hashable, Sendable, CaseIterable {
        /// The light turns with the map.
        case map
        /// The light stays fixed to the screen, whatever the bearing.
        case viewport
    }

    /// `anchor`. The default is viewport.
    public var anchor: Anchor = .viewport
    /// `color`. The default is white.
    public var color: Color = .white
    /// `intensity`, in [0, 1]: how strongly faces are lit and shaded. The default is 0.5.
    public var intensity: Double = 0.5
    /// `position`: radial distance, azimuth (degrees clockwise from the top of the view, or
    /// from north when anchored to the map) and polar angle (degrees from straight overhead).
    /// The default is [1.15, 210, 30].
    public var position: (radial: Double, azimuthalDegrees: Double, polarDegrees: Double) = (1.15, 210, 30)

    public init() {}

    /// The light's position as a vector in map space (x east, y south, z up), as MapLibre turns
    /// the spherical `position` into it; a viewport-anchored light is turned with the view's
    /// bearing (clockwise degrees).
    public func direction(bearingDegrees: Double) -> (x: Double, y: Double, z: Double) {
        let azimuth = (position.azimuthalDegrees + 90) * .pi / 180
        let polar = position.polarDegrees * .pi / 180
        let x = position.radial * cos(azimuth) * sin(polar)
        let y = position.radial * sin(azimuth) * sin(polar)
        let z = position.radial * cos(polar)
        guard anchor == .viewport, bearingDegrees != 0 else { return (x, y, z) }
        // Fixed to the screen: turn it with the map's bearing into map space.
        let angle = bearingDegrees * .pi / 180
        return (x * cos(angle) - y * sin(angle), x * sin(angle) + y * cos(angle), z)
    }

    public static func == (a: Light, b: Light) -> Bool {
        a.anchor == b.anchor && a.color == b.color && a.intensity == b.intensity && a.position == b.position
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(anchor)
        hasher.combine(color)
        hasher.combine(intensity)
        hasher.combine(position.radial)
        hasher.combine(position.azimuthalDegrees)
        hasher.combine(position.polarDegrees)
    }
}
