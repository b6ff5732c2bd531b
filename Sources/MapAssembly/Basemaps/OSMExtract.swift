import CZlib
import Foundation
import MapUtilities

/// An OpenStreetMap extract in the PBF format (`.osm.pbf`), read and written block by block, as
/// far as `basemap build` needs to hand tilemaker an extract cut by a bounding box: its nodes'
/// ids, and its ways' node references.
///
/// A file is a sequence of blocks, each a 4-byte big-endian length, a `BlobHeader` (its type,
/// `OSMHeader` or `OSMData`, and its blob's length) and a `Blob` holding one `HeaderBlock` or
/// `PrimitiveBlock`, raw or zlib-compressed, at most 32 MiB uncompressed. Blocks compressed
/// otherwise (LZMA, zstd: rare, and tilemaker 2.2 reads only zlib) are refused. See
/// <https://wiki.openstreetmap.org/wiki/PBF_Format>.
enum OSMExtract {
    /// The most bytes a block's `BlobHeader` may take: 64 KiB, the format's own limit.
    static let maximumHeaderByteCount = 64 << 10
    /// The most bytes a block's blob may take, compressed or not: 32 MiB, the format's own limit.
    static let maximumBlobByteCount = 32 << 20

    /// One block as the file holds it.
    struct Block {
        /// `OSMHeader` or `OSMData` (others are passed over by readers, and kept as they are).
        var type: String
        /// The whole block as it is in the file: length, `BlobHeader` and `Blob`.
        var bytes: Data
        /// Where the `Blob` starts in ``bytes``.
        var blobOffset: Int

        /// The block's message (`HeaderBlock` or `PrimitiveBlock`), uncompressed.
        func message(in file: URL) throws(AssemblyError) -> [UInt8] {
            let blob = [UInt8](bytes[(bytes.startIndex + blobOffset)...])
            var raw: [UInt8]?
            var compressed: [UInt8]?
            var other: Int?
            for field in try Protobuf.fields(of: blob, file: file) {
                switch field.number {
                case 1: raw = Array(blob[field.bytes])
                case 3: compressed = Array(blob[field.bytes])
                case 4, 5, 6, 7: other = field.number
                default: continue
                }
            }
            if let raw { return raw }
            if let compressed {
                do throws(MapUtilitiesError) {
                    return try Gzip.decompress(compressed, limitBytes: OSMExtract.maximumBlobByteCount)
                } catch {
                    throw OSMExtract.damaged(file, "a block's zlib data cannot be read (\(error))")
                }
            }
            let names = [4: "LZMA", 5: "bzip2", 6: "LZ4", 7: "zstd"]
            throw .invalid(
                .basemap,
                reason: other.map {
                    "'\(file.path)' holds a block compressed with \(names[$0]!), which tilemaker does not read: recompress it with zlib (osmium cat -o OUT.osm.pbf)"
                } ?? "'\(file.path)' holds a block with no data")
        }

        /// A block of `type` holding `message`, zlib-compressed as tilemaker reads it.
        init(type: String, message: [UInt8]) {
            var blob: [UInt8] = []
            Protobuf.appendVarint(2, value: UInt64(message.count), to: &blob)
            Protobuf.appendBytes(3, OSMExtract.zlib(message), to: &blob)
            var header: [UInt8] = []
            Protobuf.appendBytes(1, Array(type.utf8), to: &header)
            Protobuf.appendVarint(3, value: UInt64(blob.count), to: &header)
            let length = UInt32(header.count).bigEndian
            var bytes = withUnsafeBytes(of: length) { Data($0) }
            bytes += header
            blobOffset = bytes.count
            bytes += blob
            self.type = type
            self.bytes = bytes
        }

        init(type: String, bytes: Data, blobOffset: Int) {
            self.type = type
            self.bytes = bytes
            self.blobOffset = blobOffset
        }
    }

    /// Reads the blocks of `file` in order, handing each to `body`.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming the file when it cannot be read, is
    ///   cut short inside a block, or a block's header is broken; and what `body` throws.
    static func forEachBlock(
        of file: URL, _ body: (Block) throws(AssemblyError) -> Void
    ) throws(AssemblyError) {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: file) } catch {
            throw .invalid(.basemap, reason: "'\(file.path)' cannot be read: \(error.localizedDescription)")
        }
        defer { try? handle.close() }
        func read(_ count: Int) throws(AssemblyError) -> Data {
            do { return try handle.read(upToCount: count) ?? Data() } catch {
                throw .invalid(.basemap, reason: "'\(file.path)' cannot be read: \(error.localizedDescription)")
            }
        }
        while true {
            let length = try read(4)
            if length.isEmpty { return }
            guard length.count == 4 else { throw damaged(file, "it ends inside a block's length") }
            let headerCount = length.reduce(0) { $0 << 8 | Int($1) }
            guard headerCount <= maximumHeaderByteCount else {
                throw damaged(file, "a block header says it takes \(headerCount.groupedText) bytes")
            }
            let header = try read(headerCount)
            guard header.count == headerCount else { throw damaged(file, "it ends inside a block's header") }
            let headerBytes = [UInt8](header)
            var type: String?
            var blobCount: Int?
            for field in try Protobuf.fields(of: headerBytes, file: file) {
                if field.number == 1 { type = String(decoding: headerBytes[field.bytes], as: UTF8.self) }
                if field.number == 3 { blobCount = Int(exactly: field.value) }
            }
            guard let type, let blobCount, blobCount <= maximumBlobByteCount else {
                throw damaged(file, "a block header gives no type or no size, or a size over 32 MiB")
            }
            let blob = try read(blobCount)
            guard blob.count == blobCount else { throw damaged(file, "it ends inside a block") }
            try body(Block(type: type, bytes: length + header + blob, blobOffset: 4 + headerCount))
        }
    }

    /// The error for a damaged file: `'PATH' is not a readable OpenStreetMap extract: WHAT`.
    static func damaged(_ file: URL, _ what: String) -> AssemblyError {
        .invalid(
            .basemap,
            reason: "'\(file.path)' is not a readable OpenStreetMap extract: \(what) (download it again)")
    }

    /// `bytes` as a zlib stream (RFC 1950) at zlib's default level (6), as PBF blobs hold them.
    static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(compressBound(uLong(bytes.count))))
        var count = uLongf(output.count)
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &count, input.baseAddress, uLong(input.count), Z_DEFAULT_COMPRESSION)
            }
        }
        precondition(status == Z_OK, "compressBound left too little room, or zlib is out of memory")
        output.removeSubrange(Int(count)...)
        return output
    }
}

extension OSMExtract {
    /// The protocol buffer wire format as far as PBF blocks need it: a message's fields, packed
    /// varints, and fields written back. See <https://protobuf.dev/programming-guides/encoding/>.
    enum Protobuf {
        /// One field of a message.
        struct Field {
            /// The field's number.
            var number: Int
            /// The wire type: 0 varint, 1 64-bit, 2 length-delimited, 5 32-bit.
            var wireType: Int
            /// A varint's or fixed number's value; 0 for length-delimited fields.
            var value: UInt64
            /// A length-delimited field's bytes; empty for the others.
            var bytes: Range<Int>
            /// The whole field, key included, to copy it as it is.
            var whole: Range<Int>
        }

        /// The fields of the message `bytes[range]`, in order.
        ///
        /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming `file` for bytes that are not a
        ///   message: a field running past the end, a group, or an unknown wire type.
        static func fields(of bytes: [UInt8], in range: Range<Int>? = nil, file: URL) throws(AssemblyError) -> [Field] {
            let range = range ?? 0..<bytes.count
            var offset = range.lowerBound
            var fields: [Field] = []
            while offset < range.upperBound {
                let start = offset
                guard let key = Varint.read(bytes, at: &offset, end: range.upperBound), key >> 3 > 0,
                    key >> 3 <= UInt64(Int32.max)
                else { throw damaged(file, "a block holds a broken message") }
                let number = Int(key >> 3)
                let wireType = Int(key & 7)
                var value: UInt64 = 0
                var content = offset..<offset
                switch wireType {
                case 0:
                    guard let read = Varint.read(bytes, at: &offset, end: range.upperBound) else {
                        throw damaged(file, "a block holds a broken number")
                    }
                    value = read
                case 1, 5:
                    let size = wireType == 1 ? 8 : 4
                    guard range.upperBound - offset >= size else { throw damaged(file, "a block is cut short") }
                    value = bytes[offset..<offset + size].reversed().reduce(0) { $0 << 8 | UInt64($1) }
                    offset += size
                case 2:
                    guard let length = Varint.read(bytes, at: &offset, end: range.upperBound),
                        length <= UInt64(range.upperBound - offset)
                    else { throw damaged(file, "a block holds a field longer than the block") }
                    content = offset..<offset + Int(length)
                    offset = content.upperBound
                default:
                    throw damaged(file, "a block holds a field of wire type \(wireType)")
                }
                fields.append(
                    Field(number: number, wireType: wireType, value: value, bytes: content, whole: start..<offset))
            }
            return fields
        }

        /// The packed varints of `bytes[range]`.
        static func varints(in bytes: [UInt8], _ range: Range<Int>, file: URL) throws(AssemblyError) -> [UInt64] {
            var offset = range.lowerBound
            var values: [UInt64] = []
            while offset < range.upperBound {
                guard let value = Varint.read(bytes, at: &offset, end: range.upperBound) else {
                    throw damaged(file, "a block holds a broken list of numbers")
                }
                values.append(value)
            }
            return values
        }

        /// The packed, delta-coded `sint64`s of `bytes[range]` (ids, node references), summed.
        static func deltaCoded(in bytes: [UInt8], _ range: Range<Int>, file: URL) throws(AssemblyError) -> [Int64] {
            var sum: Int64 = 0
            return try varints(in: bytes, range, file: file).map {
                sum &+= zigzagDecoded($0)
                return sum
            }
        }

        /// A `sint64` from its zigzag varint.
        static func zigzagDecoded(_ value: UInt64) -> Int64 {
            Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
        }

        /// Appends field `number` as a varint.
        static func appendVarint(_ number: Int, value: UInt64, to bytes: inout [UInt8]) {
            Varint.append(UInt64(number) << 3, to: &bytes)
            Varint.append(value, to: &bytes)
        }

        /// Appends field `number` as length-delimited `content`.
        static func appendBytes(_ number: Int, _ content: some Collection<UInt8>, to bytes: inout [UInt8]) {
            Varint.append(UInt64(number) << 3 | 2, to: &bytes)
            Varint.append(UInt64(content.count), to: &bytes)
            bytes += content
        }

        /// Appends field `number` as packed, delta-coded `sint64`s.
        static func appendDeltaCoded(_ number: Int, _ values: [Int64], to bytes: inout [UInt8]) {
            var packed: [UInt8] = []
            var previous: Int64 = 0
            for value in values {
                let delta = value &- previous
                previous = value
                Varint.append(UInt64(bitPattern: (delta << 1) ^ (delta >> 63)), to: &packed)
            }
            appendBytes(number, packed, to: &bytes)
        }
    }
}
