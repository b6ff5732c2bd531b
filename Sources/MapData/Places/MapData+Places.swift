import Foundation
import GeoData
public import MapCore
import MapJSON
public import MapStyle
import MapUtilities

extension MapData {
    /// The property names whose values name a place: Natural Earth's names, codes and English
    /// names (`woe_label` holds "Bavaria, DE, Germany" for Bayern; its first part is used).
    static let placeNameProperties = [
        "NAME", "name", "NAME_EN", "name_en", "ISO_A3", "iso_a3", "ISO_A2", "iso_a2",
        "woe_name", "gn_name", "woe_label",
    ]

    /// The bundled basemap's tables searched for places when the style draws none of its own:
    /// countries, then states and provinces.
    static let bundledPlaceTables = ["countries", "states_provinces"]

    /// Names people use for places the basemap names otherwise, by normalized name.
    static let placeAliases: [String: String] = {
        let pairs = [
            ("united states", "united states america"), ("america", "united states america"), ("uk", "united kingdom"),
            ("great britain", "united kingdom"),
            ("britain", "united kingdom"), ("russian federation", "russia"), ("drc", "democratic republic congo"),
            ("dr congo", "democratic republic congo"), ("czech republic", "czechia"), ("ivory coast", "cote d ivoire"),
            ("swaziland", "eswatini"), ("holland", "netherlands"), ("burma", "myanmar"), ("east timor", "timor leste"),
            ("north macedonia", "macedonia"), ("republic congo", "congo"), ("vatican", "italy"),
        ]
        return Dictionary(uniqueKeysWithValues: pairs)
    }()

    /// Natural Earth's abbreviations, spelled out for matching ("Dem. Rep. Congo").
    static let placeAbbreviations = [
        "dem": "democratic", "rep": "republic", "is": "islands", "s": "south", "n": "north", "st": "saint",
        "fr": "french", "eq": "equatorial", "herz": "herzegovina", "br": "british", "barb": "barbuda",
        "gren": "grenadines", "vin": "vincent", "ter": "territory", "geo": "georgia", "i": "island", "w": "western",
    ]

    /// A place name reduced for comparison: lower case, without accents or punctuation, with
    /// abbreviations spelled out and "of", "the", "and" dropped: "Dem. Rep. of the Congo" and
    /// "Democratic Republic Congo" are the same.
    static func normalizedPlaceName(_ name: String) -> String {
        let folded = name.folding(
            options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        let words = folded.split { !$0.isLetter && !$0.isNumber }.map(String.init)
            .map { placeAbbreviations[$0] ?? $0 }
            .filter { !["of", "the", "and"].contains($0) }
        let joined = words.joined(separator: " ")
        return placeAliases[joined] ?? joined
    }

    /// The region of a named place — a country or a state or province — from the polygons a
    /// style fills or outlines, searched in the style's layer order, then from the bundled
    /// basemap's countries and states (so a raster style, or no style, can frame a place too).
    ///
    /// Names match ignoring case, accents, punctuation and Natural Earth's abbreviations, and by
    /// ISO code or English name: "United States", "USA", "UK", "Bavaria", "Cote d'Ivoire".
    /// The region covers the place's largest polygon and every other polygon near it (within
    /// the largest one's diagonal, at least 300 km and at most 1,500 km), taken the short way across the antimeridian: Japan with
    /// Hokkaido and Kyushu, both islands of New Zealand, Fiji on both sides of 180°, but France
    /// without French Guiana and the United States (with Alaska) without Hawaii.
    ///
    /// - Returns: `nil` when no feature has that name (``placeNames(closestTo:style:limit:)``
    ///   suggests others).
    /// - Throws: ``MapDataError`` when a source cannot be read.
    public func region(ofPlaceNamed name: String, style: Style? = nil) throws(MapDataError) -> CoordinateRegion? {
        let wanted = MapData.normalizedPlaceName(name)
        guard !wanted.isEmpty else { return nil }
        for source in try placeSources(style: style) {
            for feature in source.features
            where MapData.placeNames(of: feature).contains(where: { MapData.normalizedPlaceName($0) == wanted }) {
                guard let geometry = feature.geometry, let rect = MapData.placeRect(of: geometry) else { continue }
                return CoordinateRegion(rect)
            }
        }
        return nil
    }

    /// The place names closest to `name` by edit distance, for "did you mean" suggestions:
    /// the basemap's own spellings, best first.
    public func placeNames(closestTo name: String, style: Style? = nil, limit: Int = 3) throws(MapDataError) -> [String]
    {
        let wanted = MapData.normalizedPlaceName(name)
        var best: [String: Int] = [:]
        for source in try placeSources(style: style) {
            for feature in source.features {
                guard let display = (feature.properties["NAME"] ?? feature.properties["name"])?.stringValue,
                    !display.isEmpty
                else { continue }
                let normalized = MapData.placeNames(of: feature).map(MapData.normalizedPlaceName)
                let known =
                    normalized
                    + normalized.flatMap { name in MapData.placeAliases.filter { $0.value == name }.map(\.key) }
                let distance = known.map { $0.editDistance(to: wanted) }.min() ?? .max
                best[display] = min(best[display] ?? .max, distance)
            }
        }
        // Only names within about a third of their length: "Germny" finds Germany, "xyz" nothing.
        return best.filter { $0.value <= max(2, wanted.count / 3) }
            .sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            .prefix(limit).map(\.key)
    }

    /// The feature sources searched for places: the style's filled or outlined layers, then the
    /// bundled basemap's countries and states.
    private func placeSources(style: Style?) throws(MapDataError) -> [any FeatureSource] {
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
        var sources: [any FeatureSource] = []
        for (styleSource, sourceLayer) in candidates {
            if let source = try source(for: styleSource, sourceLayer: sourceLayer) { sources.append(source) }
        }
        return sources
    }

    /// Every name a feature goes by.
    private static func placeNames(of feature: Feature) -> [String] {
        placeNameProperties.compactMap { key in
            guard let value = feature.properties[key]?.stringValue, !value.isEmpty, value != "-99" else { return nil }
            return key == "woe_label" ? value.split(separator: ",").first.map(String.init) : value
        }
    }

    /// The map rect of a place: its largest polygon, joined by the polygons near it, each moved
    /// by a world's width when that brings it nearer (islands across the antimeridian).
    static func placeRect(of geometry: Geometry) -> MapRect? {
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
        let rects =
            polygons
            .compactMap { $0.first.map { MapRect(enclosing: $0.compactMap(\.mapPoint)) } }
            .filter { !$0.isNull }
        guard let main = rects.max(by: { $0.width * $0.height < $1.width * $1.height }) else { return nil }
        // Near: within the largest polygon's diagonal, but at least 300 km and at most 1,500 km.
        let kilometer =
            1000 * WebMercator.mapPointsPerMeter(atLatitude: MapPoint(x: main.midX, y: main.midY).coordinate.latitude)
        let reach = min(
            max((main.width * main.width + main.height * main.height).squareRoot(), 300 * kilometer), 1500 * kilometer)
        var result = main
        for rect in rects {
            let nearest = [0, -WebMercator.worldSize, WebMercator.worldSize]
                .map { rect.offsetBy(dx: $0, dy: 0) }
                .min { gap(between: $0, and: main) < gap(between: $1, and: main) }!
            if gap(between: nearest, and: main) <= reach { result = result.union(nearest) }
        }
        return result
    }

    /// The distance between two rects, 0 when they meet.
    private static func gap(between a: MapRect, and b: MapRect) -> Double {
        let dx = max(0, max(a.minX - b.maxX, b.minX - a.maxX))
        let dy = max(0, max(a.minY - b.maxY, b.minY - a.maxY))
        return (dx * dx + dy * dy).squareRoot()
    }
}
