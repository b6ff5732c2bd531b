import Foundation
import MapUtilities
import Testing

struct GzipTests {
    private let text = Array(String(repeating: "ocean ", count: 1000).utf8)

    @Test func compressedBytesAreGzipSmallerAndTheSameEveryTime() {
        let compressed = Gzip.compress(text)
        #expect(Gzip.isGzip(compressed))
        #expect(!Gzip.isZlib(compressed))
        #expect(compressed.count < text.count / 10)
        #expect(Gzip.compress(text) == compressed, "the same bytes every time")
    }

    @Test func decompressingGivesTheBytesBack() throws {
        #expect(try Gzip.decompress(Gzip.compress(text)) == text)
        #expect(try Gzip.decompress(Gzip.compress([])) == [])
    }

    /// Python's `zlib.compress(b"ocean " * 3)`: a zlib header (78 9C), deflate, Adler-32.
    @Test func zlibStreamsAreRecognizedAndDecompressed() throws {
        let zlib: [UInt8] = [
            0x78, 0x9C, 0xCB, 0x4F, 0x4E, 0x4D, 0xCC, 0x53, 0xC8, 0x47, 0x22, 0x01, 0x3F, 0x72, 0x06, 0x73,
        ]
        #expect(Gzip.isZlib(zlib))
        #expect(!Gzip.isGzip(zlib))
        #expect(try Gzip.decompress(zlib) == Array("ocean ocean ocean ".utf8))
        #expect(!Gzip.isZlib([0x78, 0x00]), "78 00 is not a multiple of 31")
        #expect(!Gzip.isZlib([0x78]))
    }

    @Test func damagedOrOversizedStreamsAreRefusedWithAReason() {
        let compressed = Gzip.compress(text)
        #expect(throws: MapUtilitiesError.invalidGzip(reason: "its gzip stream is cut short")) {
            try Gzip.decompress(Array(compressed.dropLast(10)))
        }
        #expect(throws: MapUtilitiesError.self) { try Gzip.decompress(Array("not gzip".utf8)) }
        #expect(throws: MapUtilitiesError.invalidGzip(reason: "it decompresses to more than 1000 bytes")) {
            try Gzip.decompress(compressed, limitBytes: 1000)
        }
        #expect(
            MapUtilitiesError.invalidGzip(reason: "its gzip stream is cut short").description
                == "cannot decompress the data: its gzip stream is cut short")
    }

    @Test func crc32MatchesTheCheckValue() {
        // The CRC-32 check value of "123456789" (ISO-HDLC / zlib's CRC).
        let crc = Array("123456789".utf8).withUnsafeBytes { Gzip.crc32(of: $0) }
        #expect(crc == 0xCBF4_3926)
        #expect([UInt8]().withUnsafeBytes { Gzip.crc32(of: $0) } == 0)
    }
}
