import CExif
import Foundation

/// The image file directories of a TIFF-structured file (TIFF 6.0 §2): DNG, Canon CR2, Nikon NEF,
/// Sony ARW and plain TIFF all share this layout, a header and chains of IFDs pointing into the file.
///
/// Every offset is checked against the file's size before it is read; an IFD met twice (a loop)
/// or past the limits of ``maximumDirectories`` is not read again.
struct TIFFFile {
    /// Why bytes are not a readable TIFF structure; each message follows the file's name.
    enum Problem: Error {
        /// The file does not start with a TIFF header.
        case notTIFF(String)
        /// An IFD or a value lies past the end of the file.
        case damaged(String)
    }

    /// One IFD entry: its tag, TIFF type, count and where its value's bytes start in the file.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: Int
        var valueOffset: Int
    }

    /// One IFD: its entries by tag, and where it was in the file.
    struct Directory {
        var offset: Int
        var entries: [UInt16: Entry]
        /// The offset of the next IFD in its chain; 0 at the end.
        var next: Int
    }

    /// The most IFDs read from one file: far more than any camera writes (a CR2 has four, a DNG a handful).
    static let maximumDirectories = 64

    let data: Data
    let bigEndian: Bool
    /// The offset of IFD0.
    let firstDirectory: Int

    /// Reads the header of a TIFF-structured file: `II*\0` or `MM\0*` and IFD0's offset.
    ///
    /// - Throws: ``Problem/notTIFF(_:)``, ``Problem/damaged(_:)`` when IFD0 lies past the end.
    init(data: Data) throws(Problem) {
        let head = [UInt8](data.prefix(8))
        guard head.count == 8, head[0] == head[1], head[0] == 0x49 || head[0] == 0x4D else {
            throw .notTIFF("is not a TIFF-based raw file: it does not start with II or MM")
        }
        let big = head[0] == 0x4D
        func header(_ offset: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 << 8 | Int(head[offset + (big ? $1 : width - 1 - $1)]) }
        }
        guard header(2, 2) == 42 else {
            throw .notTIFF("is not a TIFF-based raw file: its header's magic number is not 42")
        }
        let first = header(4, 4)
        guard first >= 8, first < data.count else {
            throw .damaged("is cut short: its first image directory at byte \(first) is past the end")
        }
        self.data = data
        bigEndian = big
        firstDirectory = first
    }

    /// Whether `count` bytes at `offset` lie within the file.
    func contains(offset: Int, count: Int) -> Bool {
        offset >= 0 && count >= 0 && offset <= data.count && count <= data.count - offset
    }

    /// The unsigned integer of `width` bytes at `offset`; `nil` past the end.
    func unsigned(at offset: Int, width: Int) -> Int? {
        guard contains(offset: offset, count: width) else { return nil }
        let start = data.startIndex + offset
        return (0..<width).reduce(0) { $0 << 8 | Int(data[start + (bigEndian ? $1 : width - 1 - $1)]) }
    }

    /// The size in bytes of one value of a TIFF type; `nil` for a type TIFF 6.0 does not define.
    static func size(ofType type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12: return 8
        default: return nil
        }
    }

    /// The IFD at `offset`. Entries of unknown types, or whose value lies past the end, are left out.
    ///
    /// - Throws: ``Problem/damaged(_:)`` when the IFD itself lies past the end.
    func directory(at offset: Int) throws(Problem) -> Directory {
        guard let count = unsigned(at: offset, width: 2), contains(offset: offset + 2, count: count * 12 + 4) else {
            throw .damaged("is cut short: an image directory at byte \(offset) runs past the end of the file")
        }
        var entries: [UInt16: Entry] = [:]
        for index in 0..<count {
            let at = offset + 2 + index * 12
            let tag = UInt16(unsigned(at: at, width: 2)!)
            let type = UInt16(unsigned(at: at + 2, width: 2)!)
            let components = unsigned(at: at + 4, width: 4)!
            guard let size = Self.size(ofType: type), components <= data.count else { continue }
            let length = size * components
            let valueOffset = length <= 4 ? at + 8 : unsigned(at: at + 8, width: 4)!
            guard contains(offset: valueOffset, count: length) else { continue }
            entries[tag] = entries[tag] ?? Entry(tag: tag, type: type, count: components, valueOffset: valueOffset)
        }
        return Directory(offset: offset, entries: entries, next: unsigned(at: offset + 2 + count * 12, width: 4)!)
    }

    /// The entry's value as bytes.
    func bytes(of entry: Entry) -> [UInt8] {
        let length = entry.count * (Self.size(ofType: entry.type) ?? 0)
        let start = data.startIndex + entry.valueOffset
        return [UInt8](data[start..<start + length])
    }

    /// The entry's integer values (BYTE, SHORT, LONG or IFD); empty for other types.
    func integers(of entry: Entry) -> [Int] {
        let width: Int
        switch entry.type {
        case 1, 7: width = 1
        case 3: width = 2
        case 4, 13: width = 4
        default: return []
        }
        return (0..<min(entry.count, 1024)).compactMap { unsigned(at: entry.valueOffset + $0 * width, width: width) }
    }

    /// Every IFD reachable from IFD0: its chain (IFD1, IFD2, …) and the SubIFDs (tag 0x014A) of
    /// each, depth first, each read once, at most ``maximumDirectories``. The Exif and GPS IFDs
    /// are not among them: they hold tags, not images.
    ///
    /// - Throws: ``Problem/damaged(_:)`` when IFD0 cannot be read; a later IFD that cannot be read is left out.
    func imageDirectories() throws(Problem) -> [Directory] {
        var found: [Directory] = [try directory(at: firstDirectory)]
        var visited: Set<Int> = [firstDirectory]
        var pending: [Int] = []
        func queue(_ directory: Directory) {
            if directory.next != 0 { pending.append(directory.next) }
            if let sub = directory.entries[Self.subIFDsTag] { pending.append(contentsOf: integers(of: sub).reversed()) }
        }
        queue(found[0])
        while let offset = pending.popLast(), found.count < Self.maximumDirectories {
            guard offset > 0, visited.insert(offset).inserted, let directory = try? directory(at: offset) else {
                continue
            }
            found.append(directory)
            queue(directory)
        }
        return found
    }

    /// The IFD an entry of IFD0 points to (the Exif IFD, 0x8769; the GPS IFD, 0x8825), or `nil`
    /// when there is none or it cannot be read.
    func pointedDirectory(_ tag: UInt16, from directory: Directory) -> Directory? {
        guard let entry = directory.entries[tag], let offset = integers(of: entry).first, offset > 0 else { return nil }
        return try? self.directory(at: offset)
    }

    static let subIFDsTag: UInt16 = 0x014A
    static let exifIFDTag: UInt16 = 0x8769
    static let gpsIFDTag: UInt16 = 0x8825
}

/// The tags of a TIFF-structured file's IFD0, Exif IFD and GPS IFD, read as EXIF tags.
struct TIFFTagReader: ExifTagReading {
    let file: TIFFFile
    let ifd0: TIFFFile.Directory
    let exif: TIFFFile.Directory?
    let gps: TIFFFile.Directory?

    /// Reads IFD0 and the Exif and GPS IFDs it points to.
    ///
    /// - Throws: ``TIFFFile/Problem/damaged(_:)`` when IFD0 cannot be read.
    init(_ file: TIFFFile) throws(TIFFFile.Problem) {
        self.file = file
        ifd0 = try file.directory(at: file.firstDirectory)
        exif = file.pointedDirectory(TIFFFile.exifIFDTag, from: ifd0)
        gps = file.pointedDirectory(TIFFFile.gpsIFDTag, from: ifd0)
    }

    func entry(_ tag: Tag) -> ExifEntryBytes? {
        let directory: TIFFFile.Directory?
        switch tag.ifd {
        case EXIF_IFD_EXIF: directory = exif
        case EXIF_IFD_GPS: directory = gps
        default: directory = ifd0
        }
        guard let entry = directory?.entries[UInt16(truncatingIfNeeded: tag.number)] else { return nil }
        return ExifEntryBytes(
            format: entry.type, components: entry.count, bytes: file.bytes(of: entry), bigEndian: file.bigEndian)
    }
}
