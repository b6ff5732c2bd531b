public import Foundation

extension URL {
    /// The file's path as a person would type it in messages: relative to the working directory
    /// when the file lies below it, absolute otherwise.
    ///
    /// For example, `/home/ada/maps/photos/a.jpg` read from `/home/ada/maps` is `photos/a.jpg`.
    /// A URL that is not a file's (`https://example.org/city.pmtiles`) is given whole.
    public var displayPath: String {
        guard isFileURL else { return absoluteString }
        let path = standardizedFileURL.path
        let current = FileManager.default.currentDirectoryPath
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
