import Foundation
import MapTestSupport
import MapUtilities
import Testing

struct MD5Tests {
    /// RFC 1321's test suite (appendix A.5).
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func matchesRFC1321(input: String, expected: String) {
        #expect(MD5(input.utf8).finalize().hexDigits == expected)
        #expect(MD5.digest(of: Data(input.utf8)).uppercaseHexDigits == expected.uppercased())
    }

    @Test func combiningInPiecesOfEveryLengthEqualsHashingTheWhole() {
        // Lengths around the 56- and 64-byte edges of padding and blocks.
        var generator = SeededGenerator(seed: 10)
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1_000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let whole = MD5(bytes).finalize()
            for cut in Set([0, length / 3, length / 2, max(0, length - 1), length]) {
                var pieces = MD5()
                pieces.combine(bytes[..<cut])
                pieces.combine(Data(bytes[cut...]))
                #expect(pieces.finalize() == whole, "length \(length), cut at \(cut)")
            }
        }
    }

    @Test func finalizingDoesNotEndTheDigest() {
        var digest = MD5("abc".utf8)
        #expect(digest.finalize().hexDigits == "900150983cd24fb0d6963f7d28e17f72")
        digest.combine("defghijklmnopqrstuvwxyz".utf8)
        #expect(digest.finalize().hexDigits == "c3fcd3d76192e4007dfb496cca67e13b")
    }
}
