import Foundation
import MapCore
public import TileSources

// MARK: - Rows

extension TileMetadata {
    // MBTiles keeps metadata as rows of text in its `metadata` table.

    /// The metadata of the rows of a `metadata` table.
    ///
    /// - Parameters:
    ///   - rows: Values by key.
    ///   - path: The file, for error messages.
    /// `center`'s zoom is rounded to a whole number.
    ///
    /// - Throws: ``MBTilesError/invalidMetadata(path:name:value:reason:)`` for a `bounds`,
    ///   `center`, `minzoom` or `maxzoom` that is not made of numbers as the specification writes them.
    public init(rows: [String: String], path: String) throws(MBTilesError) {
        func numbers(_ key: String, count: Int) throws(MBTilesError) -> [Double]? {
            guard let text = rows[key] else { return nil }
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == count, parts.allSatisfy({ $0?.isFinite == true }) else {
                throw .invalidMetadata(
                    path: path, name: key, value: text, reason: "expected \(count) numbers separated by commas")
            }
            return parts.map { $0! }
        }
        func integer(_ key: String) throws(MBTilesError) -> Int? {
            guard let text = rows[key] else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw .invalidMetadata(path: path, name: key, value: text, reason: "expected a whole number")
            }
            return value
        }
        var others = rows
        for key in ["name", "bounds", "center", "minzoom", "maxzoom", "attribution", "description", "version", "json"] {
            others[key] = nil
        }
        self.init(
            name: rows["name"], attribution: rows["attribution"], description: rows["description"],
            version: rows["version"],
            json: rows["json"])
        if let text = rows["format"], let format = TileFormat(metadataValue: text) {
            self.format = format
            others["format"] = nil
        }
        if let text = rows["type"], let type = LayerType(rawValue: text.lowercased()) {
            self.type = type
            others["type"] = nil
        }
        // A box with no area ("0,0,0,0", what tilemaker writes when given no box) says nothing:
        // no bounds.
        if let edges = try numbers("bounds", count: 4), edges[0] != edges[2] || edges[1] != edges[3] {
            bounds = BoundingBox(west: edges[0], south: edges[1], east: edges[2], north: edges[3])
        }
        if let view = try numbers("center", count: 3) {
            guard let zoom = Int(exactly: view[2].rounded()) else {
                throw .invalidMetadata(
                    path: path, name: "center", value: rows["center"]!, reason: "the zoom is too large")
            }
            center = Center(longitude: view[0], latitude: view[1], zoom: zoom)
        }
        minZoom = try integer("minzoom")
        maxZoom = try integer("maxzoom")
        otherValues = others
    }

    /// The rows this metadata writes: one per value that is not nil, the ``otherValues`` included.
    public var rows: [String: String] {
        var rows = otherValues
        func set(_ key: String, _ value: String?) {
            if let value { rows[key] = value }
        }
        set("name", name)
        set("format", format?.rawValue)
        set(
            "bounds",
            bounds.map { "\(Self.text($0.west)),\(Self.text($0.south)),\(Self.text($0.east)),\(Self.text($0.north))" })
        set("center", center.map { "\(Self.text($0.longitude)),\(Self.text($0.latitude)),\($0.zoom)" })
        set("minzoom", minZoom.map(String.init))
        set("maxzoom", maxZoom.map(String.init))
        set("attribution", attribution)
        set("description", description)
        set("type", type?.rawValue)
        set("version", version)
        set("json", json)
        return rows
    }

    /// A number as the specification's examples write it: `-180` rather than `-180.0`.
    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
