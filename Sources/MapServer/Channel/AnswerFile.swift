import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An event loop's answers to kept tiles asked for often, head and body together in a memory
/// file (`memfd_create(2)`), written to sockets with `sendfile(2)` as nginx writes files: the
/// kernel sends the file's pages without copying them into the socket. On a 53 KB tile asked
/// again and again this cut serve's time per request by about a sixth (copying the tile into
/// the socket was the largest single cost).
///
/// **Safe to send while it changes.** The kernel holds the pages sent, not copies of them, so
/// the bytes of an answer are never written over: each answer is written once at offsets never
/// used again ("regions"), and a region no longer used is punched out of the file
/// (`FALLOC_FL_PUNCH_HOLE`) only when no write of it is pending; pages already in flight stay
/// whole until the kernel lets them go. Once the file holds nothing it starts again from
/// offset 0.
///
/// Used on its event loop only (its file handle too: NIO lets one handle be used by one thread
/// at a time). Its bytes (whole pages) count in ``MapTileServer/answerFileBytes``, for the memory guard: the
/// kernel does not count a memory file's pages as the process's resident memory, though a
/// container's limit does.
final class AnswerFile {
    /// The handle sockets' writes read from.
    let handle: NIOFileHandle
    private let descriptor: CInt
    private let server: MapTileServer
    private var nextOffset = 0
    private var regions = 0
    /// The bytes of the file's regions not yet punched out, in whole pages.
    private(set) var bytes = 0

    /// Starts the file over once its regions are all gone and it has reached this offset.
    static let restartOffset = 1 << 30
    private static let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// A memory file of its own; `nil` where the kernel makes none (answers then go as buffers).
    ///
    /// - Parameter server: The server whose ``MapTileServer/answerFileBytes`` it counts in.
    init?(server: MapTileServer) {
        let descriptor = memfdCreate("mapwright-answers", UInt32(memfdCloseOnExec))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        handle = NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)
        self.server = server
    }

    deinit {
        server.answerFileBytes.subtract(bytes, ordering: .relaxed)
        try? handle.close()
    }

    /// Writes `head` and then `body` into a new region; `nil` when the file cannot be written.
    func store(_ head: ByteBuffer, _ body: ByteBuffer) -> Region? {
        if regions == 0, nextOffset >= Self.restartOffset, ftruncate(descriptor, 0) == 0 { nextOffset = 0 }
        let length = head.readableBytes + body.readableBytes
        let pages = (length + Self.pageBytes - 1) / Self.pageBytes * Self.pageBytes
        let offset = nextOffset
        guard write(head, at: offset), write(body, at: offset + head.readableBytes) else {
            _ = punchHole(offset: offset, bytes: pages)
            return nil
        }
        nextOffset += pages
        regions += 1
        bytes += pages
        server.answerFileBytes.add(pages, ordering: .relaxed)
        return Region(file: self, offset: offset, length: length, pageBytes: pages)
    }

    private func write(_ buffer: ByteBuffer, at offset: Int) -> Bool {
        buffer.withUnsafeReadableBytes { raw in
            var done = 0
            while done < raw.count {
                let written = pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                done += written
            }
            return true
        }
    }

    fileprivate func release(_ region: Region) {
        _ = punchHole(offset: region.offset, bytes: region.pageBytes)
        regions -= 1
        bytes -= region.pageBytes
        server.answerFileBytes.subtract(region.pageBytes, ordering: .relaxed)
    }

    private func punchHole(offset: Int, bytes: Int) -> Bool {
        fileAllocate(descriptor, punchHoleKeepingSize, off_t(offset), off_t(bytes)) == 0
    }

    /// An answer's bytes in the file. Writes of it are counted (``willWrite()`` before each,
    /// ``didWrite()`` once it is written or failed); ``retire()`` lets it be punched out once
    /// none is pending.
    final class Region {
        let file: AnswerFile
        let offset: Int
        let length: Int
        let pageBytes: Int
        private var pendingWrites = 0
        private var isRetired = false

        fileprivate init(file: AnswerFile, offset: Int, length: Int, pageBytes: Int) {
            self.file = file
            self.offset = offset
            self.length = length
            self.pageBytes = pageBytes
        }

        /// The region as NIO writes it (with `sendfile`).
        var fileRegion: FileRegion {
            FileRegion(fileHandle: file.handle, readerIndex: offset, endIndex: offset + length)
        }

        func willWrite() { pendingWrites += 1 }

        func didWrite() {
            pendingWrites -= 1
            if isRetired, pendingWrites == 0 { file.release(self) }
        }

        /// No new writes will use it.
        func retire() {
            guard !isRetired else { return }
            isRetired = true
            if pendingWrites == 0 { file.release(self) }
        }
    }
}

/// glibc's `memfd_create(2)` and `fallocate(2)` (declared for `_GNU_SOURCE` only, which Swift's Glibc module is not).
@_silgen_name("memfd_create")
private func memfdCreate(_ name: UnsafePointer<CChar>, _ flags: UInt32) -> CInt
@_silgen_name("fallocate")
private func fileAllocate(_ descriptor: CInt, _ mode: CInt, _ offset: off_t, _ length: off_t) -> CInt
/// `MFD_CLOEXEC`.
private let memfdCloseOnExec: CInt = 1
/// `FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE`.
private let punchHoleKeepingSize: CInt = 2 | 1
