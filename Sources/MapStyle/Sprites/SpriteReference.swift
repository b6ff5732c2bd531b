public import Foundation

/// One sprite a style names in its root `sprite` (MapLibre Style Specification, "Sprite"): a
/// base URL to which `.json` and `.png` (or `@2x.json` and `@2x.png`) are added.
///
/// A style's `"sprite": "URL"` is one sprite with the id `default`; the array form
/// `[{"id": "roadsigns", "url": "URL"}, ...]` names several, and an image of a sprite other than
/// `default` is named `ID:NAME` in the layers (`"icon-image": "roadsigns:stop"`).
public struct SpriteReference: Hashable, Sendable {
    /// The id the layers prefix its images with, `default` for the string form.
    public var id: String
    /// The base: a `file://` URL (paths in the style are resolved against its folder), or an
    /// `http(s)://` URL.
    public var url: URL

    /// Creates a reference.
    public init(id: String, url: URL) {
        self.id = id
        self.url = url
    }

    /// The index file of the sheet drawn for `pixelRatio`: `@2x.json` above 1, `.json` otherwise.
    public func indexURL(pixelRatio: Double) -> URL { file(pixelRatio: pixelRatio, extension: "json") }

    /// The image of the sheet drawn for `pixelRatio`: `@2x.png` above 1, `.png` otherwise.
    public func imageURL(pixelRatio: Double) -> URL { file(pixelRatio: pixelRatio, extension: "png") }

    /// The name a layer gives this sprite's image `name`: `name` in the default sprite, `ID:name` in others.
    public func qualifiedName(_ name: String) -> String { id == "default" ? name : "\(id):\(name)" }

    /// Every file of the sheet, index and image at 1x and 2x, in that order: what a reader of
    /// local sheets follows for changes.
    public var sheetFiles: [URL] {
        [1.0, 2.0].flatMap { [indexURL(pixelRatio: $0), imageURL(pixelRatio: $0)] }
    }

    private func file(pixelRatio: Double, extension fileExtension: String) -> URL {
        let suffix = (pixelRatio > 1 ? "@2x." : ".") + fileExtension
        if url.isFileURL { return URL(fileURLWithPath: url.path + suffix) }
        // Query strings (access tokens) stay after the file name.
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.path += suffix
        return components.url ?? url
    }
}
