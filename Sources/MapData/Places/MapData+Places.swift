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
        return try region(ofTownNamed: name)
    }

    /// The bundled basemap's towns and cities (`basemap://places`' `populated_places`: GeoNames'
    /// places of 5,000 people or more, and every capital), searched when no country or state has
    /// the name.
    static let bundledTownsTable = "populated_places"

    /// The region of a town or city of the bundled places: the most populous place of that name
    /// (`Espoo`), or of that name in the country a qualifier after a comma names, by name or ISO
    /// code (`Springfield, Australia`, `Portland, US`); nil when none has it (or the places are
    /// not installed). The region is a square round the place, its side growing with the
    /// population: 4 km × √(population / 10,000), from 6 km (a town of 5,000) to 60 km
    /// (Espoo, 324,000 people: 23 km). Countries and states come first: `Portland` is Jamaica's
    /// parish, `Portland, US` the city in Oregon.
    func region(ofTownNamed name: String) throws(MapDataError) -> CoordinateRegion? {
        let parts = name.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let wanted = MapData.normalizedPlaceName(parts[0])
        guard !wanted.isEmpty, let towns = try townsSource() else { return nil }
        let country = parts.count > 1 ? try countryCode(named: parts[1]) : nil
        if parts.count > 1, country == nil { return nil }
        var best: (population: Double, coordinate: Coordinate)?
        for feature in towns.features {
            guard let town = feature.properties["name"]?.stringValue, MapData.normalizedPlaceName(town) == wanted,
                case .point(let position)? = feature.geometry,
                let coordinate = try? Coordinate(latitude: position.latitude, longitude: position.longitude)
            else { continue }
            if let country, feature.properties["country_code"]?.stringValue?.uppercased() != country { continue }
            let population = feature.properties["population"]?.numberValue ?? 0
            if best == nil || population > best!.population { best = (population, coordinate) }
        }
        guard let best else { return nil }
        let sideMeters = min(max(4_000 * (best.population / 10_000).squareRoot(), 6_000), 60_000)
        return try? CoordinateRegion(
            center: best.coordinate, latitudinalMeters: sideMeters, longitudinalMeters: sideMeters)
    }

    /// The bundled towns and cities, or nil when the places are not installed.
    private func townsSource() throws(MapDataError) -> (any FeatureSource)? {
        let places = StyleSource.vector(VectorSource(location: .basemap(name: "places")))
        do { return try source(for: places, sourceLayer: MapData.bundledTownsTable) } catch { return nil }
    }

    /// The ISO 3166 alpha-2 code of the country `name` names (its name, English name or code, as
    /// ``normalizedPlaceName(_:)`` compares them), upper case; nil for no country.
    private func countryCode(named name: String) throws(MapDataError) -> String? {
        let wanted = MapData.normalizedPlaceName(name)
        let bundled = StyleSource.vector(VectorSource(location: .basemap(name: "world")))
        guard let countries = try source(for: bundled, sourceLayer: MapData.bundledPlaceTables[0]) else { return nil }
        for feature in countries.features
        where MapData.placeNames(of: feature).contains(where: { MapData.normalizedPlaceName($0) == wanted }) {
            if let code = (feature.properties["ISO_A2"] ?? feature.properties["iso_a2"])?.stringValue, code != "-99" {
                return code.uppercased()
            }
        }
        return nil
    }

    /// The place names closest to `name` by edit distance, for "did you mean" suggestions:
    /// the basemap's own spellings (countries, states and provinces, towns), best first.
    public func placeNames(closestTo name: String, style: Style? = nil, limit: Int = 3) throws(MapDataError) -> [String]
    {
        let wanted = MapData.normalizedPlaceName(name)
        // By distance, then countries and states before towns, then name.
        var best: [String: (distance: Int, tier: Int)] = [:]
        let sources =
            try placeSources(style: style).map { ($0, 0) } + [try townsSource()].compactMap { $0.map { ($0, 1) } }
        for (source, tier) in sources {
            for feature in source.features {
                guard let display = (feature.properties["NAME"] ?? feature.properties["name"])?.stringValue,
                    !display.isEmpty
                else { continue }
                let normalized = MapData.placeNames(of: feature).map(MapData.normalizedPlaceName)
                let known =
                    normalized
                    + normalized.flatMap { name in MapData.placeAliases.filter { $0.value == name }.map(\.key) }
                let distance = known.map { $0.editDistance(to: wanted) }.min() ?? .max
                if let kept = best[display], (kept.distance, kept.tier) <= (distance, tier) { continue }
                best[display] = (distance, tier)
            }
        }
        // Only names within about a third of their length: "Germny" finds Germany, "xyz" nothing.
        return best.filter { $0.value.distance <= max(2, wanted.count / 3) }
            .sorted { ($0.value.distance, $0.value.tier, $0.key) < ($1.value.distance, $1.value.tier, $1.key) }
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
