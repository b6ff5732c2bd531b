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
