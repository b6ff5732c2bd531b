public import MapCore
public import MapData
import MapRenderer
public import MapStyle

/// A country, state/province or town found in the basemap by name: what `--place` frames.
public struct ResolvedPlace: Hashable, Sendable {
    /// The name asked for, as given.
    public var name: String
    /// The place's region (see `MapData.region(ofPlaceNamed:style:)`).
    public var region: CoordinateRegion

    public init(name: String, region: CoordinateRegion) {
        self.name = name
        self.region = region
    }
}

extension MapData {
    /// The place named `name`, looked up in the style's filled and outlined layers, then the
    /// bundled basemap's countries and states: the one place lookup with "did you mean"
    /// suggestions (every command and ``PhotoMapRequest/Framing/place(_:)`` come here).
    ///
    /// - Throws: ``PhotoMapError/unknownPlace(_:suggestions:)`` with the closest names when none
    ///   has that name; ``PhotoMapError/renderer(_:)`` when a source cannot be read.
    public func resolvePlace(named name: String, style: Style? = nil) throws(PhotoMapError) -> ResolvedPlace {
        let found: CoordinateRegion?
        do { found = try region(ofPlaceNamed: name, style: style) } catch { throw .renderer(.mapData(error)) }
        guard let found else {
            throw .unknownPlace(name, suggestions: (try? placeNames(closestTo: name, style: style)) ?? [])
        }
        return ResolvedPlace(name: name, region: found)
    }
}
