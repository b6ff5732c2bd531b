import Foundation
import MapUtilities

/// The byte form of a PMTiles directory, before compression (specification 4.2 and 4.3): the
/// number of entries, then every entry's tile id as the difference from the previous one, every
/// run length, every length, and every offset as `offset + 1`, or 0 when the bytes follow the
/// previous entry's directly. Each number is an unsigned LEB128 varint.
enum PMTilesDirectory {
    /// Why bytes are not a directory, in plain words.
    struct DecodingFailure: Error, Hashable, Sendable {
        var reason: String
    }

    /// The bytes of `entries`, which must be in tile-id order.
    static func encode(_ entries: [PMTilesEntry]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.count * 5 + 10)
        Varint.append(UInt64(entries.count), to: &bytes)
        var previousID: UInt64 = 0
        for entry in entries {
            assert(entry.tileID >= previousID, "directory entries must be in tile-id order")
            Varint.append(entry.tileID - previousID, to: &bytes)
            previousID = entry.tileID
        }
        for entry in entries { Varint.append(UInt64(entry.runLength), to: &bytes) }
        for entry in entries { Varint.append(UInt64(entry.byteCount), to: &bytes) }
        var nextOffset: UInt64? = nil
        for entry in entries {
            Varint.append(entry.byteOffset == nextOffset ? 0 : entry.byteOffset + 1, to: &bytes)
            nextOffset = entry.byteOffset + UInt64(entry.byteCount)
        }
        return bytes
    }

    /// The entries of a directory's bytes (decompressed).
    ///
    /// Trailing bytes after the last offset are ignored, as other readers ignore them.
    ///
    /// - Throws: ``DecodingFailure`` for bytes that end early, a varint longer than 64 bits, an
    ///   entry count the bytes cannot hold, tile ids, offsets or runs that overflow 64 bits, a
    ///   length or run length over 32 bits, or a first offset written as "follows the previous".
    static func decode(_ bytes: [UInt8]) throws(DecodingFailure) -> [PMTilesEntry] {
        var reader = Varint.Reader(bytes: bytes)
        let count = try reader.next()
        // Each entry takes at least four bytes, one per number.
        guard count <= UInt64(bytes.count - reader.offset) / 4 else {
            throw DecodingFailure(reason: "it claims \(count) entries but has only \(bytes.count) bytes")
        }
        var entries = [PMTilesEntry](
            repeating: PMTilesEntry(tileID: 0, byteOffset: 0, byteCount: 0, runLength: 0), count: Int(count))
        var tileID: UInt64 = 0
        for index in entries.indices {
            let (sum, overflow) = tileID.addingReportingOverflow(try reader.next())
            guard !overflow else { throw DecodingFailure(reason: "entry \(index)'s tile id overflows 64 bits") }
            tileID = sum
            entries[index].tileID = tileID
        }
        for index in entries.indices {
            entries[index].runLength = try reader.next32(what: "entry \(index)'s run length")
            guard entries[index].tileID.addingReportingOverflow(UInt64(entries[index].runLength)).overflow == false
            else {
                throw DecodingFailure(reason: "entry \(index)'s run of tiles overflows 64-bit tile ids")
            }
        }
        for index in entries.indices {
            entries[index].byteCount = try reader.next32(what: "entry \(index)'s length")
        }
        for index in entries.indices {
            let value = try reader.next()
            if value == 0 {
                guard index > 0 else {
                    throw DecodingFailure(reason: "the first entry's offset is written as following a previous entry")
                }
                let previous = entries[index - 1]
                let (offset, overflow) = previous.byteOffset.addingReportingOverflow(UInt64(previous.byteCount))
                guard !overflow else { throw DecodingFailure(reason: "entry \(index)'s offset overflows 64 bits") }
                entries[index].byteOffset = offset
            } else {
                entries[index].byteOffset = value - 1
            }
        }
        return entries
    }

    /// The entry of `entries` (in tile-id order) that holds tile `id`: the tile entry whose run
    /// covers it, or the leaf directory entry with the greatest first id not above it; nil
    /// when there is none.
    static func entry(holding id: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        // The last entry whose first id is at most `id`.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let entry = entries[low - 1]
        if entry.isLeafDirectory || id - entry.tileID < UInt64(entry.runLength) { return entry }
        return nil
    }
}

extension Varint {
    /// Reads varints one after another.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        /// The next varint.
        ///
        /// - Throws: ``PMTilesDirectory/DecodingFailure`` when the bytes end first or the number
        ///   needs more than 64 bits.
        mutating func next() throws(PMTilesDirectory.DecodingFailure) -> UInt64 {
            if let value = Varint.read(bytes, at: &offset, end: bytes.count) { return value }
            guard offset < bytes.count else {
                throw PMTilesDirectory.DecodingFailure(
                    reason: "it ends in the middle of its numbers, after \(bytes.count) bytes")
            }
            throw PMTilesDirectory.DecodingFailure(reason: "a number at byte \(offset) overflows 64 bits")
        }

        /// The next varint, which must fit 32 bits; `what` names it in the error.
        mutating func next32(what: String) throws(PMTilesDirectory.DecodingFailure) -> UInt32 {
            let value = try next()
            guard let small = UInt32(exactly: value) else {
                throw PMTilesDirectory.DecodingFailure(reason: "\(what) is \(value), more than 32 bits")
            }
            return small
        }
    }
}
