/// Something in a style that Mapwright ignores, such as an unknown key.
///
/// Loading never fails on these; they are returned beside the style so a tool can print them:
///
/// ```
/// Styles/x.json: layers[3] (country-labels): unknown paint property 'text-glow' (ignored)
/// ```
public struct StyleWarning: Hashable, Sendable {
    /// The style file, as a path relative to the working directory when it lies below it.
    public var file: String?
    /// Where in the file: the JSON path of the object holding the ignored key.
    public var path: String
    /// What is ignored and why.
    public var message: String

    /// Creates a warning.
    public init(file: String?, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }
}

extension StyleWarning: CustomStringConvertible {
    public var description: String {
        let location = [file, path.isEmpty ? nil : path].compactMap { $0 }.map { "\($0): " }.joined()
        return location + message
    }
}
