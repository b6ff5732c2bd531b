import Foundation

/// The kinds of photo file a folder of photos is read from, each told by its first bytes.
enum PhotoFileKind: Hashable, Sendable {
    /// A JPEG: FF D8.
    case jpeg
    /// A HEIF file (HEIC, as iPhones save): an `ftyp` box of a HEIF brand.
    case heif
    /// A TIFF-structured raw file (DNG, CR2, NEF, ARW): `II*\0` or `MM\0*`.
    case tiff

    /// The file name extensions a photo folder reads, lowercased: `jpg`, `jpeg`; `heic`, `heif`,
    /// `hif`; `dng`, `cr2`, `nef`, `nrw`, `arw`.
    static let extensions: [String: PhotoFileKind] = [
        "jpg": .jpeg, "jpeg": .jpeg,
        "heic": .heif, "heif": .heif, "hif": .heif,
        "dng": .tiff, "cr2": .tiff, "nef": .tiff, "nrw": .tiff, "arw": .tiff,
    ]

    /// The kind a file's name says, or `nil` for another extension.
    init?(fileExtension: String) {
        guard let kind = Self.extensions[fileExtension.lowercased()] else { return nil }
        self = kind
    }

    /// The kind the bytes are, or `nil` when they start like none of them.
    init?(data: Data) {
        let head = [UInt8](data.prefix(4))
        if head.starts(with: [0xFF, 0xD8]) {
            self = .jpeg
        } else if head == [0x49, 0x49, 0x2A, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2A] {
            self = .tiff
        } else if HEIFFile.looksLikeHEIF(data) {
            self = .heif
        } else {
            return nil
        }
    }
}
