public import Foundation
import MapJSON
import MapUtilities

extension Style {
    /// The largest style file read: 64 MiB (MapLibre's styles are kilobytes; the cap stops a
    /// wrong file from being parsed into memory whole).
    public static let maximumFileBytes = 64 << 20

    /// Loads a style file.
    ///
    /// Relative paths in its sources are resolved against the file's directory. Keys outside
    /// Mapwright's subset do not fail the load: they come back as warnings.
    ///
    /// - Returns: The style, whose ``id`` is the file name without `.json`, and the warnings.
    /// - Throws: ``StyleError`` naming the file and, for a bad value, its JSON path.
    public static func load(from url: URL) throws(StyleError) -> (style: Style, warnings: [StyleWarning]) {
        if let prefetched = takePrefetched(url) { return prefetched }
        return try read(from: url)
    }

    /// Reads and decodes the style file at `url` (``load(from:)`` without a prefetched load).
    static func read(from url: URL) throws(StyleError) -> (style: Style, warnings: [StyleWarning]) {
        let file = url.displayPath
        let data: Data
        do {
            data = try Data(readingFile: url, maximumBytes: Style.maximumFileBytes)
        } catch {
            throw StyleError(.unreadableFile(reason: error.reason), file: file)
        }
        return try parse(
            data,
            id: url.deletingPathExtension().lastPathComponent,
            file: file,
            baseURL: url.deletingLastPathComponent()
        )
    }

    /// Parses a style document.
    ///
    /// - Parameters:
    ///   - data: The JSON.
    ///   - id: The style's id; nil uses its `name`, or `style`.
    ///   - file: The file name shown in errors and warnings.
    ///   - baseURL: The directory relative source paths are resolved against; nil is the working
    ///     directory.
    /// - Throws: ``StyleError`` naming the file and, for a bad value, its JSON path.
    public static func parse(
        _ data: Data,
        id: String? = nil,
        file: String? = nil,
        baseURL: URL? = nil
    ) throws(StyleError) -> (style: Style, warnings: [StyleWarning]) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            throw StyleError(.invalidJSON(reason: error.reason), file: file)
        }
        var decoder = StyleDecoder(file: file, baseURL: baseURL)
        var style = try decoder.decodeStyle(json, id: id ?? "style")
        if id == nil, let name = style.name { style.id = name }
        return (style, decoder.warnings)
    }

    /// Loads the style called `name` from `stylesDirectory`: `dark` is `dark.json`.
    ///
    /// - Throws: ``StyleError/Kind/unknownStyle(name:available:)`` listing the styles there
    ///   when there is no such file; otherwise as ``load(from:)``.
    public static func named(_ name: String, in stylesDirectory: URL) throws(StyleError) -> (
        style: Style, warnings: [StyleWarning]
    ) {
        let available = availableNames(in: stylesDirectory)
        guard available.contains(name) else { throw StyleError(.unknownStyle(name: name, available: available)) }
        return try load(from: stylesDirectory.appendingPathComponent("\(name).json"))
    }

    /// The names of the styles in a directory (its `.json` files without the extension), sorted.
    public static func availableNames(in stylesDirectory: URL) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: stylesDirectory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }.sorted()
    }
}
