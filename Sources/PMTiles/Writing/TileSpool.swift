import Foundation
import MapUtilities

#if canImport(Glibc)
    import Glibc
#endif

/// Tile bytes kept on disk until the archive is written: a file created beside the archive and
/// unlinked at once, so it has no name (nothing is left behind, even after `kill -9`) and its
/// space is freed when it is closed.
///
/// Appends go through a buffer of ``bufferLimitBytes``; reads see appended bytes whether or not
/// they have reached the file.
final class TileSpool {
    /// The archive the spool is for, for error messages.
    let path: String
    /// Bytes appended so far.
    private(set) var byteCount: UInt64 = 0
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    /// Where ``buffer`` starts in the spool.
    private var bufferOffset: UInt64 = 0

    /// How many appended bytes are kept in memory before they are written: 4 MiB.
    static let bufferLimitBytes = 4 << 20

    /// Creates the spool in the archive's folder (so it is on the same disk).
    ///
    /// - Throws: ``PMTilesError/unwritableFile(path:reason:)`` when the folder has no room for
    ///   a file or cannot be written.
    init(besideArchiveAt url: URL) throws(PMTilesError) {
        path = url.path
        let spoolURL = AtomicFile.temporaryURL(for: url.appendingPathExtension("spool"))
        let descriptor = open(spoolURL.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .unwritableFile(path: path, reason: AtomicFile.reason(writingIn: url.deletingLastPathComponent()))
        }
        unlink(spoolURL.path)
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.bufferLimitBytes)
    }

    deinit {
        close(descriptor)
    }

    /// Appends `data` and returns where it starts in the spool.
    ///
    /// - Throws: ``PMTilesError/unwritableFile(path:reason:)`` when the disk is full.
    func append(_ data: Data) throws(PMTilesError) -> UInt64 {
        let offset = byteCount
        if buffer.count + data.count > Self.bufferLimitBytes { try flush() }
        buffer.append(contentsOf: data)
        byteCount += UInt64(data.count)
        if buffer.count >= Self.bufferLimitBytes { try flush() }
        return offset
    }

    /// Writes the buffered bytes to the file.
    ///
    /// - Throws: ``PMTilesError/unwritableFile(path:reason:)`` when the disk is full.
    func flush() throws(PMTilesError) {
        guard !buffer.isEmpty else { return }
        let failure = buffer.withUnsafeBytes { Self.write($0, to: descriptor, at: bufferOffset) }
        if let failure { throw .unwritableFile(path: path, reason: "cannot spool tiles beside it: \(failure)") }
        bufferOffset += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the `count` bytes at `offset`, from the buffer or the file.
    ///
    /// - Throws: ``PMTilesError/unwritableFile(path:reason:)`` when the spool cannot be read back.
    func withBytes<Value>(
        at offset: UInt64, count: Int, _ body: (UnsafeRawBufferPointer) -> Value
    ) throws(PMTilesError) -> Value {
        if offset >= bufferOffset {
            let start = Int(offset - bufferOffset)
            return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
        }
        // An append lies wholly in the buffer or wholly in the file.
        var bytes = [UInt8](repeating: 0, count: count)
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(PMTilesError) in try read(into: buffer, at: offset) }
        }
        try result.get()
        return bytes.withUnsafeBytes(body)
    }

    /// Fills `bytes` from the spool's file at `offset`, after writing out the buffer.
    ///
    /// - Throws: ``PMTilesError/unwritableFile(path:reason:)`` when the spool cannot be read back.
    func read(into bytes: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(PMTilesError) {
        try flush()
        if let failure = Self.read(into: bytes, from: descriptor, at: offset) {
            throw .unwritableFile(path: path, reason: "cannot read back the tiles spooled beside it: \(failure)")
        }
    }

    /// Writes all of `bytes` at `offset`; nil, or why not in plain words.
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: UInt64) -> String? {
        var done = 0
        while done < bytes.count {
            let result = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if result >= 0 {
                done += result
            } else if errno != EINTR {
                return MapUtilitiesError.reason(forErrno: errno)
            }
        }
        return nil
    }

    /// Fills `bytes` from `offset`; nil, or why not in plain words.
    static func read(into bytes: UnsafeMutableRawBufferPointer, from descriptor: Int32, at offset: UInt64) -> String? {
        var done = 0
        while done < bytes.count {
            let result = pread(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done))
            if result > 0 {
                done += result
            } else if result == 0 {
                return "it is shorter than written"
            } else if errno != EINTR {
                return MapUtilitiesError.reason(forErrno: errno)
            }
        }
        return nil
    }
}
