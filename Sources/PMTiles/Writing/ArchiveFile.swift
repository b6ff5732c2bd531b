import Foundation
import MapUtilities

#if canImport(Glibc)
    import Glibc
#endif

/// The archive being written: a temporary file beside its final name, written front to back
/// through a buffer, then synced and renamed over the final name (``AtomicFile``), so that no
/// reader ever sees a partial archive under that name.
final class ArchiveFile {
    /// The final name.
    let url: URL
    /// Bytes appended so far.
    private(set) var byteCount: UInt64 = 0
    private let temporaryURL: URL
    private var descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes of ``buffer`` in use.
    private var bufferedByteCount = 0

    /// How many bytes are gathered before a write: 4 MiB.
    static let bufferLimitBytes = 4 << 20

    /// Creates the temporary file.
    ///
    /// - Throws: ``PMTilesError/unwritableFile(path:reason:)``.
    init(url: URL) throws(PMTilesError) {
        self.url = url
        temporaryURL = AtomicFile.temporaryURL(for: url)
        descriptor = open(temporaryURL.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .unwritableFile(path: url.path, reason: AtomicFile.reason(writingIn: url.deletingLastPathComponent()))
        }
        buffer = .allocate(byteCount: Self.bufferLimitBytes, alignment: 16)
    }

    /// Removes the temporary file unless ``commit()`` renamed it.
    deinit {
        buffer.deallocate()
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporaryURL.path)
        }
    }

    /// Appends bytes.
    func append(_ bytes: [UInt8]) throws(PMTilesError) {
        var start = 0
        while start < bytes.count {
            let count = min(bytes.count - start, Self.bufferLimitBytes)
            let slice = bytes[start..<start + count]
            try append(count: count) { (destination) throws(PMTilesError) in
                slice.withUnsafeBytes { destination.copyMemory(from: $0) }
            }
            start += count
        }
    }

    /// Appends `count` bytes (at most ``bufferLimitBytes``) that `fill` writes into the buffer
    /// it is given.
    func append(count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws(PMTilesError) -> Void) throws(PMTilesError) {
        precondition(count <= Self.bufferLimitBytes)
        if bufferedByteCount + count > Self.bufferLimitBytes { try flush() }
        try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[bufferedByteCount..<bufferedByteCount + count]))
        bufferedByteCount += count
        byteCount += UInt64(count)
    }

    /// Writes out the buffer, syncs the file to disk and renames it to the final name.
    ///
    /// - Throws: ``PMTilesError/unwritableFile(path:reason:)``; the temporary file is then removed.
    func commit() throws(PMTilesError) {
        try flush()
        guard fsync(descriptor) == 0 else {
            throw .unwritableFile(path: url.path, reason: MapUtilitiesError.reason(forErrno: errno))
        }
        close(descriptor)
        descriptor = -1
        do {
            try AtomicFile.replace(url, with: temporaryURL)
        } catch {
            throw .unwritableFile(path: url.path, reason: error.reason)
        }
    }

    private func flush() throws(PMTilesError) {
        guard bufferedByteCount > 0 else { return }
        let offset = byteCount - UInt64(bufferedByteCount)
        if let failure = TileSpool.write(
            UnsafeRawBufferPointer(rebasing: buffer[..<bufferedByteCount]), to: descriptor, at: offset)
        {
            throw .unwritableFile(path: url.path, reason: failure)
        }
        bufferedByteCount = 0
    }
}
