public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes files so that a reader sees either the previous contents or the complete new ones.
///
/// The bytes go to a temporary file in the destination's directory, with a name no other writer
/// uses, which is then renamed over the destination; a rename within one file system is atomic on
/// POSIX systems. Renders, diffs and tiles written this way are never seen half-written, even by a
/// process reading concurrently, and a failed write leaves any earlier file untouched.
public enum AtomicFile {
    /// Writes `data` to `url`, replacing any existing file atomically.
    ///
    /// The bytes are not forced to the disk (`fsync`) before the rename, as `cp`, Mapnik or GDAL
    /// do not force theirs: readers, and a process killed midway, see the old file or the new
    /// one whole; after a power cut the file system's own guarantees apply. (Foundation's
    /// `Data.write(to:)` syncs every file it writes: 1.7 ms of a static map's ~180.)
    ///
    /// - Throws: ``MapUtilitiesError`` when the temporary file cannot be created or written, or
    ///   cannot be renamed into place; the temporary file is then removed.
    public static func write(_ data: Data, to url: URL) throws(MapUtilitiesError) {
        let temporary = temporaryURL(for: url)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw MapUtilitiesError.unwritableFile(
                path: url.path, reason: reason(writingIn: url.deletingLastPathComponent()))
        }
        var failure = data.withUnsafeBytes { writeAll($0, to: descriptor) }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if let failure {
            try? FileManager.default.removeItem(at: temporary)
            throw MapUtilitiesError.unwritableFile(path: url.path, reason: MapUtilitiesError.reason(forErrno: failure))
        }
        try replace(url, with: temporary)
    }

    /// Renames `temporary` (made with ``temporaryURL(for:)`` and written completely, for example
    /// by a C library that writes by path) over `url`.
    ///
    /// - Throws: ``MapUtilitiesError`` when the rename fails; the temporary file is then removed.
    public static func replace(_ url: URL, with temporary: URL) throws(MapUtilitiesError) {
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw MapUtilitiesError.unwritableFile(path: url.path, reason: reason)
        }
    }

    /// Copies `source` to `destination` (its folder made when missing) through a temporary file
    /// beside it, renamed into place: a reader sees the old file or the whole copy.
    ///
    /// - Throws: ``MapUtilitiesError`` naming `destination` when the folder cannot be made, the
    ///   copy fails or the rename does; the temporary file is then removed.
    public static func copy(_ source: URL, to destination: URL) throws(MapUtilitiesError) {
        let temporary = temporaryURL(for: destination)
        do {
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: source, to: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw MapUtilitiesError.unwritableFile(path: destination.path, reason: error.localizedDescription)
        }
        try replace(destination, with: temporary)
    }

    /// A temporary file name beside `url` that no other process or thread uses:
    /// `.NAME.UUID.tmp`, hidden, in the same directory (so the rename stays on one file system).
    public static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    }

    /// Makes a new folder `PREFIXxxxxxx` in `parent`, with a name no other process or thread
    /// uses and mode 0700 (`mkdtemp`), so nobody else can have made it first or read it.
    ///
    /// - Returns: The folder; nil when it cannot be made.
    public static func makeUniqueDirectory(in parent: URL, prefix: String) -> URL? {
        var template = Array((parent.path + "/" + prefix + "XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return URL(fileURLWithPath: String(cString: made), isDirectory: true)
    }

    /// Why a file cannot be written in `directory`, in plain words.
    public static func reason(writingIn directory: URL) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            return "the directory \(directory.path) does not exist"
        }
        if !isDirectory.boolValue { return "\(directory.path) is not a directory" }
        return "the directory \(directory.path) is not writable or the disk is full"
    }
}
