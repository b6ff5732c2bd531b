import Foundation

/// Writes files so that a reader sees either the previous contents or the complete new ones.
///
/// The bytes go to a temporary file in the destination's directory, which is then renamed over the
/// destination; a rename within one file system is atomic on POSIX systems. Renders, diffs and
/// tiles written this way are never seen half-written, even by a process reading concurrently.
public enum AtomicFile {
    /// Writes `data` to `url`, replacing any existing file atomically.
    ///
    /// - Throws: ``ImageDiffError/unwritableFile(path:reason:)`` when the temporary file cannot be
    ///   created or written, or cannot be renamed into place; the temporary file is then removed.
    public static func write(_ data: Data, to url: URL) throws(ImageDiffError) {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
        } catch {
            throw .unwritableFile(path: url.path, reason: reason(writingIn: directory))
        }
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .unwritableFile(path: url.path, reason: reason)
        }
    }

    private static func reason(writingIn directory: URL) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            return "the directory \(directory.path) does not exist"
        }
        if !isDirectory.boolValue { return "\(directory.path) is not a directory" }
        return "the directory \(directory.path) is not writable or the disk is full"
    }
}
