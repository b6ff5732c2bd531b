public import Foundation

extension URL {
    /// The file's path as a person would type it in messages: relative to the working directory
    /// when the file lies below it, absolute otherwise.
    ///
    /// For example, `/home/ada/maps/photos/a.jpg` read from `/home/ada/maps` is `photos/a.jpg`.
    public var displayPath: String {
        let path = standardizedFileURL.path
        let current = FileManager.default.currentDirectoryPath
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
