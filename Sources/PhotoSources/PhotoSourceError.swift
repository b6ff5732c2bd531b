public import Foundation
public import MapUtilities

/// An error raised while reading photos or making their thumbnails.
///
/// Every case names the file, and where the file is at fault the entry or line too, so the
/// message can be shown to a person as is:
///
/// ```swift
/// do { _ = try PhotoCollection.load(from: URL(fileURLWithPath: "photos.json")) }
/// catch { print(error) } // photos.json: photos.photo[3]: latitude 'abc' is not a number
/// ```
public enum PhotoSourceError: Error, Hashable, Sendable {
    /// The file or folder could not be read at all; `reason` is the system's explanation.
    case unreadable(file: URL, reason: String)
    /// The file is of a type no photo source reads.
    case unsupportedFormat(file: URL)
    /// The file is wrong as a whole: not JSON, not a JPEG (or HEIC or raw photo), not the expected kind of document.
    case malformed(file: URL, reason: String)
    /// One entry of the file is wrong. `entry` locates it: `photos.photo[3]` in a Flickr list,
    /// `features[2]` in GeoJSON, an EXIF tag name such as `GPSLatitude` in a JPEG.
    case invalidEntry(file: URL, entry: String, problem: String)
    /// One line of a CSV file is wrong; lines count from 1, the header included.
    case invalidLine(file: URL, line: Int, problem: String)
    /// No photo was taken by `name`; `found` lists the photographers there are, sorted, each once.
    case unknownPhotographer(String, found: [String])
    /// A photo could not be decoded into a thumbnail; `reason` is libjpeg-turbo's or libheif's
    /// message, or says that a raw file holds no JPEG preview.
    case undecodableImage(file: URL, reason: String)
    /// A thumbnail could not be stored in the cache folder.
    case cacheUnwritable(directory: URL, reason: String)
    /// A photo folder holds no photo file (`.jpg`, `.jpeg`, `.heic`, `.heif`, `.hif`, `.dng`,
    /// `.cr2`, `.nef`, `.nrw`, `.arw`), in any subfolder.
    case noJPEGFiles(folder: URL)
}

/// Encoded as its case and values, so a ``PhotoLoadReport`` keeps each skipped file's error.
extension PhotoSourceError: Codable {}

extension PhotoSourceError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .unreadable(let file, let reason):
            return "\(file.displayPath): cannot be read: \(reason)"
        case .unsupportedFormat(let file):
            return "\(file.displayPath): is not a photo source: expected a folder of photos, "
                + "a Flickr-style .json, a .geojson, a .csv or a .gpx file"
        case .malformed(let file, let reason):
            return "\(file.displayPath): \(reason)"
        case .invalidEntry(let file, let entry, let problem):
            return "\(file.displayPath): \(entry): \(problem)"
        case .invalidLine(let file, let line, let problem):
            return "\(file.displayPath):\(line): \(problem)"
        case .unknownPhotographer(let name, let found):
            guard !found.isEmpty else { return "no photos by '\(name)': no photo names its photographer" }
            return "no photos by '\(name)'; photographers found: \(found.joined(separator: ", "))"
        case .undecodableImage(let file, let reason):
            return "\(file.displayPath): cannot be decoded as a photo: \(reason)"
        case .cacheUnwritable(let directory, let reason):
            return "thumbnail cache \(directory.displayPath): cannot be written: \(reason)"
        case .noJPEGFiles(let folder):
            return "no photo files (JPEG, HEIC or raw) in \(folder.displayPath)"
        }
    }

    public var errorDescription: String? { description }
}

extension PhotoSourceError {
    /// The largest CSV, GeoJSON or Flickr JSON photo file read: 2 GiB (some 20 million photos;
    /// the photos read take several times the file in memory).
    public static let maximumDocumentBytes = 2 << 30
}

extension PhotoSourceError: ExitStatusError {
    /// 1 for a folder without JPEG files (nothing to show, as with no located photo); else 2, bad input.
    public var exitStatus: Int32 {
        if case .noJPEGFiles = self { return 1 }
        return 2
    }
}

/// Bad input (a file of a photo folder that is not a photo, when every file must be): exit status 2.
extension PhotoLoadReport.SkippedFile: ExitStatusError {}
