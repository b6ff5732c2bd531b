import Foundation
import MapJSON
public import PMTiles
public import TileStore

extension MBTilesMetadata {
    /// The same metadata as a PMTiles archive's JSON metadata: every typed value carried over,
    /// `vector_layers` taken out of the `json` row, other rows kept as JSON strings.
    public var pmtilesMetadata: PMTilesMetadata {
        var others: [String: JSONValue] = [:]
        for (key, value) in otherValues { others[key] = .string(value) }
        var vectorLayers: JSONValue?
        if let json, let object = try? JSONValue.parse(Data(json.utf8)), case .object(let members) = object {
            for (key, value) in members {
                if key == "vector_layers" { vectorLayers = value } else { others[key] = value }
            }
        }
        return PMTilesMetadata(
            name: name, format: format?.rawValue, bounds: bounds,
            center: center.map { PMTilesMetadata.Center(longitude: $0.longitude, latitude: $0.latitude, zoom: $0.zoom) },
            minZoom: minZoom, maxZoom: maxZoom, attribution: attribution, description: description, type: type?.rawValue,
            version: version, vectorLayers: vectorLayers, otherValues: others)
    }

    /// The metadata of a PMTiles archive as MBTiles rows: `vector_layers` goes into the `json`
    /// row; other members that are strings stay strings, others are written as JSON text.
    public init(_ metadata: PMTilesMetadata) {
        var others: [String: String] = [:]
        for (key, value) in metadata.otherValues {
            others[key] = value.text ?? Self.jsonText(value)
        }
        self.init(
            name: metadata.name, format: metadata.format.flatMap(TileFormat.init(metadataValue:)), bounds: metadata.bounds,
            center: metadata.center.map { Center(longitude: $0.longitude, latitude: $0.latitude, zoom: $0.zoom) },
            minZoom: metadata.minZoom, maxZoom: metadata.maxZoom, attribution: metadata.attribution,
            description: metadata.description, type: metadata.type.flatMap { LayerType(rawValue: $0.lowercased()) },
            version: metadata.version,
            json: metadata.vectorLayers.map { Self.jsonText(.object(["vector_layers": $0])) },
            otherValues: others)
    }

    /// A JSON value as compact text.
    private static func jsonText(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.value(value)
        return writer.text
    }
}
