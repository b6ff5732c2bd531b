import Foundation
import GeoData
import MapCore
import MapStyle

extension MapData {
    /// The property names searched for a place's name, in order.
    static let placeNameProperties = ["NAME", "name", "NAME_EN", "name_en", "ADMIN", "admin"]

    /// The bundled basemap's tables searched for places when the style draws none of its own:
    /// countries, then states and provinces.
    static let bundledPlaceTables = ["countries", "states_provinces"]

    /// The region of a named place — a country or a state or province — from the polygons a
    /// style fills or outlines, searched in the style's layer order, then from the bundled
    /// basemap's countries and states (so a raster style, or no style, can frame a place too);
    /// names match ignoring case.
    ///
    /// The region bounds the place's largest polygon, so a country with far-flung territories
    /// (France and French Guiana, the United States and Hawaii) frames its main part.
    ///
    /// - Returns: `nil` when no feature has that name.
    /// - Throws: ``RendererError`` when a source cannot be read.
    public func region(ofPlaceNamed name: String, style: Style? = nil) throws(RendererError) -> CoordinateRegion? {
        let wanted = name.trimmingCharacters(in: .whitespaces)
        var candidates: [(StyleSource, String?)] = []
        var searched = Set<String>()
        for layer in style?.layers ?? [] where layer.type == .fill || layer.type == .line {
            guard let sourceID = layer.source, let styleSource = style?.sources[sourceID],
                  searched.insert("\(sourceID)#\(layer.sourceLayer ?? "")").inserted
            else { continue }
            candidates.append((styleSource, layer.sourceLayer))
        }
        let bundled = StyleSource.vector(VectorSource(location: .basemap(name: "world")))
        candidates += MapData.bundledPlaceTables.map { (bundled, $0) }
        for (styleSource, sourceLayer) in candidates {
            guard let source = try source(for: styleSource, sourceLayer: sourceLayer) else { continue }
            for feature in source.features {
                let matches = MapData.placeNameProperties.contains { key in
                    feature.properties[key]?.stringValue?.caseInsensitiveCompare(wanted) == .orderedSame
                }
                guard matches, let geometry = feature.geometry, let rect = largestPolygonRect(of: geometry) else { continue }
                return CoordinateRegion(rect)
            }
        }
        return nil
    }

    /// The map rect of the polygon with the largest bounding box in a geometry.
    private func largestPolygonRect(of geometry: Geometry) -> MapRect? {
        var polygons: [[[Position]]] = []
        func collect(_ geometry: Geometry) {
            switch geometry {
            case .polygon(let rings): polygons.append(rings)
            case .multiPolygon(let parts): polygons.append(contentsOf: parts)
            case .geometryCollection(let members): members.forEach(collect)
            default: break
            }
        }
        collect(geometry)
        return polygons
            .compactMap { $0.first.map { MapRect(enclosing: $0.compactMap(\.mapPoint)) } }
            .filter { !$0.isNull }
            .max { $0.width * $0.height < $1.width * $1.height }
    }
}
