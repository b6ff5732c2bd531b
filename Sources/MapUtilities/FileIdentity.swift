#if canImport(Glibc)
    import Glibc
#endif

/// Which file a path names and which version of it: what `stat` says of it, the device and
/// inode (which file), its size, and its modification and status-change times to the
/// nanosecond. Two identities of one path differ when another file was renamed over it
/// (``isSameFile(as:)`` false), and when it was written in place: `cp new old`, a SQLite
/// commit, and `rsync --inplace`, which sets the modification time back but cannot set the
/// status-change time.
///
/// Taken of a path just before the file is read or opened, an identity describes the file as
/// read, or an older one: a later comparison with the path never misses a change made after the
/// read began (a change made between the `stat` and the read is seen as one more change).
public struct FileIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The device holding the file.
    public let device: UInt64
    /// Its inode on that device.
    public let inode: UInt64
    /// Its size in bytes.
    public let sizeBytes: Int64
    /// Its last modification (`st_mtim`), in nanoseconds since 1970.
    public let modifiedNanoseconds: Int64
    /// Its last status change (`st_ctim`: any write, rename, or change of owner or mode), in
    /// nanoseconds since 1970.
    public let changedNanoseconds: Int64

    /// The identity of the file at `path`, symbolic links followed; nil when there is none (or it
    /// cannot be stated).
    public init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity of the open file `descriptor` (`fstat`); nil when it cannot be stated.
    public init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        sizeBytes = Int64(status.st_size)
        modifiedNanoseconds = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        changedNanoseconds = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    }

    /// Whether `other` is the same file (device and inode), perhaps another version of it.
    public func isSameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }

    /// `DEVICE:INODE:SIZE:MODIFIED:CHANGED`, for logs and cache keys.
    public var description: String { "\(device):\(inode):\(sizeBytes):\(modifiedNanoseconds):\(changedNanoseconds)" }
}
