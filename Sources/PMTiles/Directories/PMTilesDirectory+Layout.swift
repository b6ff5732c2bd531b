import Foundation

extension PMTilesDirectory {
    /// The directories of an archive, encoded and compressed: a root directory small enough to
    /// fit beside the header in the first 16,384 bytes, and the leaf directories it points to.
    struct Layout: Hashable, Sendable {
        /// The root directory's bytes.
        var root: [UInt8]
        /// Every leaf directory's bytes, one after another in tile-id order; empty when the root
        /// holds every entry.
        var leaves: [UInt8]
        /// The number of leaf directories.
        var leafCount: Int
        /// The tile entries in each leaf directory; 0 without leaves.
        var entriesPerLeaf: Int
    }

    /// The most bytes the root directory may take: 16,384 − 127 = 16,257.
    static let rootLimitBytes = PMTilesHeader.rootReachBytes - PMTilesHeader.byteCount

    /// The fewest tile entries in a leaf directory: 4,096, so that a client fetching leaves over
    /// the network gets a useful area with each request.
    static let minimumEntriesPerLeaf = 4096

    /// Lays out tile entries (in tile-id order, at least one) as directories.
    ///
    /// When the whole list, compressed, fits in `rootLimitBytes`, it is the root directory and
    /// there are no leaves. Otherwise the entries are cut into leaves of equal count, from
    /// ``minimumEntriesPerLeaf`` or 1/2,000 of the entries, whichever is more, growing by half
    /// until the root (one entry per leaf) fits. One level of leaves, as the specification
    /// recommends.
    ///
    /// - Parameters:
    ///   - entries: The tile entries, in tile-id order.
    ///   - rootLimitBytes: The most bytes the root may take. The default is ``rootLimitBytes``.
    ///   - minimumEntriesPerLeaf: The fewest entries per leaf. The default is ``minimumEntriesPerLeaf``.
    ///   - compress: How each directory is compressed (the archive's internal compression).
    static func layout(
        _ entries: [PMTilesEntry],
        rootLimitBytes: Int = rootLimitBytes,
        minimumEntriesPerLeaf: Int = minimumEntriesPerLeaf,
        compress: ([UInt8]) -> [UInt8]
    ) -> Layout {
        let whole = compress(encode(entries))
        if whole.count <= rootLimitBytes {
            return Layout(root: whole, leaves: [], leafCount: 0, entriesPerLeaf: 0)
        }
        var entriesPerLeaf = max(minimumEntriesPerLeaf, entries.count / 2000)
        while true {
            var rootEntries: [PMTilesEntry] = []
            var leaves: [UInt8] = []
            for start in stride(from: 0, to: entries.count, by: entriesPerLeaf) {
                let leaf = compress(encode(Array(entries[start..<min(start + entriesPerLeaf, entries.count)])))
                rootEntries.append(
                    PMTilesEntry(
                        tileID: entries[start].tileID, byteOffset: UInt64(leaves.count), byteCount: UInt32(leaf.count),
                        runLength: 0
                    ))
                leaves += leaf
            }
            let root = compress(encode(rootEntries))
            if root.count <= rootLimitBytes || rootEntries.count == 1 {
                return Layout(root: root, leaves: leaves, leafCount: rootEntries.count, entriesPerLeaf: entriesPerLeaf)
            }
            entriesPerLeaf += entriesPerLeaf / 2
        }
    }
}
