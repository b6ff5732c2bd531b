public import Foundation
import MapJSON

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
    /// Resolves text stored by ``ImageText``, or the ``storedText`` of a reference (a photo
    /// library's column); `nil` when Foundation cannot read it as a URL after all.
    public init?(resolving storedText: String) {
        if storedText.utf8.first == UInt8(ascii: "/") {
            // Already trimmed by `ImageText`, or a file's own path, which may end in a space.
            self = .file(URL(fileURLWithPath: storedText).standardizedFileURL)
        } else {
            self.init(storedText, relativeTo: URL(fileURLWithPath: "/"))
        }
    }

    /// The reference as text that ``init(resolving:)`` reads back to it: the file's path, or the URL.
    public var storedText: String { description }
}

/// A source's image texts made ready to store in ``Photo``s, checked without any URL or file
/// system work: what ``ImageReference/init(_:relativeTo:)`` will read when the photo's image is
/// asked for.
///
/// A relative path is joined to the source's folder as text (`..` and `~` are left for
/// ``ImageReference/init(resolving:)``); URLs and absolute paths are kept as written, trimmed.
struct ImageText: Sendable {
    /// The folder's path with a trailing `/`: one string that every relative path's text shares.
    private let directoryPrefix: String

    /// Texts of the source in the folder `directoryPath`.
    init(directoryPath: String) {
        directoryPrefix = directoryPath.hasSuffix("/") ? directoryPath : directoryPath + "/"
    }

    /// The text to store for `text`; `nil` when it is empty or white space.
    ///
    /// - Parameter name: The field's name for messages: `image`, `properties.thumbnail`, `url_l`.
    /// - Throws: ``EntryProblem`` "`name` '`text`' is neither a path nor an http(s) URL" for a URL
    ///   of another scheme or an `http(s)` URL without a host.
    func stored(_ text: String, name: String) throws(EntryProblem) -> PhotoText? {
        guard var trimmed = Photo.nonEmpty(text) else { return nil }
        let whole = trimmed
        let result = trimmed.withUTF8 { bytes in
            Result { () throws(EntryProblem) in try stored(trimmedBytes: bytes, name: name, whole: whole) { text } }
        }
        return try result.get()
    }

    /// The text to store for UTF-8 `bytes`, the folder shared when relative.
    ///
    /// Bytes that are all ASCII and start and end with a printable character are read at once;
    /// any other bytes go through ``stored(_:name:)``.
    ///
    /// - Returns: `nil` for empty or white-space bytes, or bytes that are not UTF-8 (readers check that first).
    ///
    /// - Parameter folders: The folders of relative paths met so far, shared by the photos in
    ///   them: the text's prefix is then the source's folder joined to the path's folder, one
    ///   string for all its photos, and the rest (a file name) usually fits in a `String` itself.
    func stored(
        bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, name: String, folders: inout Folders
    ) throws(EntryProblem) -> PhotoText? {
        if isASCII, let first = bytes.first, let last = bytes.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F
        {
            let text = try stored(trimmedBytes: bytes, name: name) { String(decoding: bytes, as: UTF8.self) }
            guard text.prefix != nil, let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return text }
            let folder = UnsafeBufferPointer(rebasing: bytes[...slash])
            return PhotoText(
                prefix: folders.prefix(for: folder, in: directoryPrefix),
                String(decoding: UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), as: UTF8.self))
        }
        guard let text = UTF8Text.string(bytes) else { return nil }
        return try stored(text, name: name)
    }

    /// The folders of relative image paths a reader has met (up to 64, the latest kept), each
    /// joined to the source's folder once.
    struct Folders {
        private var known: [(folder: [UInt8], prefix: String)] = []
        private var next = 0

        init() {}

        /// `directoryPrefix` joined to `folder` (which ends in `/`), made once per folder.
        mutating func prefix(for folder: UnsafeBufferPointer<UInt8>, in directoryPrefix: String) -> String {
            if let found = known.firstIndex(where: { $0.folder.elementsEqual(folder) }) { return known[found].prefix }
            let prefix = directoryPrefix + String(decoding: folder, as: UTF8.self)
            if known.count < 64 {
                known.append((Array(folder), prefix))
            } else {
                known[next] = (Array(folder), prefix)
                next = (next + 1) % 64
            }
            return prefix
        }
    }

    /// `bytes` already trimmed: themselves, or joined to the folder; `original` gives the text for
    /// messages, `whole` is the string the bytes spell when there is one already (kept, not copied).
    private func stored(
        trimmedBytes bytes: UnsafeBufferPointer<UInt8>, name: String, whole: String? = nil, original: () -> String
    ) throws(EntryProblem) -> PhotoText {
        switch Self.kind(of: bytes) {
        case .remote(hasHost: false), .otherScheme:
            throw EntryProblem("\(name) '\(original())' is neither a path nor an http(s) URL")
        case .remote, .fileURL, .absolutePath:
            return PhotoText(whole ?? String(decoding: bytes, as: UTF8.self))
        case .relativePath:
            return PhotoText(prefix: directoryPrefix, whole ?? String(decoding: bytes, as: UTF8.self))
        }
    }

    /// What a reference's text is, by its bytes.
    private enum Kind {
        case remote(hasHost: Bool)
        case fileURL, otherScheme, absolutePath, relativePath
    }

    private static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> Kind {
        func hasPrefix(_ prefix: StaticString) -> Bool {
            guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
            return (0..<prefix.utf8CodeUnitCount).allSatisfy { bytes[$0] | 0x20 == prefix.utf8Start[$0] }
        }
        if bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "~") { return .absolutePath }
        for scheme: StaticString in ["http://", "https://"] where hasPrefix(scheme) {
            let length = scheme.utf8CodeUnitCount
            guard length < bytes.count else { return .remote(hasHost: false) }
            let host = bytes[length]
            return .remote(hasHost: host != UInt8(ascii: "/") && host != UInt8(ascii: "?") && host != UInt8(ascii: "#"))
        }
        if hasPrefix("file:") { return .fileURL }
        // Any other text holding "://" is a URL of another scheme.
        if bytes.count >= 3 {
            for index in 0..<(bytes.count - 2)
            where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/")
                && bytes[index + 2] == UInt8(ascii: "/")
            {
                return .otherScheme
            }
        }
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
