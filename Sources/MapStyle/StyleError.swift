public import Foundation
public import MapUtilities

/// An error raised when a style cannot be read, or names something Mapwright cannot draw.
///
/// Every error says what is wrong with which value; errors found while loading a style file also
/// name the file and the JSON path, so the message can be shown to a person as is:
///
/// ```swift
/// do { _ = try Style.load(from: URL(fileURLWithPath: "Styles/dark.json")) }
/// catch { print(error) } // Styles/dark.json: layers[2] (land).paint.fill-color: 'blu' is not a colour
/// ```
public struct StyleError: Error, Hashable, Sendable {
    /// What went wrong.
    public enum Kind: Hashable, Sendable {
        /// The style file could not be read.
        case unreadableFile(reason: String)
        /// The file is not well-formed JSON; `reason` is `JSONSyntaxError.reason` (MapJSON), a whole
        /// phrase such as "is not valid JSON: invalid value at line 3, column 8".
        case invalidJSON(reason: String)
        /// The root `version` is not 8.
        case unsupportedVersion(String)
        /// A required key is absent.
        case missingKey(String)
        /// A value has the wrong JSON type; `expected` and `found` are phrases such as "a number".
        case wrongType(expected: String, found: String)
        /// A string is not a CSS colour.
        case invalidColor(String)
        /// A layer `type` outside the supported subset.
        case unknownLayerType(String)
        /// An expression or filter operator outside the supported subset, or used where it cannot be.
        case unsupportedExpression(String)
        /// A value of the right type but not acceptable here; the string explains why.
        case invalidValue(String)
        /// Two layers share an id.
        case duplicateLayerID(String)
        /// A layer, or a configuration call, names a source the style does not define.
        case unknownSource(String)
        /// No style of that name exists in the styles directory.
        case unknownStyle(name: String, available: [String])
        /// The style draws raster sources that have neither tiles nor a tileset file (MBTiles or PMTiles).
        case unconfiguredRasterSources(style: String, sourceIDs: [String])
        /// The style draws vector sources that have no data yet.
        case unconfiguredVectorSources(style: String, sourceIDs: [String], tileServers: [String] = [])
    }

    /// What went wrong.
    public var kind: Kind
    /// The style file, as a path relative to the working directory when it lies below it.
    public var file: String?
    /// Where in the file: a JSON path such as `layers[2] (land).paint.fill-color`.
    public var path: String?

    /// Creates an error, optionally located in a file and at a JSON path.
    public init(_ kind: Kind, file: String? = nil, path: String? = nil) {
        self.kind = kind
        self.file = file
        self.path = path
    }

    /// The same error, located in `file` at `path` unless it already names a location.
    func located(file: String?, path: StylePath) -> StyleError {
        var error = self
        if error.file == nil { error.file = file }
        if error.path == nil, !path.isRoot { error.path = path.description }
        return error
    }
}

extension StyleError: CustomStringConvertible, LocalizedError {
    public var description: String {
        let location = [file, path].compactMap { $0 }.map { "\($0): " }.joined()
        return location + message
    }

    public var errorDescription: String? { description }

    /// The problem without its location.
    public var message: String {
        switch kind {
        case .unreadableFile(let reason):
            return "cannot read the style: \(reason)"
        case .invalidJSON(let reason):
            return reason
        case .unsupportedVersion(let version):
            return "style version \(version) is not supported: the MapLibre Style Specification version is 8"
        case .missingKey(let key):
            return "missing required key '\(key)'"
        case .wrongType(let expected, let found):
            return "expected \(expected), found \(found)"
        case .invalidColor(let value):
            return "'\(value)' is not a colour"
        case .unknownLayerType(let type):
            return
                "unknown layer type '\(type)': expected one of \(LayerType.allCases.map(\.rawValue).joined(separator: ", "))"
        case .unsupportedExpression(let reason):
            return reason
        case .invalidValue(let reason):
            return reason
        case .duplicateLayerID(let id):
            return "layer id '\(id)' is used by an earlier layer"
        case .unknownSource(let id):
            return "no source named '\(id)' in the style's sources"
        case .unknownStyle(let name, let available):
            let list = available.isEmpty ? "none" : available.joined(separator: ", ")
            return "no style named '\(name)'; available styles: \(list)"
        case .unconfiguredRasterSources(let style, let sourceIDs):
            let ids = sourceIDs.map { "'\($0)'" }.joined(separator: ", ")
            return "style '\(style)' needs a raster source (\(ids) has no tiles): "
                + "give a tile URL template such as https://example.com/{z}/{x}/{y}.png or an .mbtiles or .pmtiles file"
        case .unconfiguredVectorSources(let style, let sourceIDs, let tileServers):
            let ids = sourceIDs.map { "'\($0)'" }.joined(separator: ", ")
            if !tileServers.isEmpty {
                return
                    "style '\(style)' reads its source \(ids) from a tile server (\(tileServers.joined(separator: ", "))), which Mapwright does not fetch: "
                    + "give the tiles as an .mbtiles or .pmtiles file (Samples/helsinki/helsinki.mbtiles is an OpenMapTiles-schema one)"
            }
            return "style '\(style)' draws vector tiles and its source \(ids) has none: "
                + "give it an OpenMapTiles-schema .mbtiles or .pmtiles file (Samples/helsinki/helsinki.mbtiles is one)"
        }
    }
}

extension StyleError.Kind {
    /// Whether the error is an expression outside a smaller model (a filter or text field read
    /// first in its simple form, then as a general expression).
    var isUnsupportedExpression: Bool {
        if case .unsupportedExpression = self { return true }
        return false
    }
}

/// Bad input: exit status 2.
extension StyleError: ExitStatusError {}
