import CCairo
import Foundation
import ImageCodec
import MapCore
import MapData
import MapJSON
import MapStyle

extension StylePainter {
    /// The sprite image a `*-pattern` names for a feature, or nil when it names none (the empty
    /// name) or no sprite has it (noted for ``MapData/skippedData()``): what it would pattern is
    /// then not drawn, as in MapLibre. Patterns are evaluated at the whole zoom below the
    /// style's, as MapLibre evaluates them for its tiles.
    func patternImage(_ pattern: StyleValue<ResolvedImage>, properties: [String: FeatureValue]) -> StyleImage? {
        namedPatternImage(pattern, properties: properties)?.image
    }

    /// ``patternImage(_:properties:)`` with the name it was found by.
    func namedPatternImage(_ pattern: StyleValue<ResolvedImage>, properties: [String: FeatureValue]) -> (
        name: String, image: StyleImage
    )? {
        let name = pattern.value(atZoom: zoomLevel.rounded(.down), properties: properties).name
        guard !name.isEmpty else { return nil }
        guard let image = images[name] else {
            data.noteMissingImage(name)
            return nil
        }
        return (name, image)
    }

    /// A Cairo source repeating `image` over the map as MapLibre lays patterns: fixed to the map
    /// at the whole zoom below the style's (MapLibre's tile zoom), one image pixel per
    /// `1 / pixelRatio` point there, so it grows with the map up to the next whole zoom;
    /// repeated from the world's top-left corner (tiles and renders of one area line up), turned
    /// with the map, sampled bilinearly. Set it after any translation that should move the
    /// pattern with the geometry. The caller destroys it; nil when Cairo cannot make it.
    func makePatternSource(_ image: StyleImage) -> OpaquePointer? {
        let width = Double(image.pixels.width)
        let height = Double(image.pixels.height)
        let center = MapPoint(viewport.camera.centerCoordinate)
        let step = WebMercator.worldSize / (256 * exp2(viewport.zoomLevel))
        // The map's axes in the view, in view points per map point.
        guard let origin = viewport.unwrappedPoint(for: center),
            let east = viewport.unwrappedPoint(for: MapPoint(x: center.x + step, y: center.y)),
            let south = viewport.unwrappedPoint(for: MapPoint(x: center.x, y: center.y + step))
        else { return nil }
        let ex = ((east.x - origin.x) / step, (east.y - origin.y) / step)
        let ey = ((south.x - origin.x) / step, (south.y - origin.y) / step)
        let determinant = ex.0 * ey.1 - ey.0 * ex.1
        guard determinant != 0, determinant.isFinite, let surface = image.makeSurface() else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let source = cairo_pattern_create_for_surface(surface) else { return nil }
        cairo_pattern_set_extend(source, CAIRO_EXTEND_REPEAT)
        cairo_pattern_set_filter(source, CAIRO_FILTER_BILINEAR)
        // Image pixel = ratio × points at the tile zoom from the world's corner: the centre's,
        // plus the view point's offset from the centre turned back to the map's axes. The
        // centre's part is taken modulo the image, as Cairo's fixed-point pattern space needs.
        let scale = patternPixelsPerMapPoint(image)
        let xx = scale * ey.1 / determinant
        let xy = -scale * ey.0 / determinant
        let yx = -scale * ex.1 / determinant
        let yy = scale * ex.0 / determinant
        let u0 = Self.wrapped(center.x * scale, width)
        let v0 = Self.wrapped(center.y * scale, height)
        var matrix = cairo_matrix_t()
        cairo_matrix_init(
            &matrix, xx, yx, xy, yy, u0 - xx * origin.x - xy * origin.y, v0 - yx * origin.x - yy * origin.y)
        cairo_pattern_set_matrix(source, &matrix)
        return source
    }

    /// Image pixels of `image`'s pattern per map point: MapLibre fixes patterns to the map at
    /// the style's zoom rounded down (its tile zoom), `pixelRatio` image pixels per point there.
    func patternPixelsPerMapPoint(_ image: StyleImage) -> Double {
        image.pixelRatio * 512 * exp2(max(0, zoomLevel.rounded(.down))) / WebMercator.worldSize
    }

    /// `value` modulo `period`, in `[0, period)`: a place within a repeating image.
    static func wrapped(_ value: Double, _ period: Double) -> Double {
        let remainder = value.truncatingRemainder(dividingBy: period)
        return remainder < 0 ? remainder + period : remainder
    }
}
