import Foundation

/// Builds PNG files byte by byte, for any colour type, bit depth and interlace method, so that
/// decoding is tested on files written by something other than libpng.
///
/// Image data is stored in uncompressed deflate blocks with filter type 0 on every scanline;
/// checksums (CRC-32 per chunk, Adler-32 for zlib) are computed here.
struct HandmadePNG {
    enum ColorType: UInt8, CaseIterable, Sendable {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6

        var channelCount: Int {
            switch self {
            case .gray, .palette: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    var width: Int
    var height: Int
    var colorType: ColorType
    var bitDepth: Int
    var isInterlaced: Bool
    /// `width * height` pixels, each with `colorType.channelCount` samples in 0..<2^bitDepth.
    var samples: [[Int]]
    /// PLTE entries, for palette images.
    var palette: [(red: UInt8, green: UInt8, blue: UInt8)] = []
    /// The raw tRNS chunk, if any.
    var transparency: [UInt8]?

    func data() -> Data {
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [UInt8(bitDepth), colorType.rawValue, 0, 0, isInterlaced ? 1 : 0])
        file.appendChunk("IHDR", header)
        if !palette.isEmpty {
            file.appendChunk("PLTE", Data(palette.flatMap { [$0.red, $0.green, $0.blue] }))
        }
        if let transparency { file.appendChunk("tRNS", Data(transparency)) }
        file.appendChunk("IDAT", zlibStored(scanlines()))
        file.appendChunk("IEND", Data())
        return file
    }

    /// The filtered (filter 0) scanlines of every pass, in file order.
    private func scanlines() -> [UInt8] {
        // Adam7: (first column, first row, column step, row step) of each pass.
        let passes =
            isInterlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var bytes: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let columns = Array(stride(from: x0, to: width, by: dx))
            guard !columns.isEmpty else { continue }
            for y in stride(from: y0, to: height, by: dy) {
                bytes.append(0)
                var bits = BitWriter()
                for x in columns {
                    for sample in samples[y * width + x] { bits.write(sample, bitCount: bitDepth) }
                }
                bytes += bits.finished()
            }
        }
        return bytes
    }

    private func zlibStored(_ payload: [UInt8]) -> Data {
        var stream = Data([0x78, 0x01])
        var blocks = stride(from: 0, to: payload.count, by: 65_535).map {
            payload[$0..<min($0 + 65_535, payload.count)]
        }
        if blocks.isEmpty { blocks = [[]] }
        for (index, block) in blocks.enumerated() {
            stream.append(index == blocks.count - 1 ? 1 : 0)
            let length = UInt16(block.count)
            stream.append(contentsOf: [
                UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8),
            ])
            stream.append(contentsOf: block)
        }
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in payload {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        stream.appendBigEndian(b << 16 | a)
        return stream
    }
}

/// Packs samples most significant bit first, as PNG scanlines do.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var accumulator = 0
    private var pendingBits = 0

    mutating func write(_ value: Int, bitCount: Int) {
        accumulator = accumulator << bitCount | value
        pendingBits += bitCount
        while pendingBits >= 8 {
            pendingBits -= 8
            bytes.append(UInt8((accumulator >> pendingBits) & 0xFF))
        }
        accumulator &= (1 << pendingBits) - 1
    }

    func finished() -> [UInt8] {
        pendingBits == 0 ? bytes : bytes + [UInt8((accumulator << (8 - pendingBits)) & 0xFF)]
    }
}

extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ])
    }

    mutating func appendChunk(_ type: String, _ payload: Data) {
        appendBigEndian(UInt32(payload.count))
        let typed = Data(type.utf8) + payload
        append(typed)
        appendBigEndian(crc32(typed))
    }
}

/// CRC-32 (ISO 3309, as in PNG and zlib), bit by bit: slow, but obviously right.
func crc32(_ bytes: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
