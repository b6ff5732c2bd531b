import MapUtilities
import Testing

struct FNV1aTests {
    /// The 64-bit FNV-1a test vectors published with the algorithm
    /// (<http://www.isthe.com/chongo/tech/comp/fnv/>, "FNV test vectors").
    @Test(arguments: [
        ("", "cbf29ce484222325"),
        ("a", "af63dc4c8601ec8c"),
        ("foobar", "85944171f73967e8"),
    ])
    func matchesThePublishedVectors(input: String, expected: String) {
        #expect(FNV1a(input.utf8).hexDigits == expected)
    }

    @Test func combiningInPiecesEqualsHashingTheWhole() {
        var hash = FNV1a()
        hash.combine("foo".utf8)
        hash.combine("bar".utf8)
        #expect(hash == FNV1a("foobar".utf8))
    }

    @Test func hexDigitsAreZeroPaddedToSixteen() {
        // Any value below 2^60 needs padding; check the length over many inputs.
        for index in 0..<1_000 {
            #expect(FNV1a(String(index).utf8).hexDigits.count == 16)
        }
    }
}
