import CCairo
import Foundation
import MapCore
import MapRenderer
import MapStyle

/// A cluster of annotations drawn as MapKit and web maps draw them: a disc sized by its member
/// count, in the colour of its clustering identifier, with the abbreviated count (16, 1.2k, 3M)
/// in the middle.
enum ClusterMarker {
    /// How far the translucent halo reaches beyond the disc, in points: 4.
    static let haloWidthPoints: Double = 4

    /// The disc's radius in points: from the style's minimum for 2 members to its maximum for
    /// 10,000 or more, growing with the logarithm of the count.
    static func radius(count: Int, style: MapwrightMetadata.Cluster) -> Double {
        let growth = min(1, log10(Double(max(count, 2))) / 4)
        return style.minRadius + (style.maxRadius - style.minRadius) * growth
    }

    /// The area the marker covers, halo included, centred on its coordinate.
    static func frame(count: Int, center: ViewPoint, style: MapwrightMetadata.Cluster) -> ViewRect {
        let outer = radius(count: count, style: style) + haloWidthPoints
        return ViewRect(x: center.x - outer, y: center.y - outer, width: 2 * outer, height: 2 * outer)
    }

    static func draw(
        _ cluster: Cluster, at center: ViewPoint, color: Color, style: MapwrightMetadata.Cluster, cairo: OpaquePointer
    ) {
        let radius = radius(count: cluster.count, style: style)
        cairo_new_path(cairo)
        cairo_arc(cairo, center.x, center.y, radius + haloWidthPoints, 0, 2 * .pi)
        cairo.setSource(color.with(alpha: 0.3))
        cairo_fill(cairo)
        cairo_arc(cairo, center.x, center.y, radius, 0, 2 * .pi)
        cairo.setSource(color)
        cairo_fill_preserve(cairo)
        cairo_set_source_rgba(cairo, 1, 1, 1, 0.9)
        cairo_set_line_width(cairo, 1.5)
        cairo_stroke(cairo)
        let label = TextLayout(
            cluster.abbreviatedCount, font: FontSpec(styleFontName: style.font, sizePoints: style.textSize), in: cairo)
        let size = label.size
        label.draw(at: ViewPoint(x: center.x - size.width / 2, y: center.y - size.height / 2), color: style.textColor)
    }
}
