import Foundation
import MapUtilities

#if canImport(Glibc)
    import Glibc
#endif

/// A regular file open for reading, read at any offset from any thread with `pread`, which
/// moves no shared file position.
///
/// Reads never reach past the size the file had when it was opened: a file cut short later
/// gives an error, not a crash (as a memory map would, with SIGBUS).
final class ReadOnlyFile: PMTilesByteSource {
    /// The file.
    let url: URL
    /// The path, for error messages.
    let path: String
    /// The file's size in bytes when it was opened.
    let byteCount: UInt64
    private let descriptor: Int32

    /// Opens the file.
    ///
    /// - Throws: ``PMTilesError/unreadableFile(path:reason:)`` for a missing file, a folder, or
    ///   one that cannot be opened.
    init(url: URL) throws(PMTilesError) {
        self.url = url
        path = url.path
        // O_NONBLOCK: opening a named pipe must not wait for a writer; it is refused below.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw .unreadableFile(path: path, reason: MapUtilitiesError.reason(readingAt: path))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .unreadableFile(path: path, reason: MapUtilitiesError.reason(readingAt: path))
        }
        self.descriptor = descriptor
        byteCount = UInt64(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// The first `byteCount` bytes (fewer when the file is shorter); no version: the file was
    /// opened once, and a file replaced later (renamed over) is not the one read.
    func start(byteCount: Int) throws(PMTilesError) -> PMTilesArchiveStart {
        let count = Int(min(self.byteCount, UInt64(byteCount)))
        return PMTilesArchiveStart(
            bytes: try bytes(at: 0, count: count, what: "the header"), archiveByteCount: self.byteCount, version: nil)
    }

    /// The bytes of `ranges`, one `pread` each.
    func data(at ranges: [PMTilesByteRange], version: String?) throws(PMTilesError) -> [Data] {
        var result: [Data] = []
        result.reserveCapacity(ranges.count)
        for range in ranges {
            result.append(
                try data(at: range.offset, count: range.count, what: "the \(range.count) bytes at byte \(range.offset)")
            )
        }
        return result
    }

    /// `count` bytes from `offset`.
    ///
    /// - Parameter what: What the bytes are ("the root directory"), for error messages.
    /// - Throws: ``PMTilesError/corruptDirectory(path:reason:)`` when the range reaches past the
    ///   end of the file, ``PMTilesError/unreadableFile(path:reason:)`` when reading fails.
    func bytes(at offset: UInt64, count: Int, what: String) throws(PMTilesError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { fill($0, at: offset, what: what) }
        try result.get()
        return bytes
    }

    /// `count` bytes from `offset`, as ``bytes(at:count:what:)`` reads them.
    func data(at offset: UInt64, count: Int, what: String) throws(PMTilesError) -> Data {
        var data = Data(count: count)
        let result = data.withUnsafeMutableBytes { fill($0, at: offset, what: what) }
        try result.get()
        return data
    }

    private func fill(_ buffer: UnsafeMutableRawBufferPointer, at offset: UInt64, what: String) -> Result<
        Void, PMTilesError
    > {
        let count = buffer.count
        guard count > 0 else { return .success(()) }
        let (end, overflow) = offset.addingReportingOverflow(UInt64(count))
        guard !overflow, end <= byteCount else {
            return .failure(
                .corruptDirectory(
                    path: path,
                    reason:
                        "\(what) (\(count) bytes at byte \(offset)) reaches past the end of the file (\(byteCount) bytes)"
                ))
        }
        var done = 0
        while done < count {
            let result = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            if result > 0 {
                done += result
            } else if result == 0 {
                return .failure(
                    .unreadableFile(
                        path: path, reason: "the file became shorter while it was read (\(what) at byte \(offset))"))
            } else if errno != EINTR {
                return .failure(.unreadableFile(path: path, reason: MapUtilitiesError.reason(forErrno: errno)))
            }
        }
        return .success(())
    }
}
