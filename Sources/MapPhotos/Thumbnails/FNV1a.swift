/// The 64-bit FNV-1a hash (Fowler, Noll, Vo), the same in every process and on every machine.
///
/// Swift's `Hasher` is seeded anew in each process, so it cannot name files that outlive one.
/// See <http://www.isthe.com/chongo/tech/comp/fnv/>.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Mixes in `bytes`.
    mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
    }

    /// The hash as 16 lowercase hexadecimal digits.
    var hexDigits: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
