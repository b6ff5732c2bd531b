import Foundation

/// A colour in sRGB with straight (not premultiplied) alpha, each component in [0, 1].
///
/// Styles write colours as CSS strings, as the MapLibre Style Specification's
/// [Color type](https://maplibre.org/maplibre-style-spec/types/#color) allows; see
/// ``init(css:)``. For example:
///
/// ```swift
/// let sea = try Color(css: "#aad3df")
/// let veil = try Color(css: "rgba(0, 0, 0, 0.4)")
/// print(sea.hex, veil.with(alpha: 1).hex) // #aad3df #000000
/// ```
public struct Color: Hashable, Sendable {
    /// Red, in [0, 1].
    public let red: Double
    /// Green, in [0, 1].
    public let green: Double
    /// Blue, in [0, 1].
    public let blue: Double
    /// Opacity, in [0, 1]: 0 is fully transparent.
    public let alpha: Double

    /// Creates a colour; components are clamped into [0, 1] and NaN becomes 0.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Color.clamped(red)
        self.green = Color.clamped(green)
        self.blue = Color.clamped(blue)
        self.alpha = Color.clamped(alpha)
    }

    /// Creates an opaque colour from a 24-bit `0xRRGGBB` value.
    init(rgb: UInt32) {
        self.init(
            red: Double((rgb >> 16) & 0xFF) / 255,
            green: Double((rgb >> 8) & 0xFF) / 255,
            blue: Double(rgb & 0xFF) / 255
        )
    }

    /// The same colour with another opacity, clamped into [0, 1].
    public func with(alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The colour as CSS hex: `#rrggbb` when opaque, `#rrggbbaa` otherwise.
    public var hex: String {
        let components = alpha < 1 ? [red, green, blue, alpha] : [red, green, blue]
        return "#" + components.map { String(format: "%02x", Int(($0 * 255).rounded())) }.joined()
    }

    /// Opaque black, the specification's default for most colour properties.
    public static let black = Color(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = Color(red: 1, green: 1, blue: 1)
    /// Fully transparent black, CSS `transparent`.
    public static let transparent = Color(red: 0, green: 0, blue: 0, alpha: 0)

    private static func clamped(_ value: Double) -> Double {
        value.isNaN ? 0 : min(1, max(0, value))
    }
}

extension Color: CustomStringConvertible {
    /// The colour as CSS hex, as ``hex``.
    public var description: String { hex }
}
