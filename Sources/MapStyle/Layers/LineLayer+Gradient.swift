extension LineLayer {
    /// The `line-gradient` ramp as MapLibre samples it into its texture: `count` colours, the
    /// i-th at line progress i / (count − 1), each stored as 8-bit straight-alpha components
    /// rounded down (a transparent colour is transparent black); nil without a gradient. A value
    /// that is not a colour reads as transparent.
    public func gradientRamp(count: Int = 256, atZoom zoom: Double) -> [Color]? {
        guard let gradient else { return nil }
        return (0..<max(2, count)).map { index in
            var context = ExpressionContext(zoom: zoom)
            context.lineProgress = Double(index) / Double(max(2, count) - 1)
            let color = Color(expressionValue: gradient.evaluate(in: context)) ?? .transparent
            func byte(_ component: Double) -> Double { (component * 255 + 1e-9).rounded(.down) / 255 }
            guard color.alpha > 0 else { return .transparent }
            return Color(
                red: byte(color.red), green: byte(color.green), blue: byte(color.blue), alpha: byte(color.alpha))
        }
    }
}
