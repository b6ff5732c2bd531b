import Foundation

/// The properties of a `heatmap` layer: the density of points as a colour ramp (MapLibre Style
/// Specification, "Layers: heatmap").
///
/// Every point (and every vertex of lines and polygons) adds a Gaussian kernel of
/// `heatmap-radius` pixels, scaled by `heatmap-weight` × `heatmap-intensity`; the summed density
/// is coloured by `heatmap-color` and drawn at `heatmap-opacity`.
public struct HeatmapLayer: Hashable, Sendable {
    /// The specification's default `heatmap-color`: transparent blue through royal blue, cyan,
    /// lime and yellow to red at density 1.
    public static let defaultColorRamp: StyleExpression = .interpolate(
        .linear, space: .rgb, input: .call(.heatmapDensity, []),
        stops: [
            .init(input: 0, output: .literal(.color(Color(red: 0, green: 0, blue: 1, alpha: 0)))),
            .init(input: 0.1, output: .literal(.color(Color(red: 65 / 255, green: 105 / 255, blue: 225 / 255)))),
            .init(input: 0.3, output: .literal(.color(Color(red: 0, green: 1, blue: 1)))),
            .init(input: 0.5, output: .literal(.color(Color(red: 0, green: 1, blue: 0)))),
            .init(input: 0.7, output: .literal(.color(Color(red: 1, green: 1, blue: 0)))),
            .init(input: 1, output: .literal(.color(Color(red: 1, green: 0, blue: 0)))),
        ])

    /// `heatmap-radius`: the kernel's radius, in points; data-driven. The default is 30.
    public var radius: StyleValue<Double> = .constant(30)
    /// `heatmap-weight`: how much one point counts; data-driven. The default is 1.
    public var weight: StyleValue<Double> = .constant(1)
    /// `heatmap-intensity`: a multiplier of every weight, by zoom. The default is 1.
    public var intensity: StyleValue<Double> = .constant(1)
    /// `heatmap-color`: an expression of `["heatmap-density"]` giving a colour. The default is
    /// ``defaultColorRamp``.
    public var color: StyleExpression = HeatmapLayer.defaultColorRamp
    /// `heatmap-opacity`, in [0, 1]. The default is 1.
    public var opacity: StyleValue<Double> = .constant(1)

    public init() {}

    /// The colour ramp as MapLibre samples it: `count` colours, the i-th `heatmap-color` at
    /// density i / (count − 1), each stored as 8-bit straight-alpha components rounded down (as
    /// GL's ramp texture holds them). A value that is not a colour reads as transparent.
    public func colorRamp(count: Int = 256, atZoom zoom: Double) -> [Color] {
        (0..<max(2, count)).map { index in
            let density = Double(index) / Double(max(2, count) - 1)
            var context = ExpressionContext(zoom: zoom)
            context.heatmapDensity = density
            let value = color.evaluate(in: context)
            let color = Color(expressionValue: value) ?? .transparent
            func byte(_ component: Double) -> Double { (component * 255 + 1e-9).rounded(.down) / 255 }
            // A transparent colour is black in the texture (its premultiplied components are 0).
            guard color.alpha > 0 else { return .transparent }
            return Color(
                red: byte(color.red), green: byte(color.green), blue: byte(color.blue), alpha: byte(color.alpha))
        }
    }
}
