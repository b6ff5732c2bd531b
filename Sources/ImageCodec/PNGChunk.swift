import Foundation
import MapUtilities

/// One chunk of a PNG file (PNG specification, section 5.3): a four-letter type and its data.
///
/// ``AnimatedPNGWriter`` takes the chunks of frames libpng encoded apart and writes them again,
/// renamed and numbered, into one animated PNG.
struct PNGChunk: Hashable, Sendable {
    /// The eight bytes every PNG file starts with.
    static let signature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    /// The chunk type, four ASCII letters such as `IHDR` or `IDAT`.
    var type: String
    /// The chunk's data, without its length, type or CRC.
    var data: Data

    /// Splits a whole PNG file into its chunks, in file order, up to and including `IEND`.
    ///
    /// CRCs are not checked: the bytes come from libpng in this process.
    ///
    /// - Throws: ``ImageCodecError/unreadablePNG(path:reason:)`` (with a nil path) when the bytes
    ///   do not start with the PNG signature or a chunk runs past their end.
    static func chunks(in png: Data) throws(ImageCodecError) -> [PNGChunk] {
        guard png.starts(with: signature) else {
            throw .unreadablePNG(path: nil, reason: "the bytes do not start with the PNG signature")
        }
        var chunks: [PNGChunk] = []
        var offset = png.startIndex + signature.count
        while offset < png.endIndex {
            guard png.endIndex - offset >= 12 else {
                throw .unreadablePNG(
                    path: nil, reason: "a chunk header is cut short at byte \(offset - png.startIndex)")
            }
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let dataStart = offset + 8
            guard png.endIndex - dataStart >= length + 4 else {
                throw .unreadablePNG(path: nil, reason: "a chunk of \(length) bytes runs past the end of the data")
            }
            let type = String(decoding: png[offset + 4..<dataStart], as: UTF8.self)
            chunks.append(PNGChunk(type: type, data: Data(png[dataStart..<dataStart + length])))
            offset = dataStart + length + 4
            if type == "IEND" { break }
        }
        return chunks
    }
}

extension Data {
    /// Appends `value` as four bytes, most significant first, as PNG stores integers.
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ])
    }

    /// Appends `value` as two bytes, most significant first.
    mutating func appendBigEndian(_ value: UInt16) {
        append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)])
    }

    /// Appends a whole chunk: the data's length, the type, the data, and the CRC-32 of type and data.
    mutating func appendChunk(_ chunk: PNGChunk) {
        precondition(chunk.data.count <= Int(Int32.max), "a PNG chunk holds at most 2^31 - 1 bytes")
        var typeAndData = Data(chunk.type.utf8)
        precondition(typeAndData.count == 4, "a PNG chunk type has four letters")
        typeAndData.append(chunk.data)
        appendBigEndian(UInt32(chunk.data.count))
        append(typeAndData)
        appendBigEndian(typeAndData.withUnsafeBytes { Gzip.crc32(of: $0) })
    }
}
