import Foundation
import MapStyle

/// The colours of a pitched view above and near the horizon, resolved for one zoom: the style's
/// `sky` where it gives them, else a day sky over light maps (MapLibre's default sky blue) and a
/// night sky over dark ones, told apart by the style's background.
struct SkyColors {
    /// Premultiplied, opaque (a, r, g, b) in 0...255.
    let sky: SIMD4<Float>
    let horizon: SIMD4<Float>
    let fog: SIMD4<Float>
    /// How far up the sky the horizon colour reaches, as a fraction of the sky's height.
    let skyHorizonBlend: Double
    /// Where the fog starts, as a fraction of the way from the view's centre to the horizon.
    let fogGroundBlend: Double

    /// The day sky: MapLibre's default sky colour over a pale horizon.
    static let daySky = Color(red: 0x88 / 255.0, green: 0xC6 / 255.0, blue: 0xFC / 255.0)
    static let dayHorizon = Color(red: 0xEA / 255.0, green: 0xF2 / 255.0, blue: 0xF8 / 255.0)
    /// The night sky, for dark styles.
    static let nightSky = Color(red: 0x0B / 255.0, green: 0x12 / 255.0, blue: 0x20 / 255.0)
    static let nightHorizon = Color(red: 0x2C / 255.0, green: 0x37 / 255.0, blue: 0x48 / 255.0)

    /// The sky of a style at a zoom level.
    init(style: Style, zoomLevel zoom: Double) {
        let background =
            style.layers.lazy.compactMap { layer -> Color? in
                guard layer.isVisible(atZoom: zoom), case .background(let background) = layer.kind else { return nil }
                return background.color.value(atZoom: zoom)
            }.first ?? .white
        let isDark = 0.2126 * background.red + 0.7152 * background.green + 0.0722 * background.blue < 0.35
        let skyColor = style.sky.skyColor?.value(atZoom: zoom) ?? (isDark ? Self.nightSky : Self.daySky)
        let horizonColor = style.sky.horizonColor?.value(atZoom: zoom) ?? (isDark ? Self.nightHorizon : Self.dayHorizon)
        let fogColor = style.sky.fogColor?.value(atZoom: zoom) ?? horizonColor
        sky = Self.premultiplied(skyColor)
        horizon = Self.premultiplied(horizonColor)
        fog = Self.premultiplied(fogColor)
        skyHorizonBlend = style.sky.skyHorizonBlend?.value(atZoom: zoom) ?? 0.8
        fogGroundBlend = style.sky.fogGroundBlend?.value(atZoom: zoom) ?? 0.8
    }

    /// The sky's colour at a pixel row above the visible-ground limit: the horizon colour at the
    /// limit, turning smoothly into the sky colour over ``skyHorizonBlend`` of the sky's height.
    func color(atPixelY y: Double, limitPixelY limit: Double) -> SIMD4<Float> {
        let reach = max(1, skyHorizonBlend * max(limit, 1))
        let t = Float(PerspectiveSampler.smoothstep((limit - y) / reach))
        return horizon * (1 - t) + sky * t
    }

    /// A colour as premultiplied (a, r, g, b) in 0...255, made opaque (a sky has no holes).
    private static func premultiplied(_ color: Color) -> SIMD4<Float> {
        SIMD4<Float>(255, Float(color.red * 255), Float(color.green * 255), Float(color.blue * 255))
    }
}
