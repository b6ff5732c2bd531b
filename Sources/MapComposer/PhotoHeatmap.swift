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
        let points = photos.map { photo in
            #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[\#(photo.coordinate.longitude),\#(photo.coordinate.latitude)]}}"#
        }
        let data = #"{"type":"FeatureCollection","features":["# + points.joined(separator: ",") + "]}"
        style.sources[id] = .geoJSON(GeoJSONSource(data: .inline(data)))
        var heatmap = HeatmapLayer()
        heatmap.radius = .constant(radiusPoints)
        heatmap.opacity = .constant(opacity)
        let layer = StyleLayer(id: id, kind: .heatmap(heatmap), source: id)
        let firstLabels = style.layers.firstIndex { if case .symbol = $0.kind { return true } else { return false } }
        style.layers.insert(layer, at: firstLabels ?? style.layers.endIndex)
        return style
    }
}
