/// A layer's `*-translate`: how far its geometry is moved, in points, right (x) and down (y)
/// (MapLibre Style Specification, "Layers: fill-translate"). Interpolates between zoom stops.
///
/// The default, ``zero``, does not move anything.
public struct Translation: StyleValueType {
    /// Points to the right.
    public var xPoints: Double
    /// Points down.
    public var yPoints: Double

    public init(xPoints: Double, yPoints: Double) {
        self.xPoints = xPoints
        self.yPoints = yPoints
    }

    /// No translation.
    public static let zero = Translation(xPoints: 0, yPoints: 0)

    /// Whether the translation moves nothing.
    public var isZero: Bool { xPoints == 0 && yPoints == 0 }

    /// A two-number array, `[x, y]`.
    public init?(expressionValue: ExpressionValue) {
        guard let numbers = [Double](expressionValue: expressionValue), numbers.count == 2 else { return nil }
        self.init(xPoints: numbers[0], yPoints: numbers[1])
    }

    public static func interpolated(from start: Translation, to end: Translation, fraction: Double) -> Translation? {
        Translation(
            xPoints: start.xPoints + (end.xPoints - start.xPoints) * fraction,
            yPoints: start.yPoints + (end.yPoints - start.yPoints) * fraction)
    }
}
