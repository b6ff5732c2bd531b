import Foundation
import MapCore

/// Photos from a folder of geotagged JPEGs, read recursively, with their EXIF metadata.
///
/// Files ending in `.jpg` or `.jpeg` (any case) are read in the order of their paths, so the
/// result is the same on every run; hidden files and folders are passed over. Each photo gets:
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
/// ``Photo/id`` is the path relative to the folder; ``Photo/image`` and ``Photo/thumbnail`` are the
/// file itself. A photo without GPS tags, with a 0/0 rational or at exactly 0°, 0° is skipped and
/// counted in ``PhotoCollection/report``. A malformed GPS tag is an error naming the file and the tag.
/// The folder is only read.
public struct JPEGFolderSource: PhotoSource {
    public let url: URL

    /// Creates a source for the folder at `url`.
    public init(url: URL) {
        self.url = url
    }

    public func load() throws(PhotoSourceError) -> PhotoCollection {
        var photos: [Photo] = []
        var skipped = 0
        for (file, relativePath) in try jpegFiles() {
            let data: Data
            do { data = try Data(contentsOf: file, options: .alwaysMapped) } catch {
                throw .unreadable(file: file, reason: error.localizedDescription)
            }
            let metadata = try ExifMetadata.read(fromJPEG: data, file: file)
            guard let coordinate = metadata.coordinate else {
                skipped += 1
                continue
            }
            photos.append(Photo(
                id: relativePath,
                title: metadata.imageDescription ?? metadata.xpTitle ?? file.deletingPathExtension().lastPathComponent,
                coordinate: coordinate,
                altitudeMeters: metadata.altitudeMeters,
                horizontalAccuracyMeters: metadata.horizontalAccuracyMeters,
                dateTaken: metadata.dateTaken,
                photographer: metadata.artist,
                image: .file(file),
                thumbnail: .file(file)
            ))
        }
        return PhotoCollection(photos: photos, report: PhotoLoadReport(skippedWithoutLocation: skipped))
    }

    /// The JPEG files under the folder with their paths relative to it, sorted by those paths.
    private func jpegFiles() throws(PhotoSourceError) -> [(file: URL, relativePath: String)] {
        let root = url.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unreadable(file: url, reason: "no such folder")
        }
        // The enumerator reports errors through a closure; the first one is kept and thrown.
        nonisolated(unsafe) var failure: PhotoSourceError?
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
        ) { failedURL, error in
            if failure == nil { failure = .unreadable(file: failedURL, reason: error.localizedDescription) }
            return true
        }
        guard let enumerator else { throw .unreadable(file: url, reason: "the folder cannot be listed") }
        let rootComponents = root.pathComponents.count
        var files: [(file: URL, relativePath: String)] = []
        for case let file as URL in enumerator {
            guard ["jpg", "jpeg"].contains(file.pathExtension.lowercased()),
                  (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            else { continue }
            let standardized = file.standardizedFileURL
            let relativePath = standardized.pathComponents.dropFirst(rootComponents).joined(separator: "/")
            files.append((standardized, relativePath))
        }
        if let failure { throw failure }
        return files.sorted { $0.relativePath < $1.relativePath }
    }
}
