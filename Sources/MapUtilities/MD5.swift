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
        for shift in stride(from: 0, to: 64, by: 8) {
            tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
        }
        let savedCount = copy.byteCount
        tail.withUnsafeBytes { copy.combine($0) }
        copy.byteCount = savedCount
        assert(copy.pending.isEmpty)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in [copy.state.0, copy.state.1, copy.state.2, copy.state.3] {
            for shift in stride(from: 0, to: 32, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift)))
            }
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

    /// One step: `a` becomes `b` + (`a` + `mixed` + `constant` + `word`) rotated left by `shift`.
    @inline(__always)
    private static func step(
        _ a: inout UInt32, _ b: UInt32, _ mixed: UInt32, _ constant: UInt32, _ word: UInt32, _ shift: UInt32
    ) {
        let sum = a &+ mixed &+ constant &+ word
        a = b &+ (sum << shift | sum >> (32 &- shift))
    }

    /// RFC 1321's four rounds of sixteen steps over one 64-byte block, written out step by step
    /// (the constants are RFC 1321's table T, floor(abs(sin(i + 1)) × 2^32)).
    private mutating func processBlock(_ block: UnsafeRawPointer) {
        var (a, b, c, d) = state
        func x(_ index: Int) -> UInt32 {
            UInt32(littleEndian: block.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
        }
        Self.step(&a, b, (b & c) | (~b & d), 0xD76A_A478, x(0), 7)
        Self.step(&d, a, (a & b) | (~a & c), 0xE8C7_B756, x(1), 12)
        Self.step(&c, d, (d & a) | (~d & b), 0x2420_70DB, x(2), 17)
        Self.step(&b, c, (c & d) | (~c & a), 0xC1BD_CEEE, x(3), 22)
        Self.step(&a, b, (b & c) | (~b & d), 0xF57C_0FAF, x(4), 7)
        Self.step(&d, a, (a & b) | (~a & c), 0x4787_C62A, x(5), 12)
        Self.step(&c, d, (d & a) | (~d & b), 0xA830_4613, x(6), 17)
        Self.step(&b, c, (c & d) | (~c & a), 0xFD46_9501, x(7), 22)
        Self.step(&a, b, (b & c) | (~b & d), 0x6980_98D8, x(8), 7)
        Self.step(&d, a, (a & b) | (~a & c), 0x8B44_F7AF, x(9), 12)
        Self.step(&c, d, (d & a) | (~d & b), 0xFFFF_5BB1, x(10), 17)
        Self.step(&b, c, (c & d) | (~c & a), 0x895C_D7BE, x(11), 22)
        Self.step(&a, b, (b & c) | (~b & d), 0x6B90_1122, x(12), 7)
        Self.step(&d, a, (a & b) | (~a & c), 0xFD98_7193, x(13), 12)
        Self.step(&c, d, (d & a) | (~d & b), 0xA679_438E, x(14), 17)
        Self.step(&b, c, (c & d) | (~c & a), 0x49B4_0821, x(15), 22)
        Self.step(&a, b, (d & b) | (~d & c), 0xF61E_2562, x(1), 5)
        Self.step(&d, a, (c & a) | (~c & b), 0xC040_B340, x(6), 9)
        Self.step(&c, d, (b & d) | (~b & a), 0x265E_5A51, x(11), 14)
        Self.step(&b, c, (a & c) | (~a & d), 0xE9B6_C7AA, x(0), 20)
        Self.step(&a, b, (d & b) | (~d & c), 0xD62F_105D, x(5), 5)
        Self.step(&d, a, (c & a) | (~c & b), 0x0244_1453, x(10), 9)
        Self.step(&c, d, (b & d) | (~b & a), 0xD8A1_E681, x(15), 14)
        Self.step(&b, c, (a & c) | (~a & d), 0xE7D3_FBC8, x(4), 20)
        Self.step(&a, b, (d & b) | (~d & c), 0x21E1_CDE6, x(9), 5)
        Self.step(&d, a, (c & a) | (~c & b), 0xC337_07D6, x(14), 9)
        Self.step(&c, d, (b & d) | (~b & a), 0xF4D5_0D87, x(3), 14)
        Self.step(&b, c, (a & c) | (~a & d), 0x455A_14ED, x(8), 20)
        Self.step(&a, b, (d & b) | (~d & c), 0xA9E3_E905, x(13), 5)
        Self.step(&d, a, (c & a) | (~c & b), 0xFCEF_A3F8, x(2), 9)
        Self.step(&c, d, (b & d) | (~b & a), 0x676F_02D9, x(7), 14)
        Self.step(&b, c, (a & c) | (~a & d), 0x8D2A_4C8A, x(12), 20)
        Self.step(&a, b, b ^ c ^ d, 0xFFFA_3942, x(5), 4)
        Self.step(&d, a, a ^ b ^ c, 0x8771_F681, x(8), 11)
        Self.step(&c, d, d ^ a ^ b, 0x6D9D_6122, x(11), 16)
        Self.step(&b, c, c ^ d ^ a, 0xFDE5_380C, x(14), 23)
        Self.step(&a, b, b ^ c ^ d, 0xA4BE_EA44, x(1), 4)
        Self.step(&d, a, a ^ b ^ c, 0x4BDE_CFA9, x(4), 11)
        Self.step(&c, d, d ^ a ^ b, 0xF6BB_4B60, x(7), 16)
        Self.step(&b, c, c ^ d ^ a, 0xBEBF_BC70, x(10), 23)
        Self.step(&a, b, b ^ c ^ d, 0x289B_7EC6, x(13), 4)
        Self.step(&d, a, a ^ b ^ c, 0xEAA1_27FA, x(0), 11)
        Self.step(&c, d, d ^ a ^ b, 0xD4EF_3085, x(3), 16)
        Self.step(&b, c, c ^ d ^ a, 0x0488_1D05, x(6), 23)
        Self.step(&a, b, b ^ c ^ d, 0xD9D4_D039, x(9), 4)
        Self.step(&d, a, a ^ b ^ c, 0xE6DB_99E5, x(12), 11)
        Self.step(&c, d, d ^ a ^ b, 0x1FA2_7CF8, x(15), 16)
        Self.step(&b, c, c ^ d ^ a, 0xC4AC_5665, x(2), 23)
        Self.step(&a, b, c ^ (b | ~d), 0xF429_2244, x(0), 6)
        Self.step(&d, a, b ^ (a | ~c), 0x432A_FF97, x(7), 10)
        Self.step(&c, d, a ^ (d | ~b), 0xAB94_23A7, x(14), 15)
        Self.step(&b, c, d ^ (c | ~a), 0xFC93_A039, x(5), 21)
        Self.step(&a, b, c ^ (b | ~d), 0x655B_59C3, x(12), 6)
        Self.step(&d, a, b ^ (a | ~c), 0x8F0C_CC92, x(3), 10)
        Self.step(&c, d, a ^ (d | ~b), 0xFFEF_F47D, x(10), 15)
        Self.step(&b, c, d ^ (c | ~a), 0x8584_5DD1, x(1), 21)
        Self.step(&a, b, c ^ (b | ~d), 0x6FA8_7E4F, x(8), 6)
        Self.step(&d, a, b ^ (a | ~c), 0xFE2C_E6E0, x(15), 10)
        Self.step(&c, d, a ^ (d | ~b), 0xA301_4314, x(6), 15)
        Self.step(&b, c, d ^ (c | ~a), 0x4E08_11A1, x(13), 21)
        Self.step(&a, b, c ^ (b | ~d), 0xF753_7E82, x(4), 6)
        Self.step(&d, a, b ^ (a | ~c), 0xBD3A_F235, x(11), 10)
        Self.step(&c, d, a ^ (d | ~b), 0x2AD7_D2BB, x(2), 15)
        Self.step(&b, c, d ^ (c | ~a), 0xEB86_D391, x(9), 21)
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
