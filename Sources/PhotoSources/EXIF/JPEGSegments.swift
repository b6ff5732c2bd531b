import Foundation

/// The marker segments at the head of a JPEG file (ITU T.81 Annex B), enough to find the EXIF block.
enum JPEGSegments {
    /// Why the head of a file is not a readable JPEG; each message follows the file's name.
    enum Problem: Error {
        /// It does not start with the SOI marker: some other kind of file.
        case notJPEG(String)
        /// It starts as a JPEG, but a segment is broken or the file ends before its image data.
        case damaged(String)
    }

    /// The EXIF payload of a JPEG, starting with `Exif\0\0` as libexif expects, or `nil` when there is none.
    ///
    /// Walks the segments before the image data; EXIF lives in an APP1 segment (EXIF 2.32 §4.5.4).
    ///
    /// - Throws: ``Problem/notJPEG(_:)`` when the data is not a JPEG, ``Problem/damaged(_:)``
    ///   when a segment is broken or runs past the end.
    static func exifPayload(in data: Data) throws(Problem) -> Data? {
        let bytes = [UInt8](data.prefix(2))
        guard bytes == [0xFF, 0xD8] else {
            throw .notJPEG("is not a JPEG: it does not start with the FF D8 marker")
        }
        var offset = data.startIndex + 2
        while offset + 4 <= data.endIndex {
            guard data[offset] == 0xFF else { throw .damaged("has a broken segment at byte \(offset)") }
            let marker = data[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }  // fill byte
            if marker == 0xD9 || marker == 0xDA { return nil }  // end of image, start of scan: no EXIF before the data
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }  // markers without a length
            let length = Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            let start = offset + 4
            let end = offset + 2 + length
            guard length >= 2, end <= data.endIndex else {
                throw .damaged("is cut short: a segment at byte \(offset) runs past the end of the file")
            }
            let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
            if marker == 0xE1, data[start..<end].starts(with: exifHeader) { return data[start..<end] }
            offset = end
        }
        throw .damaged("is cut short before its image data")
    }
}
