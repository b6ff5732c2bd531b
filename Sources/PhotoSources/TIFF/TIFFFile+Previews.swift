import Foundation

extension TIFFFile {
    /// A JPEG image embedded in a raw file: where its bytes are and its size in pixels.
    struct EmbeddedJPEG: Equatable {
        var offset: Int
        var length: Int
        var width: Int
        var height: Int
    }

    /// The JPEG previews a raw file carries, as cameras write them: an IFD's JPEGInterchangeFormat
    /// and its length (0x0201/0x0202: a NEF's and an ARW's previews, every IFD1 thumbnail), or an
    /// IFD of one strip compressed as JPEG (Compression 6 or 7: a CR2's IFD0, a DNG's preview IFD).
    ///
    /// Only JPEGs libjpeg-turbo decodes are kept: whole within the file, starting with SOI, their
    /// frame baseline, extended or progressive (SOF0-SOF2). The lossless JPEG that holds the raw
    /// sensor data of a CR2 or DNG (SOF3) is passed over.
    func embeddedJPEGs() throws(Problem) -> [EmbeddedJPEG] {
        var found: [EmbeddedJPEG] = []
        for directory in try imageDirectories() {
            var candidates: [(offset: Int, length: Int)] = []
            if let start = directory.entries[0x0201].flatMap({ integers(of: $0).first }),
                let length = directory.entries[0x0202].flatMap({ integers(of: $0).first })
            {
                candidates.append((start, length))
            }
            let compression = directory.entries[0x0103].flatMap { integers(of: $0).first }
            if compression == 6 || compression == 7,
                let offsets = directory.entries[0x0111].map(integers(of:)), offsets.count == 1,
                let lengths = directory.entries[0x0117].map(integers(of:)), lengths.count == 1
            {
                candidates.append((offsets[0], lengths[0]))
            }
            for (offset, length) in candidates where contains(offset: offset, count: length) {
                guard
                    let size = Self.jpegFrameSize(
                        data[(data.startIndex + offset)..<(data.startIndex + offset + length)]),
                    !found.contains(where: { $0.offset == offset })
                else { continue }
                found.append(EmbeddedJPEG(offset: offset, length: length, width: size.width, height: size.height))
            }
        }
        return found
    }

    /// The preview to make a thumbnail of `side` pixels from: the smallest whose shorter side is at
    /// least `side`, else the largest; `nil` when the file holds none.
    func preview(forSide side: Int) throws(Problem) -> EmbeddedJPEG? {
        let previews = try embeddedJPEGs().sorted { $0.width * $0.height < $1.width * $1.height }
        return previews.first { min($0.width, $0.height) >= side } ?? previews.last
    }

    /// The width and height in a JPEG's frame header, when the JPEG starts with SOI and its frame
    /// is one libjpeg-turbo decodes (SOF0, SOF1 or SOF2); `nil` otherwise.
    static func jpegFrameSize(_ jpeg: Data) -> (width: Int, height: Int)? {
        var offset = jpeg.startIndex
        guard jpeg.count >= 4, jpeg[offset] == 0xFF, jpeg[offset + 1] == 0xD8 else { return nil }
        offset += 2
        while offset + 4 <= jpeg.endIndex {
            guard jpeg[offset] == 0xFF else { return nil }
            let marker = jpeg[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                offset += 2
                continue
            }
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                guard length >= 7, offset + 9 <= jpeg.endIndex else { return nil }
                let height = Int(jpeg[offset + 5]) << 8 | Int(jpeg[offset + 6])
                let width = Int(jpeg[offset + 7]) << 8 | Int(jpeg[offset + 8])
                return width > 0 && height > 0 ? (width, height) : nil
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xD9, 0xDA:
                return nil  // lossless, hierarchical or arithmetic coding, or no frame before the data
            default:
                guard length >= 2 else { return nil }
                offset += 2 + length
            }
        }
        return nil
    }
}
