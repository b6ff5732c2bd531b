import CExif
import Foundation

/// Typed access to the entries of a loaded libexif `ExifData`, checking each entry's format.
///
/// Valid only while the `ExifData` it reads is alive.
struct ExifReader {
    let exif: UnsafeMutablePointer<ExifData>

    private var byteOrder: ExifByteOrder { exif_data_get_byte_order(exif) }

    /// The entry for `tag` in its IFD, or `nil`.
    private func entry(_ tag: Tag) -> ExifEntry? {
        let content = withUnsafeBytes(of: exif.pointee.ifd) { ifds in
            ifds.load(
                fromByteOffset: Int(tag.ifd.rawValue) * MemoryLayout<UnsafeMutablePointer<ExifContent>?>.stride,
                as: UnsafeMutablePointer<ExifContent>?.self)
        }
        guard let content, let entry = exif_content_get_entry(content, ExifTag(rawValue: tag.number)),
              entry.pointee.data != nil
        else { return nil }
        return entry.pointee
    }

    /// The entry's bytes: `size` of them, as libexif loaded them.
    private func bytes(of entry: ExifEntry) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: entry.data, count: Int(entry.size))
    }

    /// The format's name, for messages: `RATIONAL`, `SHORT`.
    private func formatName(_ format: ExifFormat) -> String {
        exif_format_get_name(format).map { String(cString: $0).uppercased() } ?? "format \(format.rawValue)"
    }

    /// The rational values of a tag; a value with a zero denominator is `nil`. `nil` when the tag is absent.
    func rationals(_ tag: Tag) throws(ExifMetadata.TagProblem) -> [Double?]? {
        guard let entry = entry(tag) else { return nil }
        let count = Int(entry.components)
        guard entry.format == EXIF_FORMAT_RATIONAL || entry.format == EXIF_FORMAT_SRATIONAL else {
            throw ExifMetadata.TagProblem(tag: tag.name, message: "is \(formatName(entry.format)), expected RATIONAL")
        }
        guard Int(entry.size) >= count * 8 else {
            throw ExifMetadata.TagProblem(tag: tag.name, message: "is shorter than its \(count) components")
        }
        let signed = entry.format == EXIF_FORMAT_SRATIONAL
        return (0..<count).map { index in
            let pointer = entry.data + index * 8
            if signed {
                let value = exif_get_srational(pointer, byteOrder)
                return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
            }
            let value = exif_get_rational(pointer, byteOrder)
            return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
        }
    }

    /// The first value of a BYTE, SHORT or LONG tag, or `nil` when absent.
    func integer(_ tag: Tag) throws(ExifMetadata.TagProblem) -> Int? {
        guard let entry = entry(tag), entry.components > 0 else { return nil }
        switch entry.format {
        case EXIF_FORMAT_BYTE where entry.size >= 1, EXIF_FORMAT_UNDEFINED where entry.size >= 1:
            return Int(entry.data[0])
        case EXIF_FORMAT_SHORT where entry.size >= 2:
            return Int(exif_get_short(entry.data, byteOrder))
        case EXIF_FORMAT_LONG where entry.size >= 4:
            return Int(exif_get_long(entry.data, byteOrder))
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
        guard [EXIF_FORMAT_ASCII, EXIF_FORMAT_UNDEFINED, EXIF_FORMAT_BYTE].contains(entry.format) else {
            throw ExifMetadata.TagProblem(tag: tag.name, message: "is \(formatName(entry.format)), expected ASCII text")
        }
        let raw = Array(bytes(of: entry).prefix { $0 != 0 })
        let text = String(validating: raw, as: UTF8.self)
            ?? String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
        return Photo.nonEmpty(text)
    }

    /// A Windows XP tag (XPTitle) as text: UTF-16LE bytes ending in a zero code unit; `nil` when absent or empty.
    func utf16Text(_ tag: Tag) throws(ExifMetadata.TagProblem) -> String? {
        guard let entry = entry(tag) else { return nil }
        guard entry.format == EXIF_FORMAT_BYTE || entry.format == EXIF_FORMAT_UNDEFINED else {
            throw ExifMetadata.TagProblem(
                tag: tag.name, message: "is \(formatName(entry.format)), expected BYTE (UTF-16LE text)")
        }
        let raw = bytes(of: entry)
        var units: [UInt16] = []
        for index in stride(from: 0, to: raw.count - 1, by: 2) {
            let unit = UInt16(raw[index]) | UInt16(raw[index + 1]) << 8
            if unit == 0 { break }
            units.append(unit)
        }
        return Photo.nonEmpty(String(decoding: units, as: UTF16.self))
    }
}
