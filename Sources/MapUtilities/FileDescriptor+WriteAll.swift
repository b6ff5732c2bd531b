#if canImport(Glibc)
    import Glibc
#endif

/// Writes all of `bytes` to the open file `descriptor`, again after a partial write or a signal
/// (`EINTR`): the package's one such loop (atomic files, the flyover's pipe to ffmpeg).
///
/// - Returns: nil when every byte was written, else the failing write's `errno` (see
///   ``MapUtilitiesError/reason(forErrno:)`` for it in words).
public func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return nil
}
