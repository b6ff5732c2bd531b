public import Foundation
public import MapCore
import MapUtilities
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Photos from a folder of geotagged photos, read recursively, with their EXIF metadata: JPEGs,
/// HEIC/HEIF photos (what iPhones save) and TIFF-based raw files (DNG, CR2, NEF, ARW).
///
/// Files ending in `.jpg` or `.jpeg`, `.heic`, `.heif` or `.hif`, `.dng`, `.cr2`, `.nef`, `.nrw`
/// or `.arw` (any case) are read on every core, each by its content whatever its name (an iPhone
/// photo renamed `.jpg` is read as HEIC), and kept in the order of
/// their paths, so the result is the same on every run; hidden files and folders are passed
/// over. Symbolic links to folders and files are followed; each folder and each file is read
/// once, so a link back to an enclosing folder (a loop) or a second link to the same photo adds
/// nothing and is not reported. Each photo gets:
///
/// A JPEG's EXIF is its APP1 segment; a HEIC's is its primary image's Exif item (read through
/// libheif); a raw file's is its IFD0 and the Exif and GPS IFDs that IFD0 points to.
///
/// | from EXIF | becomes |
/// | --- | --- |
/// | GPSLatitude/Ref, GPSLongitude/Ref | ``Photo/coordinate`` (S and W are negative) |
/// | GPSAltitude/Ref (1 = below sea level) | ``Photo/altitudeMeters`` |
/// | GPSHPositioningError | ``Photo/horizontalAccuracyMeters`` |
/// | DateTimeOriginal + OffsetTimeOriginal, else GPSDateStamp + GPSTimeStamp, else DateTimeOriginal as UTC | ``Photo/dateTaken`` |
/// | ImageDescription, else XPTitle, else the file name without its extension | ``Photo/title`` |
/// | Artist | ``Photo/photographer`` |
///
/// ``Photo/id`` is the path relative to the folder (through the links followed); ``Photo/image``
/// and ``Photo/thumbnail`` are the file itself. A photo without GPS tags, with a 0/0 rational or
/// at exactly 0°, 0° is skipped and counted in ``PhotoCollection/report``. So is a file that
/// cannot be read as a photo, one bad file never failing the whole folder: one that is not a
/// JPEG (or not the HEIC or raw file its name says), one cut short, one with a malformed GPS tag, one that cannot be read (permission
/// denied, a link to a missing file) and a subfolder that cannot be listed; the report's
/// ``PhotoLoadReport/skippedFiles`` keeps each one's error naming the file. A HEIC cut short
/// after its metadata (a partial copy whose Exif item is whole) is placed all the same, and
/// named in ``PhotoLoadReport/cutImages``: its image, and so its thumbnail, is not whole. The
/// folder is only read.
public struct JPEGFolderSource: PhotoSource {
    public let url: URL

    /// Creates a source for the folder at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// Reads every photo of the folder.
    ///
    /// - Throws: ``PhotoSourceError/unreadable(file:reason:)`` when the folder itself does not
    ///   exist or cannot be listed; ``PhotoSourceError/noJPEGFiles(folder:)`` when it holds no
    ///   photo file (of the extensions above) at all. Problems with single files are reported, not thrown.
    public func load() throws(PhotoSourceError) -> PhotoCollection {
        var listing = try jpegFiles()
        guard !listing.files.isEmpty || !listing.skipped.isEmpty else { throw .noJPEGFiles(folder: url) }
        var photos: [Photo] = []
        var withoutLocation = 0
        var cutImages: [PhotoLoadReport.CutImage] = []
        for result in Self.readAll(listing.files) {
            switch result {
            case .success(let read):
                if let photo = read.photo { photos.append(photo) } else { withoutLocation += 1 }
                if let cut = read.cut, read.photo != nil { cutImages.append(cut) }
            case .failure(let skipped): listing.skipped.append(skipped)
            }
        }
        let skipped = listing.skipped.sorted { Self.path(of: $0) < Self.path(of: $1) }
        return PhotoCollection(
            photos: photos,
            report: PhotoLoadReport(
                skippedWithoutLocation: withoutLocation, skippedFiles: skipped, cutImages: cutImages))
    }

    /// A photo to read: the file, and its path relative to the folder, which becomes the photo's id.
    private struct Candidate: Sendable {
        var file: URL
        var relativePath: String
    }

    /// The photo files under the folder in path order, and the entries already known to be unreadable.
    private struct Listing {
        var files: [Candidate] = []
        var skipped: [PhotoLoadReport.SkippedFile] = []
    }

    /// One file read: the photo, or `nil` for a photo without a location; and where the file is
    /// cut short after its metadata, when it is.
    private struct Read: Sendable {
        var photo: Photo?
        var cut: PhotoLoadReport.CutImage?
    }

    /// Reads each candidate on every core; the results are in the candidates' order.
    private static func readAll(_ files: [Candidate]) -> [Result<Read, PhotoLoadReport.SkippedFile>] {
        let slots = Mutex([Result<Read, PhotoLoadReport.SkippedFile>?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let result = Result { () throws(PhotoLoadReport.SkippedFile) in try read(files[index]) }
            slots.withLock { $0[index] = result }
        }
        return slots.withLock { $0.map { $0! } }
    }

    /// One photo file as a photo (`nil` when it has no location), and where it is cut.
    private static func read(_ candidate: Candidate) throws(PhotoLoadReport.SkippedFile) -> Read {
        let file = candidate.file
        let data: Data
        do { data = try Data(readingFile: file, mapped: true) } catch {
            throw PhotoLoadReport.SkippedFile(reason: .unreadable, error: .unreadable(file: file, reason: error.reason))
        }
        let metadata = try ExifMetadata.read(fromPhoto: data, file: file)
        let cut = metadata.cut.map {
            PhotoLoadReport.CutImage(file: file, byteCount: $0.byteCount, declaredByteCount: $0.declaredByteCount)
        }
        guard let coordinate = metadata.coordinate else { return Read(photo: nil, cut: cut) }
        let photo = Photo(
            id: candidate.relativePath,
            title: metadata.imageDescription ?? metadata.xpTitle ?? file.deletingPathExtension().lastPathComponent,
            coordinate: coordinate,
            altitudeMeters: metadata.altitudeMeters,
            horizontalAccuracyMeters: metadata.horizontalAccuracyMeters,
            dateTaken: metadata.dateTaken,
            photographer: metadata.artist,
            image: .file(file),
            thumbnail: .file(file)
        )
        return Read(photo: photo, cut: cut)
    }

    /// The path a skipped file's error names, to keep the report in path order.
    private static func path(of skipped: PhotoLoadReport.SkippedFile) -> String {
        switch skipped.error {
        case .unreadable(let file, _), .malformed(let file, _), .invalidEntry(let file, _, _): return file.path
        default: return ""
        }
    }

    /// A file or folder's identity on disk, to read each once however many links lead to it.
    private struct FileID: Hashable {
        var device: UInt64
        var inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// A folder still to list: where it is, its path relative to the root, and whether a
    /// symbolic link was followed to reach it.
    private struct PendingFolder {
        var folder: URL
        var relativePath: String
        var viaLink: Bool
    }

    /// The photo files under the folder, links followed, each folder and file once, sorted by path.
    ///
    /// Folders reached without a link are listed first, so a folder or file that is also linked
    /// to keeps its own path as its id; links to folders are followed afterwards, in path order,
    /// and a folder already listed (an enclosing folder, a loop) is passed over.
    private func jpegFiles() throws(PhotoSourceError) -> Listing {
        let root = url.standardizedFileURL
        var status = stat()
        guard stat(root.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw .unreadable(file: url, reason: "no such folder")
        }
        var listing = Listing()
        var visitedFolders: Set<FileID> = []
        // Every photo file found: the file's identity (nil when it cannot be found), and whether a link led to it.
        var found: [(candidate: Candidate, id: FileID?, viaLink: Bool)] = []
        // Depth first, names in order; folders behind links wait in `linked` until the rest is listed.
        var pending = [PendingFolder(folder: root, relativePath: "", viaLink: false)]
        var linked: [PendingFolder] = []
        while let next = pending.popLast() ?? (linked.isEmpty ? nil : linked.removeFirst()) {
            var folderStatus = stat()
            guard stat(next.folder.path, &folderStatus) == 0, visitedFolders.insert(FileID(folderStatus)).inserted
            else {
                continue
            }
            let names: [String]
            do { names = try Self.names(in: next.folder) } catch {
                if next.relativePath.isEmpty { throw .unreadable(file: url, reason: error.reason) }
                listing.skipped.append(
                    PhotoLoadReport.SkippedFile(
                        reason: .unreadable,
                        error: .unreadable(file: next.folder, reason: "the folder cannot be listed: \(error.reason)")))
                continue
            }
            var subfolders: [PendingFolder] = []
            for name in names where !name.hasPrefix(".") {
                let entry = next.folder.appendingPathComponent(name)
                let relativePath = next.relativePath.isEmpty ? name : next.relativePath + "/" + name
                let isPhoto = PhotoFileKind(fileExtension: entry.pathExtension) != nil
                var linkStatus = stat()
                var entryStatus = stat()
                let isLink = lstat(entry.path, &linkStatus) == 0 && linkStatus.st_mode & S_IFMT == S_IFLNK
                guard stat(entry.path, &entryStatus) == 0 else {
                    // A link to nothing, or an entry gone since the listing: a photo that cannot be read.
                    if isPhoto { found.append((Candidate(file: entry, relativePath: relativePath), nil, true)) }
                    continue
                }
                let viaLink = next.viaLink || isLink
                switch entryStatus.st_mode & S_IFMT {
                case S_IFDIR:
                    let folder = PendingFolder(folder: entry, relativePath: relativePath, viaLink: viaLink)
                    if isLink { linked.append(folder) } else { subfolders.append(folder) }
                case S_IFREG where isPhoto:
                    found.append((Candidate(file: entry, relativePath: relativePath), FileID(entryStatus), viaLink))
                case _ where isPhoto:
                    listing.skipped.append(
                        PhotoLoadReport.SkippedFile(
                            reason: .unreadable, error: .unreadable(file: entry, reason: "it is not a regular file")))
                default:
                    break
                }
            }
            pending += subfolders.reversed()
            linked.sort { $0.relativePath < $1.relativePath }
        }
        // One candidate per file: its own path before any link's, then the first path.
        found.sort { ($0.viaLink ? 1 : 0, $0.candidate.relativePath) < ($1.viaLink ? 1 : 0, $1.candidate.relativePath) }
        var seenFiles: Set<FileID> = []
        listing.files = found.filter { $0.id.map { seenFiles.insert($0).inserted } ?? true }.map(\.candidate)
        listing.files.sort { $0.relativePath < $1.relativePath }
        return listing
    }

    /// The names in a folder, sorted, without `.` and `..`.
    private static func names(in folder: URL) throws(MapUtilitiesError) -> [String] {
        guard let directory = opendir(folder.path) else {
            throw MapUtilitiesError.unreadableFile(path: folder.path, reason: MapUtilitiesError.reason(forErrno: errno))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

extension JPEGFolderSource {
    /// What one JPEG file tells about itself, as a folder of them would read it: its EXIF GPS
    /// position, altitude, accuracy and date, its title (ImageDescription, else XPTitle) and
    /// its photographer (Artist); each `nil` when the file does not say.
    public struct FileFacts: Hashable, Sendable {
        public var coordinate: Coordinate?
        public var altitudeMeters: Double?
        public var horizontalAccuracyMeters: Double?
        public var dateTaken: Date?
        public var title: String?
        public var photographer: String?
    }

    /// Reads one JPEG's ``FileFacts``.
    ///
    /// - Throws: ``PhotoSourceError/unreadable(file:reason:)`` when the file cannot be read,
    ///   ``PhotoSourceError/malformed(file:reason:)`` when it is not a JPEG or is cut short,
    ///   ``PhotoSourceError/invalidEntry(file:entry:problem:)`` for a malformed tag.
    public static func facts(ofJPEG file: URL) throws(PhotoSourceError) -> FileFacts {
        let data: Data
        do { data = try Data(readingFile: file, mapped: true) } catch {
            throw .unreadable(file: file, reason: error.reason)
        }
        let metadata: ExifMetadata
        do { metadata = try ExifMetadata.read(fromJPEG: data, file: file) } catch { throw error.error }
        return FileFacts(
            coordinate: metadata.coordinate, altitudeMeters: metadata.altitudeMeters,
            horizontalAccuracyMeters: metadata.horizontalAccuracyMeters, dateTaken: metadata.dateTaken,
            title: metadata.imageDescription ?? metadata.xpTitle, photographer: metadata.artist)
    }
}
