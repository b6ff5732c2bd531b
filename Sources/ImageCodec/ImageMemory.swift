import CPNGShim

/// Zeroed memory for a large image, freed with the last reference: from 2 MiB on, an anonymous
/// mapping aligned to 2 MiB and advised for transparent huge pages (`MADV_HUGEPAGE`; the kernel
/// decides), so that a 2400 × 1600 image (15 MB) is a handful of page faults the first time it
/// is written instead of ~3,700; below 2 MiB, `calloc`'s. The PNG writer's filtered rows come from
/// the same allocator.
public final class ImageMemory: @unchecked Sendable {
    /// The first byte; `count` bytes follow, zeroed at first.
    public let bytes: UnsafeMutableRawPointer
    /// The number of bytes.
    public let count: Int

    /// `count` zeroed bytes; nil when out of memory.
    public init?(count: Int) {
        guard count >= 0, let bytes = mw_large_buffer_alloc(count, 1) else { return nil }
        self.bytes = bytes
        self.count = count
    }

    deinit { mw_large_buffer_free(bytes, count) }
}
