/// An EXIF block written byte by byte (EXIF 2.32 §4.6: a TIFF header and IFDs), so tests can
/// make any tag, in either byte order, malformed ones included, without trusting the reader under test.
struct ExifFixture {
    /// A tag's value with its TIFF type.
    enum Value {
        case ascii(String)
        case bytes([UInt8])
        case short(UInt16)
        case long(UInt32)
        case rationals([(numerator: UInt32, denominator: UInt32)])
    }

    /// Motorola (`MM`) order instead of Intel (`II`).
    var bigEndian = false
    /// IFD0: ImageDescription, Orientation, Artist, XPTitle.
    var ifd0: [UInt16: Value] = [:]
    /// The Exif IFD: DateTimeOriginal, OffsetTimeOriginal.
    var exif: [UInt16: Value] = [:]
    /// The GPS IFD.
    var gps: [UInt16: Value] = [:]

    /// A fixture with a GPS position; negative degrees are written as S or W with positive rationals.
    static func located(latitude: Double, longitude: Double) -> ExifFixture {
        var fixture = ExifFixture()
        fixture.gps[0x0001] = .ascii(latitude < 0 ? "S" : "N")
        fixture.gps[0x0002] = .rationals(degreesMinutesSeconds(abs(latitude)))
        fixture.gps[0x0003] = .ascii(longitude < 0 ? "W" : "E")
        fixture.gps[0x0004] = .rationals(degreesMinutesSeconds(abs(longitude)))
        return fixture
    }

    /// Degrees as three rationals, the seconds in thousandths.
    static func degreesMinutesSeconds(_ degrees: Double) -> [(numerator: UInt32, denominator: UInt32)] {
        let whole = degrees.rounded(.down)
        let minutes = ((degrees - whole) * 60).rounded(.down)
        let seconds = ((degrees - whole) * 60 - minutes) * 60
        return [(UInt32(whole), 1), (UInt32(minutes), 1), (UInt32((seconds * 1000).rounded()), 1000)]
    }

    /// XPTitle's encoding: UTF-16LE with a terminating zero unit.
    static func utf16LE(_ text: String) -> Value {
        .bytes(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0, 0])
    }

    /// The TIFF structure that follows `Exif\0\0` in the APP1 segment.
    func tiff() -> [UInt8] {
        var ifd0 = self.ifd0
        // IFD0 is written first at offset 8, then the Exif IFD, then the GPS IFD.
        let ifd0Size = Self.size(of: ifd0.count + (exif.isEmpty ? 0 : 1) + (gps.isEmpty ? 0 : 1), values: ifd0)
        let exifOffset = 8 + ifd0Size
        let gpsOffset = exifOffset + (exif.isEmpty ? 0 : Self.size(of: exif.count, values: exif))
        if !exif.isEmpty { ifd0[0x8769] = .long(UInt32(exifOffset)) }
        if !gps.isEmpty { ifd0[0x8825] = .long(UInt32(gpsOffset)) }
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        bytes += uint16(42) + uint32(8)
        bytes += ifd(ifd0, at: 8)
        if !exif.isEmpty { bytes += ifd(exif, at: exifOffset) }
        if !gps.isEmpty { bytes += ifd(gps, at: gpsOffset) }
        return bytes
    }

    /// The size of an IFD of `count` entries with the out-of-line data of `values`.
    private static func size(of count: Int, values: [UInt16: Value]) -> Int {
        2 + 12 * count + 4 + values.values.map { encodedLength($0) > 4 ? padded(encodedLength($0)) : 0 }.reduce(0, +)
    }

    private static func padded(_ length: Int) -> Int { length + length % 2 }

    private static func encodedLength(_ value: Value) -> Int {
        switch value {
        case .ascii(let text): return text.utf8.count + 1
        case .bytes(let bytes): return bytes.count
        case .short: return 2
        case .long: return 4
        case .rationals(let values): return values.count * 8
        }
    }

    private func ifd(_ entries: [UInt16: Value], at offset: Int) -> [UInt8] {
        var table = uint16(UInt16(entries.count))
        var data: [UInt8] = []
        let dataOffset = offset + 2 + 12 * entries.count + 4
        for (tag, value) in entries.sorted(by: { $0.key < $1.key }) {
            let (type, count, payload) = encoded(value)
            table += uint16(tag) + uint16(type) + uint32(UInt32(count))
            if payload.count <= 4 {
                table += payload + [UInt8](repeating: 0, count: 4 - payload.count)
            } else {
                table += uint32(UInt32(dataOffset + data.count))
                data += payload + (payload.count % 2 == 1 ? [0] : [])
            }
        }
        return table + uint32(0) + data
    }

    private func encoded(_ value: Value) -> (type: UInt16, count: Int, payload: [UInt8]) {
        switch value {
        case .ascii(let text): return (2, text.utf8.count + 1, Array(text.utf8) + [0])
        case .bytes(let bytes): return (1, bytes.count, bytes)
        case .short(let number): return (3, 1, uint16(number))
        case .long(let number): return (4, 1, uint32(number))
        case .rationals(let values):
            return (5, values.count, values.flatMap { uint32($0.numerator) + uint32($0.denominator) })
        }
    }

    private func uint16(_ value: UInt16) -> [UInt8] {
        let bytes = [UInt8(value & 0xFF), UInt8(value >> 8)]
        return bigEndian ? bytes.reversed() : bytes
    }

    private func uint32(_ value: UInt32) -> [UInt8] {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        return bigEndian ? bytes.reversed() : bytes
    }
}
