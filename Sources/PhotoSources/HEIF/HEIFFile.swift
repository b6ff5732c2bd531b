import CHeif
import Foundation
import MapUtilities

/// A HEIF file (ISO/IEC 23008-12; HEIC as iPhones save it) read with libheif: the primary
/// image's Exif block and its pixels.
///
/// Each call opens its own libheif context over the bytes, so calls may run on several threads
/// at once; each brackets its work in `heif_init`/`heif_deinit`, which libheif counts, so no
/// state is left behind.
enum HEIFFile {
    /// Why bytes are not a readable HEIF file; each message follows the file's name.
    enum Problem: Error {
        /// The bytes are not a HEIF file at all.
        case notHEIF(String)
        /// libheif could not read or decode it: `reason` is libheif's message.
        case damaged(String)
    }

    /// Whether `data` starts like an ISO base media file with a HEIF brand (`ftyp` box with
    /// `heic`, `heix`, `mif1`, `msf1`, …), by libheif's own check.
    static func looksLikeHEIF(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(64))
        guard head.count >= 12, head[4...7].elementsEqual("ftyp".utf8) else { return false }
        return head.withUnsafeBufferPointer { heif_check_filetype($0.baseAddress, Int32($0.count)) }
            != heif_filetype_no
    }

    /// How a HEIF file cut short after its metadata ends (a partial copy): the bytes it has, and
    /// the bytes its top-level boxes say it has.
    struct Cut: Hashable, Sendable {
        /// The bytes the file has.
        var byteCount: Int
        /// The bytes its boxes declare: where its last box would end.
        var declaredByteCount: Int

        /// `65,184 of its 156,055 bytes`.
        var text: String { "\(byteCount.groupedText) of its \(declaredByteCount.groupedText) bytes" }
    }

    /// The most bytes a cut file may lack and still be read: 256 MiB, far more than a photo's
    /// image data (an iPhone's 48-megapixel HEIC is some 5 MB), and a guard against a damaged
    /// box size asking for gigabytes of filler.
    static let maximumMissingByteCount = 256 << 20

    /// Where `data` is cut short, when its top-level boxes (ISO/IEC 14496-12 §4.2) say it is
    /// longer than it is and its `meta` box, which describes every item and where its bytes are,
    /// is whole before the cut; nil for a whole file, one cut inside or before its `meta` box, one
    /// whose last box runs to the end of the file (size 0) or is cut in its header, and one that
    /// lacks more than ``maximumMissingByteCount`` bytes.
    static func cut(of data: Data) -> Cut? {
        let count = data.count
        func bytes(at offset: Int, count: Int) -> Data.SubSequence {
            data[(data.startIndex + offset)..<(data.startIndex + offset + count)]
        }
        func number(at offset: Int, byteCount: Int) -> Int {
            bytes(at: offset, count: byteCount).reduce(0) { $0 << 8 | Int($1) }
        }
        var offset = 0
        var metaIsWhole = false
        while count - offset >= 8 {
            var size = number(at: offset, byteCount: 4)
            var header = 8
            if size == 1 {
                guard count - offset >= 16, number(at: offset + 8, byteCount: 1) < 0x80 else { return nil }
                size = number(at: offset + 8, byteCount: 8)
                header = 16
            }
            guard size >= header else { return nil }  // 0 runs to the end; less is no box
            let (end, overflow) = offset.addingReportingOverflow(size)
            guard !overflow else { return nil }
            if bytes(at: offset + 4, count: 4).elementsEqual("meta".utf8) { metaIsWhole = end <= count }
            if end > count {
                guard metaIsWhole, end - count <= maximumMissingByteCount else { return nil }
                return Cut(byteCount: count, declaredByteCount: end)
            }
            offset = end
        }
        return nil
    }

    /// The primary image's Exif block as TIFF bytes (from the byte order mark on), or `nil`
    /// when it has none; and where the file is cut short, when it is cut after its metadata.
    ///
    /// A HEIF Exif item starts with 4 bytes, big-endian, counting the bytes before the TIFF
    /// header (ISO/IEC 23008-12 Annex A.2.1); they are skipped.
    ///
    /// libheif refuses a file whose items reach past its end, so a file cut short after its
    /// `meta` box (a partial copy: see ``cut(of:)``) is read with its missing bytes filled in,
    /// twice, with `00` and with `FF` bytes: when both give the same Exif block, the block lies
    /// wholly in the bytes the file has, and is read; when not, the file is damaged.
    static func exifTIFF(in data: Data) throws(Problem) -> (tiff: Data?, cut: Cut?) {
        guard let cut = cut(of: data) else { return (try exifTIFF(inWhole: data), nil) }
        let missing = cut.declaredByteCount - cut.byteCount
        let zeros = try exifTIFF(inWhole: data + Data(repeating: 0, count: missing))
        let ones = try exifTIFF(inWhole: data + Data(repeating: 0xFF, count: missing))
        guard zeros == ones else { throw .damaged("is cut short (\(cut.text)) before its Exif metadata ends") }
        return (zeros, cut)
    }

    /// ``exifTIFF(in:)`` of a file libheif reads whole.
    private static func exifTIFF(inWhole data: Data) throws(Problem) -> Data? {
        try withPrimaryImage(data) { handle throws(Problem) -> Data? in
            var id = heif_item_id()
            guard heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1 else { return nil }
            let size = heif_image_handle_get_metadata_size(handle, id)
            guard size > 4 else { return nil }
            var block = Data(count: size)
            let error = block.withUnsafeMutableBytes { heif_image_handle_get_metadata(handle, id, $0.baseAddress) }
            try check(error, "its Exif block cannot be read")
            let skip = block.prefix(4).reduce(0) { $0 << 8 | Int($1) }
            guard skip <= size - 4 else {
                throw .damaged("has a broken Exif block: its TIFF header offset \(skip) is past its end")
            }
            return block.subdata(in: (4 + skip)..<size)
        }
    }

    /// The primary image decoded to RGBA, transformed as the file says (rotation, mirroring,
    /// cropping), or one of its thumbnails when one is at least `minimumSide` pixels on its shorter
    /// side and has the primary image's proportions: iPhones store a thumbnail of some 320 pixels.
    ///
    /// A file cut short after its metadata (``cut(of:)``) is damaged: its image is not whole.
    static func decodedImage(_ data: Data, minimumSide: Int) throws(Problem) -> Thumbnail {
        if let cut = cut(of: data) { throw .damaged("is cut short (\(cut.text)): its image cannot be decoded") }
        return try withPrimaryImage(data) { primary throws(Problem) -> Thumbnail in
            let proportion = Self.proportion(primary)
            var ids = [heif_item_id](
                repeating: 0, count: Int(max(0, heif_image_handle_get_number_of_thumbnails(primary))))
            let count =
                ids.isEmpty ? 0 : Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(ids.count)))
            // The smallest thumbnail that is large enough and of the same proportions.
            var best: (handle: OpaquePointer, pixels: Int)?
            for id in ids.prefix(count) {
                var thumbnail: OpaquePointer?
                guard heif_image_handle_get_thumbnail(primary, id, &thumbnail).code == heif_error_Ok, let thumbnail
                else { continue }
                let width = Int(heif_image_handle_get_width(thumbnail))
                let height = Int(heif_image_handle_get_height(thumbnail))
                if min(width, height) >= minimumSide, abs(Self.proportion(thumbnail) - proportion) < 0.02,
                    width * height < best?.pixels ?? .max
                {
                    if let previous = best { heif_image_handle_release(previous.handle) }
                    best = (thumbnail, width * height)
                } else {
                    heif_image_handle_release(thumbnail)
                }
            }
            defer { if let best { heif_image_handle_release(best.handle) } }
            return try decode(best?.handle ?? primary)
        }
    }

    /// The longer side over the shorter, so that a thumbnail turned a quarter compares equal.
    private static func proportion(_ handle: OpaquePointer) -> Double {
        let width = Double(heif_image_handle_get_width(handle))
        let height = Double(heif_image_handle_get_height(handle))
        return min(width, height) > 0 ? max(width, height) / min(width, height) : 0
    }

    /// One image decoded to interleaved 8-bit RGBA.
    private static func decode(_ handle: OpaquePointer) throws(Problem) -> Thumbnail {
        var image: OpaquePointer?
        try check(
            heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil),
            "cannot be decoded")
        guard let image else { throw .damaged("cannot be decoded: libheif gave no image") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0,
            let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
            Int(stride) >= width * 4
        else { throw .damaged("cannot be decoded: libheif gave no RGBA pixels") }
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        rgba.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                (out.baseAddress! + row * width * 4).update(from: plane + row * Int(stride), count: width * 4)
            }
        }
        return Thumbnail(width: width, height: height, rgba: rgba)
    }

    /// Opens `data` with libheif and hands its primary image to `body`.
    private static func withPrimaryImage<T>(
        _ data: Data, _ body: (OpaquePointer) throws(Problem) -> T
    ) throws(Problem) -> T {
        guard looksLikeHEIF(data) else {
            throw .notHEIF("is not a HEIF image: it does not start with an 'ftyp' box of a HEIF brand")
        }
        _ = heif_init(nil)
        defer { heif_deinit() }
        guard let context = heif_context_alloc() else { throw .damaged("cannot be read: libheif is out of memory") }
        defer { heif_context_free(context) }
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(Problem) -> T in
                try check(
                    heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil),
                    "cannot be read")
                var primary: OpaquePointer?
                try check(heif_context_get_primary_image_handle(context, &primary), "has no primary image")
                guard let primary else { throw .damaged("has no primary image") }
                defer { heif_image_handle_release(primary) }
                return try body(primary)
            }
        }
        return try result.get()
    }

    /// Throws libheif's message, after `context`, unless `error` is no error.
    private static func check(_ error: heif_error, _ context: String) throws(Problem) {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        throw .damaged("\(context): libheif: \(message)")
    }
}
