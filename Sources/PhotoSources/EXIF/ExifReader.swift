import CExif
import Foundation

/// One EXIF/TIFF entry as it was written: its format (TIFF 6.0's type numbers, which libexif's
/// `ExifFormat` shares: 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED, 10 SRATIONAL),
/// its component count, its value's bytes and their byte order.
struct ExifEntryBytes {
    var format: UInt16
    var components: Int
    var bytes: [UInt8]
    var bigEndian: Bool

    /// The unsigned integer of `width` bytes at `offset`; the caller checks the bounds.
    func unsigned(at offset: Int, width: Int) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { value, index in
            let byte = UInt64(bytes[offset + (bigEndian ? index : width - 1 - index)])
            return value << 8 | byte
        }
    }
}

/// Typed reading of the tags this module uses, checking each entry's format, over any source of
/// entries: libexif's ``ExifReader`` (JPEG and HEIF Exif blocks) or ``TIFFTagReader`` (raw files).
protocol ExifTagReading {
    /// The entry for `tag` in its IFD, or `nil`.
    func entry(_ tag: Tag) -> ExifEntryBytes?
}

extension ExifTagReading {
    /// The format's name, for messages: `RATIONAL`, `SHORT`.
    private func formatName(_ format: UInt16) -> String {
        exif_format_get_name(ExifFormat(rawValue: UInt32(format))).map { String(cString: $0).uppercased() }
            ?? "format \(format)"
    }

    /// The rational values of a tag; a value with a zero denominator is `nil`. `nil` when the tag is absent.
    func rationals(_ tag: Tag) throws(ExifMetadata.TagProblem) -> [Double?]? {
        guard let entry = entry(tag) else { return nil }
        let count = entry.components
        let rational = UInt16(EXIF_FORMAT_RATIONAL.rawValue)
        let signed = UInt16(EXIF_FORMAT_SRATIONAL.rawValue)
        guard entry.format == rational || entry.format == signed else {
            throw ExifMetadata.TagProblem(tag: tag.name, message: "is \(formatName(entry.format)), expected RATIONAL")
        }
        guard entry.bytes.count >= count * 8 else {
            throw ExifMetadata.TagProblem(tag: tag.name, message: "is shorter than its \(count) components")
        }
        return (0..<count).map { index in
            let numerator = entry.unsigned(at: index * 8, width: 4)
            let denominator = entry.unsigned(at: index * 8 + 4, width: 4)
            guard denominator != 0 else { return nil }
            if entry.format == signed {
                return Double(Int32(truncatingIfNeeded: numerator)) / Double(Int32(truncatingIfNeeded: denominator))
            }
            return Double(numerator) / Double(denominator)
        }
    }

    /// The first value of a BYTE, SHORT or LONG tag, or `nil` when absent.
    func integer(_ tag: Tag) throws(ExifMetadata.TagProblem) -> Int? {
        guard let entry = entry(tag), entry.components > 0 else { return nil }
        switch UInt32(entry.format) {
        case EXIF_FORMAT_BYTE.rawValue where entry.bytes.count >= 1,
            EXIF_FORMAT_UNDEFINED.rawValue where entry.bytes.count >= 1:
            return Int(entry.bytes[0])
        case EXIF_FORMAT_SHORT.rawValue where entry.bytes.count >= 2:
            return Int(entry.unsigned(at: 0, width: 2))
        case EXIF_FORMAT_LONG.rawValue where entry.bytes.count >= 4:
            return Int(entry.unsigned(at: 0, width: 4))
        default:
            throw ExifMetadata.TagProblem(
                tag: tag.name, message: "is \(formatName(entry.format)), expected an integer (BYTE, SHORT or LONG)")
        }
    }

    /// An ASCII tag as text, trimmed; `nil` when absent or empty.
    ///
    /// The standard says ASCII, but software writes UTF-8 (photographers title photos in every
    /// script); bytes that are not UTF-8 are read as ISO 8859-1, which never fails.
    func text(_ tag: Tag) throws(ExifMetadata.TagProblem) -> String? {
        guard let entry = entry(tag) else { return nil }
        let formats = [EXIF_FORMAT_ASCII, EXIF_FORMAT_UNDEFINED, EXIF_FORMAT_BYTE].map { UInt16($0.rawValue) }
        guard formats.contains(entry.format) else {
            throw ExifMetadata.TagProblem(tag: tag.name, message: "is \(formatName(entry.format)), expected ASCII text")
        }
        let raw = Array(entry.bytes.prefix { $0 != 0 })
        let text =
            String(validating: raw, as: UTF8.self)
            ?? String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
        return Photo.nonEmpty(text)
    }

    /// A Windows XP tag (XPTitle) as text: UTF-16LE bytes ending in a zero code unit; `nil` when absent or empty.
    func utf16Text(_ tag: Tag) throws(ExifMetadata.TagProblem) -> String? {
        guard let entry = entry(tag) else { return nil }
        guard [EXIF_FORMAT_BYTE, EXIF_FORMAT_UNDEFINED].map({ UInt16($0.rawValue) }).contains(entry.format) else {
            throw ExifMetadata.TagProblem(
                tag: tag.name, message: "is \(formatName(entry.format)), expected BYTE (UTF-16LE text)")
        }
        let raw = entry.bytes
        var units: [UInt16] = []
        for index in stride(from: 0, to: raw.count - 1, by: 2) {
            let unit = UInt16(raw[index]) | UInt16(raw[index + 1]) << 8
            if unit == 0 { break }
            units.append(unit)
        }
        return Photo.nonEmpty(String(decoding: units, as: UTF16.self))
    }
}

/// The entries of a loaded libexif `ExifData`.
///
/// Valid only while the `ExifData` it reads is alive.
struct ExifReader: ExifTagReading {
    let exif: UnsafeMutablePointer<ExifData>

    func entry(_ tag: Tag) -> ExifEntryBytes? {
        let content = withUnsafeBytes(of: exif.pointee.ifd) { ifds in
            ifds.load(
                fromByteOffset: Int(tag.ifd.rawValue) * MemoryLayout<UnsafeMutablePointer<ExifContent>?>.stride,
                as: UnsafeMutablePointer<ExifContent>?.self)
        }
        guard let content, let entry = exif_content_get_entry(content, ExifTag(rawValue: tag.number)),
            let data = entry.pointee.data
        else { return nil }
        return ExifEntryBytes(
            format: UInt16(truncatingIfNeeded: entry.pointee.format.rawValue),
            components: Int(entry.pointee.components),
            bytes: Array(UnsafeBufferPointer(start: data, count: Int(entry.pointee.size))),
            bigEndian: exif_data_get_byte_order(exif) == EXIF_BYTE_ORDER_MOTOROLA)
    }
}
