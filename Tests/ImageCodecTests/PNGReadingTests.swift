import Foundation
import ImageCodec
import MapTestSupport
import Testing

/// A colour type, bit depth and interlace combination to decode.
struct PNGFormat: Sendable, CustomTestStringConvertible {
    var colorType: HandmadePNG.ColorType
    var bitDepth: Int
    var isInterlaced: Bool
    var hasTransparency: Bool

    var testDescription: String {
        "\(colorType) \(bitDepth)-bit\(isInterlaced ? " Adam7" : "")\(hasTransparency ? " tRNS" : "")"
    }

    /// Every combination the PNG specification allows, interlaced or not, with a tRNS chunk where
    /// the colour type can have one.
    static let all: [PNGFormat] = {
        let depths: [(HandmadePNG.ColorType, [Int])] = [
            (.gray, [1, 2, 4, 8, 16]), (.rgb, [8, 16]), (.palette, [1, 2, 4, 8]),
            (.grayAlpha, [8, 16]), (.rgba, [8, 16]),
        ]
        return depths.flatMap { colorType, bitDepths in
            bitDepths.flatMap { bitDepth in
                [false, true].flatMap { interlaced in
                    let transparencies = [.gray, .rgb, .palette].contains(colorType) ? [false, true] : [false]
                    return transparencies.map {
                        PNGFormat(
                            colorType: colorType, bitDepth: bitDepth, isInterlaced: interlaced, hasTransparency: $0)
                    }
                }
            }
        }
    }()
}

struct PNGReadingTests {
    /// 11 x 9 pixels: odd sizes leave partial bytes at low bit depths and uneven Adam7 passes.
    private let width = 11
    private let height = 9

    @Test(arguments: PNGFormat.all)
    func decodesEveryColourTypeBitDepthAndInterlaceIntoRGBA8(format: PNGFormat) throws {
        let (png, expected) = makeFixture(format)
        let image = try RGBAImage(pngData: png.data())
        #expect(image.size == ImageSize(width: width, height: height))
        #expect(image.pixels == expected.pixels)
    }

    @Test func readsAFileAndNamesItInErrors() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("fixture.png")
        let (png, expected) = makeFixture(
            PNGFormat(colorType: .rgba, bitDepth: 8, isInterlaced: false, hasTransparency: false))
        try png.data().write(to: url)
        #expect(try RGBAImage(contentsOf: url) == expected)

        let missing = directory.appendingPathComponent("missing.png")
        #expect(throws: ImageCodecError.unreadablePNG(path: missing.path, reason: "there is no such file")) {
            try RGBAImage(contentsOf: missing)
        }
    }

    @Test func writtenPNGReadsBackIdentically() throws {
        let (_, image) = makeFixture(
            PNGFormat(colorType: .rgba, bitDepth: 8, isInterlaced: false, hasTransparency: false))
        for level in [0, 6, 9] {
            #expect(try RGBAImage(pngData: image.pngData(compressionLevel: level)) == image)
        }
        let stored = try image.pngData(compressionLevel: 0)
        let smallest = try image.pngData(compressionLevel: 9)
        #expect(smallest.count < stored.count)
    }

    @Test func writePNGReplacesTheFileAndLeavesNoTemporaryFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("out.png")
        try RGBAImage(width: 3, height: 2, filledWith: .black).writePNG(to: url)
        let white = RGBAImage(width: 4, height: 4, filledWith: .white)
        try white.writePNG(to: url)
        #expect(try RGBAImage(contentsOf: url) == white)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.png"])
    }

    @Test func writingIntoAMissingDirectoryIsATypedError() throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/out.png")
        do {
            try RGBAImage(width: 1, height: 1).writePNG(to: url)
            Issue.record("writing into a missing directory succeeded")
        } catch {
            guard case .unwritableFile = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect("\(error)".hasPrefix(url.path))
            #expect("\(error)".contains("does not exist"))
        }
    }

    // MARK: - Corrupt input

    @Test(arguments: CorruptionCase.allCases)
    func corruptOrTruncatedDataIsATypedErrorNotACrash(corruption: CorruptionCase) throws {
        let (png, _) = makeFixture(PNGFormat(colorType: .rgb, bitDepth: 8, isInterlaced: false, hasTransparency: false))
        let data = corruption.apply(to: png.data())
        do {
            _ = try RGBAImage(pngData: data)
            Issue.record("decoded a PNG with \(corruption)")
        } catch {
            guard case .unreadablePNG(nil, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(!reason.isEmpty)
        }
    }

    @Test func truncatedFileErrorNamesTheFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("cut.png")
        try RGBAImage(width: 64, height: 64, filledWith: .white).pngData().prefix(40).write(to: url)
        do {
            _ = try RGBAImage(contentsOf: url)
            Issue.record("decoded a truncated file")
        } catch {
            #expect("\(error)".hasPrefix("\(url.path): not a readable PNG: "))
            #expect(error.localizedDescription == "\(error)")
        }
    }

    // MARK: - Fixtures

    /// Ways of damaging a valid PNG.
    enum CorruptionCase: String, CaseIterable, Sendable {
        case empty, notAPNG, badSignature, headerChecksum, truncatedInHeader, truncatedInImageData
        case missingEnd, garbledImageData

        func apply(to data: Data) -> Data {
            switch self {
            case .empty: return Data()
            case .notAPNG: return Data("GIF89a, not a PNG at all".utf8)
            case .badSignature: return Data([0x89, 0x50, 0x4E, 0x48]) + data.dropFirst(4)
            case .headerChecksum:
                var damaged = data
                damaged[29] ^= 0xFF  // last byte of IHDR's CRC
                return damaged
            case .truncatedInHeader: return data.prefix(20)
            case .truncatedInImageData: return data.prefix(data.count / 2)
            case .missingEnd: return data.dropLast(12)
            case .garbledImageData:
                // Replace the zlib stream's contents (after IDAT's length, type and zlib header).
                var damaged = data
                let idat = damaged.range(of: Data("IDAT".utf8))!.upperBound
                for index in (idat + 2)..<(idat + 40) { damaged[index] = 0xFF }
                let length =
                    Int(damaged[idat - 8]) << 24 | Int(damaged[idat - 7]) << 16
                    | Int(damaged[idat - 6]) << 8 | Int(damaged[idat - 5])
                let crc = crc32(damaged[(idat - 4)..<(idat + length)])
                damaged.replaceSubrange(
                    (idat + length)..<(idat + length + 4),
                    with: [
                        UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF),
                    ])
                return damaged
            }
        }
    }

    /// A handmade PNG of `format` with varied samples, and the RGBA8 image it must decode to.
    private func makeFixture(_ format: PNGFormat) -> (HandmadePNG, RGBAImage) {
        let depth = format.bitDepth
        let maximum = (1 << depth) - 1
        let paletteSize = min(1 << depth, 6)
        let palette: [(red: UInt8, green: UInt8, blue: UInt8)] = (0..<paletteSize).map { (index: Int) in
            let red = UInt8(40 * index)
            let green = UInt8(255 - 30 * index)
            let blue = UInt8(17 * index + 3)
            return (red, green, blue)
        }
        let samples: [[Int]] = (0..<(width * height)).map { index in
            if format.colorType == .palette { return [index % paletteSize] }
            return (0..<format.colorType.channelCount).map { channel in
                (index * 7919 + channel * 104_729 + 13) % (maximum + 1)
            }
        }
        var png = HandmadePNG(
            width: width, height: height, colorType: format.colorType, bitDepth: depth,
            isInterlaced: format.isInterlaced, samples: samples
        )
        if format.colorType == .palette { png.palette = palette }

        // tRNS: palette entries get alphas 0, 100, 200; gray and RGB name the first pixel's value.
        let paletteAlphas: [UInt8] = [0, 100, 200]
        if format.hasTransparency {
            switch format.colorType {
            case .palette:
                png.transparency = Array(paletteAlphas.prefix(paletteSize))
            case .gray, .rgb:
                png.transparency = samples[0].flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case .grayAlpha, .rgba:
                break
            }
        }

        func scaled(_ sample: Int) -> UInt8 {
            switch depth {
            case 16: UInt8((sample * 255 + 32_895) >> 16)
            default: UInt8(sample * 255 / maximum)
            }
        }
        var expected = RGBAImage(width: width, height: height)
        for (index, pixelSamples) in samples.enumerated() {
            let isKeyed = format.hasTransparency && pixelSamples == samples[0]
            let pixel: RGBAPixel
            switch format.colorType {
            case .gray:
                let value = scaled(pixelSamples[0])
                pixel = RGBAPixel(red: value, green: value, blue: value, alpha: isKeyed ? 0 : 255)
            case .rgb:
                pixel = RGBAPixel(
                    red: scaled(pixelSamples[0]), green: scaled(pixelSamples[1]), blue: scaled(pixelSamples[2]),
                    alpha: isKeyed ? 0 : 255
                )
            case .palette:
                let entry = palette[pixelSamples[0]]
                let alpha =
                    format.hasTransparency && pixelSamples[0] < paletteAlphas.count
                    ? paletteAlphas[pixelSamples[0]] : 255
                pixel = RGBAPixel(red: entry.red, green: entry.green, blue: entry.blue, alpha: alpha)
            case .grayAlpha:
                let value = scaled(pixelSamples[0])
                pixel = RGBAPixel(red: value, green: value, blue: value, alpha: scaled(pixelSamples[1]))
            case .rgba:
                pixel = RGBAPixel(
                    red: scaled(pixelSamples[0]), green: scaled(pixelSamples[1]), blue: scaled(pixelSamples[2]),
                    alpha: scaled(pixelSamples[3])
                )
            }
            expected[x: index % width, y: index / width] = pixel
        }
        return (png, expected)
    }
}
