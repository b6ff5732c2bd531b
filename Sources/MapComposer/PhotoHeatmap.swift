import Foundation
import MapCore
public import MapStyle
public import PhotoSources

/// The photos as a density map: where photographers shot, as a heatmap layer instead of pins.
///
/// The photos become an inline GeoJSON source of points, drawn by a heatmap layer of
/// MapLibre's default colour ramp (transparent blue through cyan, lime and yellow to red) with
/// a kernel of ``radiusPoints``, just under the style's first label layer, so place names
/// stay readable over it.
public enum PhotoHeatmap {
    /// The kernel's radius: 30 points, MapLibre's default.
    public static let radiusPoints: Double = 30
    /// The layer's opacity: 0.8, so the basemap shows through the densest spots.
    public static let opacity: Double = 0.8
    /// The id of the source and of the layer added to the style.
    public static let id = "mapwright-photo-heatmap"

    /// `style` with the photos' heatmap added under its first symbol layer (on top when it has none).
    public static func style(_ style: Style, showing photos: [Photo]) -> Style {
        var style = style
        style.sources[id] = source(photos)
        let firstLabels = style.layers.firstIndex { if case .symbol = $0.kind { return true } else { return false } }
        style.layers.insert(layer, at: firstLabels ?? style.layers.endIndex)
        return style
    }

    /// The photos' heatmap alone, to lay over any basemap: `style` (its Mapwright section kept)
    /// with no layer but the heatmap and no source but the photos; drawn on a transparent
    /// background (alpha 0 where no photo is near). `serve` draws its `/overlays/heatmap/…`
    /// tiles from it.
    public static func overlayStyle(_ style: Style, showing photos: [Photo]) -> Style {
        var style = style
        style.sources = [id: source(photos)]
        style.layers = [layer]
        return style
    }

    /// The photos as an inline GeoJSON source of points.
    private static func source(_ photos: [Photo]) -> StyleSource {
        let points = photos.map { photo in
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[\#(photo.coordinate.longitude),\#(photo.coordinate.latitude)]}}"#
        }
        let data = #"{"type":"FeatureCollection","features":["# + points.joined(separator: ",") + "]}"
        return .geoJSON(GeoJSONSource(data: .inline(data)))
    }

    /// The heatmap layer: MapLibre's ramp, ``radiusPoints``, ``opacity``.
    private static var layer: StyleLayer {
        var heatmap = HeatmapLayer()
        heatmap.radius = .constant(radiusPoints)
        heatmap.opacity = .constant(opacity)
        return StyleLayer(id: id, kind: .heatmap(heatmap), source: id)
    }
}
