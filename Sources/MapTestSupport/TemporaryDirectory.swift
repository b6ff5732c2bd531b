public import Foundation

/// A fresh directory under the system's temporary directory, with a name no other test uses,
/// removed when the value goes away.
///
/// For example:
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let path = try directory.write("{}", to: "style.json")
/// ```
public final class TemporaryDirectory: Sendable {
    // A class only so that deinit can remove the folder.

    /// The directory.
    public let url: URL

    /// Creates the directory, named `mapwright-tests-UUID`.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mapwright-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The URL of a file in the directory.
    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// The path of a file in the directory.
    public func path(_ name: String) -> String {
        file(name).path
    }

    /// Writes text to a file in the directory and returns its path.
    public func write(_ text: String, to name: String) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Makes a fresh, empty directory under the system's temporary directory, for tests that remove
/// it themselves (or want it kept, to look at); see ``TemporaryDirectory`` for one removed
/// automatically.
public func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("mapwright-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
