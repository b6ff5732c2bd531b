/// The 64-bit FNV-1a hash (Fowler, Noll, Vo), the same in every process and on every machine.
///
/// Swift's `Hasher` is seeded anew in each process, so it cannot name files that outlive one or
/// pick a colour that must stay the same from run to run. See <http://www.isthe.com/chongo/tech/comp/fnv/>.
///
/// For example:
///
/// ```swift
/// var hash = FNV1a()
/// hash.combine("Ansel Adams".utf8)
/// let name = hash.hexDigits   // 16 lowercase hexadecimal digits
/// ```
public struct FNV1a: Hashable, Sendable {
    /// The hash of everything combined so far; the FNV offset basis before anything is.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A hash of nothing yet.
    public init() {}

    /// The hash of `bytes`.
    public init(_ bytes: some Sequence<UInt8>) {
        combine(bytes)
    }

    /// Mixes in `bytes`.
    public mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }

    /// The hash as 16 lowercase hexadecimal digits, zero-padded.
    public var hexDigits: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
