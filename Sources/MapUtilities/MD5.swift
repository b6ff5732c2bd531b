public import Foundation

/// The MD5 message digest (RFC 1321), for content ids that other tools compute the same way.
///
/// Not for security: MD5 collides on purpose-made inputs. It is here because file formats name
/// content by it: MBTiles' deduplicated ("normalized") schema stores a tile's bytes under the
/// MD5 of those bytes, and `agg_tiles_hash` is the MD5 of every tile in order, as martin's
/// `mbtiles` tool writes them. For example:
///
/// ```swift
/// var digest = MD5()
/// digest.combine("The quick brown fox jumps over the lazy dog".utf8)
/// digest.finalize().hexDigits  // "9e107d9d372bb6826bd81d3542a419d6"
/// MD5(Data()).finalize().uppercaseHexDigits  // "D41D8CD98F00B204E9800998ECF8427E"
/// ```
///
/// A value type: copying a digest part-way forks it, so `finalize()` does not end the original.
public struct MD5: Sendable {
    /// A finished 16-byte digest.
    public struct Digest: Hashable, Sendable {
        /// The 16 bytes, in the order RFC 1321 prints them.
        public let bytes: [UInt8]

        /// The digest as 32 lowercase hexadecimal digits, as `md5sum` and Python's `hexdigest()` print it.
        public var hexDigits: String { Self.hex(bytes, digits: Self.lowercaseDigits) }

        /// The digest as 32 uppercase hexadecimal digits, as SQLite's `hex()` and martin's
        /// `md5_hex` write it (MBTiles `tile_id` and `agg_tiles_hash` values).
        public var uppercaseHexDigits: String { Self.hex(bytes, digits: Self.uppercaseDigits) }

        private static let lowercaseDigits = Array("0123456789abcdef".utf8)
        private static let uppercaseDigits = Array("0123456789ABCDEF".utf8)

        private static func hex(_ bytes: [UInt8], digits: [UInt8]) -> String {
            var text = [UInt8]()
            text.reserveCapacity(bytes.count * 2)
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
    /// Bytes combined but not yet hashed: fewer than 64.
    private var pending: [UInt8] = []
    /// Bytes combined in all, for the length at the end.
    private var byteCount: UInt64 = 0

    /// A digest of nothing yet.
    public init() {
        pending.reserveCapacity(64)
    }

    /// A digest of `bytes`, to combine more into or to finalize.
    public init(_ bytes: some Sequence<UInt8>) {
        self.init()
        combine(bytes)
    }

    /// Mixes in `bytes`, after everything combined before.
    public mutating func combine(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            combine(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            let array = Array(bytes)
            array.withUnsafeBytes { combine($0) }
        }
    }

    /// Mixes in the bytes of `data`.
    public mutating func combine(_ data: Data) {
        data.withUnsafeBytes { combine($0) }
    }

    /// Mixes in raw bytes.
    public mutating func combine(_ buffer: UnsafeRawBufferPointer) {
        guard buffer.count > 0 else { return }
        byteCount &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            let taken = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<taken])
            offset = taken
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { processBlock($0.baseAddress!) }
            pending.removeAll(keepingCapacity: true)
        }
        while buffer.count - offset >= 64 {
            processBlock(buffer.baseAddress! + offset)
            offset += 64
        }
        if offset < buffer.count {
            pending.append(contentsOf: buffer[offset...])
        }
    }

    /// The digest of everything combined: padding and length are added to a copy.
    public func finalize() -> Digest {
        var copy = self
        let bitCount = byteCount &* 8
        var tail: [UInt8] = [0x80]
        let remainder = (pending.count + 1) % 64
        tail.append(contentsOf: repeatElement(0, count: remainder <= 56 ? 56 - remainder : 120 - remainder))
        for shift in stride(from: 0, to: 64, by: 8) { tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift))) }
        let savedCount = copy.byteCount
        tail.withUnsafeBytes { copy.combine($0) }
        copy.byteCount = savedCount
        assert(copy.pending.isEmpty)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in [copy.state.0, copy.state.1, copy.state.2, copy.state.3] {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return Digest(bytes: bytes)
    }

    /// The digest of `data` in one call.
    public static func digest(of data: Data) -> Digest {
        var md5 = MD5()
        md5.combine(data)
        return md5.finalize()
    }

    // MARK: - Rounds

    /// Per-step left rotations, four per round.
    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]

    /// floor(abs(sin(i + 1)) × 2^32), RFC 1321's table T.
    private static let constants: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    private mutating func processBlock(_ block: UnsafeRawPointer) {
        var (a, b, c, d) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { words in
            for index in 0..<16 {
                words[index] = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
            }
            Self.constants.withUnsafeBufferPointer { constants in
                Self.shifts.withUnsafeBufferPointer { shifts in
                    for step in 0..<64 {
                        let mixed: UInt32
                        let wordIndex: Int
                        switch step >> 4 {
                        case 0:
                            mixed = (b & c) | (~b & d)
                            wordIndex = step
                        case 1:
                            mixed = (d & b) | (~d & c)
                            wordIndex = (5 &* step &+ 1) & 15
                        case 2:
                            mixed = b ^ c ^ d
                            wordIndex = (3 &* step &+ 5) & 15
                        default:
                            mixed = c ^ (b | ~d)
                            wordIndex = (7 &* step) & 15
                        }
                        let sum = a &+ mixed &+ constants[step] &+ words[wordIndex]
                        let shift = shifts[(step >> 4) << 2 | step & 3]
                        a = d
                        d = c
                        c = b
                        b = b &+ (sum << shift | sum >> (32 - shift))
                    }
                }
            }
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
