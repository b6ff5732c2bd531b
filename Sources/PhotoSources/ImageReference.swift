import Foundation

/// Where an image lives: a file on this machine, or a remote URL that someone else serves.
///
/// A relative path in a GeoJSON or CSV file is resolved against the folder of that file. In
/// JSON (``Photo`` is `Codable`) the reference is one string: the file's path, or the URL.
public enum ImageReference: Hashable, Sendable {
    /// A local file, as a `file:` URL.
    case file(URL)
    /// An `http` or `https` URL.
    case remote(URL)

    /// Reads a reference as a photo source writes it: an `http(s)` URL, a `file:` URL, or a path.
    ///
    /// - Parameters:
    ///   - text: The source's text; surrounding whitespace is ignored.
    ///   - directory: The folder a relative path is resolved against.
    /// - Returns: `nil` when `text` is empty, or is a URL of another scheme or not a URL at all.
    public init?(_ text: String, relativeTo directory: URL) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        let lowercased = text.lowercased()
        if lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://") {
            guard let url = URL(string: text), url.host != nil else { return nil }
            self = .remote(url)
        } else if lowercased.hasPrefix("file:") {
            guard let url = URL(string: text), url.isFileURL else { return nil }
            self = .file(url.standardizedFileURL)
        } else if text.contains("://") {
            return nil
        } else {
            let path = (text as NSString).expandingTildeInPath
            self = .file(URL(fileURLWithPath: path, relativeTo: directory).standardizedFileURL)
        }
    }

    /// The URL of the image, local or remote.
    public var url: URL {
        switch self {
        case .file(let url), .remote(let url): return url
        }
    }
}

extension ImageReference {
    /// A source's image text made ready to store in a ``Photo``, checked without any URL or file
    /// system work: `nil` when it is empty.
    ///
    /// A relative path is joined to `directoryPath` as text (`..` and `~` are left for
    /// ``init(resolving:)``); URLs and absolute paths are kept as written, trimmed.
    ///
    /// - Throws: ``EntryProblem`` "`name` '`text`' is neither a path nor an http(s) URL" for a URL
    ///   of another scheme or an `http(s)` URL without a host.
    static func storedText(_ text: String, directoryPath: String, name: String) throws(EntryProblem) -> String? {
        guard let trimmed = Photo.nonEmpty(text) else { return nil }
        switch kind(of: trimmed) {
        case .remote(let hasHost):
            guard hasHost else { throw EntryProblem("\(name) '\(text)' is neither a path nor an http(s) URL") }
            return trimmed
        case .fileURL, .absolutePath:
            return trimmed
        case .otherScheme:
            throw EntryProblem("\(name) '\(text)' is neither a path nor an http(s) URL")
        case .relativePath:
            return directoryPath.hasSuffix("/") ? directoryPath + trimmed : directoryPath + "/" + trimmed
        }
    }

    /// Resolves text stored by ``storedText(_:directoryPath:name:)`` or ``storedText``; `nil` when
    /// Foundation cannot read it as a URL after all.
    init?(resolving storedText: String) {
        if storedText.utf8.first == UInt8(ascii: "/") {
            // Already trimmed by `storedText`, or a file's own path, which may end in a space.
            self = .file(URL(fileURLWithPath: storedText).standardizedFileURL)
        } else {
            self.init(storedText, relativeTo: URL(fileURLWithPath: "/"))
        }
    }

    /// The reference as text that ``init(resolving:)`` reads back to it: the file's path, or the URL.
    var storedText: String { description }

    /// What a reference's text is, by its first bytes.
    private enum Kind {
        case remote(hasHost: Bool), fileURL, otherScheme, absolutePath, relativePath
    }

    private static func kind(of text: String) -> Kind {
        let utf8 = text.utf8
        func hasPrefix(_ prefix: StaticString) -> Bool {
            guard utf8.count >= prefix.utf8CodeUnitCount else { return false }
            return zip(utf8, UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount))
                .allSatisfy { $0 | 0x20 == $1 }
        }
        if utf8.first == UInt8(ascii: "/") || utf8.first == UInt8(ascii: "~") { return .absolutePath }
        for scheme: StaticString in ["http://", "https://"] where hasPrefix(scheme) {
            let host = utf8.dropFirst(scheme.utf8CodeUnitCount).first
            return .remote(hasHost: host.map { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") } ?? false)
        }
        if hasPrefix("file:") { return .fileURL }
        if text.contains("://") { return .otherScheme }
        return .relativePath
    }
}

extension ImageReference: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let reference = ImageReference(text, relativeTo: URL(fileURLWithPath: "/")) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is neither a path nor an http(s) URL")
        }
        self = reference
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .file(let url): try container.encode(url.path)
        case .remote(let url): try container.encode(url.absoluteString)
        }
    }
}

extension ImageReference: CustomStringConvertible {
    /// The file's path, or the remote URL.
    public var description: String {
        switch self {
        case .file(let url): return url.path
        case .remote(let url): return url.absoluteString
        }
    }
}
