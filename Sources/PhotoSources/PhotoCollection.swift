public import Foundation
import GeoData
import MapJSON

/// The located photos read from one source, in the source's order, with what was left out.
///
/// For example:
///
/// ```swift
/// let all = try PhotoCollection.load(from: URL(fileURLWithPath: "Samples/photos"))
/// print(all.photographers)        // ["Ansel Adams", "Dorothea Lange", "李明"]
/// let adams = try all.filtered(byPhotographer: "Ansel Adams")
/// ```
public struct PhotoCollection: Hashable, Sendable, Codable {
    /// The photos that have a location.
    public var photos: [Photo]
    /// What was skipped while loading.
    public var report: PhotoLoadReport

    /// Creates a collection.
    public init(photos: [Photo], report: PhotoLoadReport = PhotoLoadReport()) {
        self.photos = photos
        self.report = report
    }

    /// Loads photos from a folder or file, choosing the source by its type.
    ///
    /// - A folder: ``JPEGFolderSource`` (its JPEG, HEIC and raw photos, recursively).
    /// - `.json`: ``GeoJSONPhotoSource`` when the top-level `type` is `FeatureCollection`,
    ///   ``FlickrJSONSource`` otherwise.
    /// - `.geojson`: ``GeoJSONPhotoSource``. `.csv`: ``CSVPhotoSource``.
    /// - `.gpx`, or any file whose root element is `<gpx` (`.gpx.xml`, gzip'd `.gpx.gz`):
    ///   ``GPXWaypointSource`` (its waypoints).
    ///
    /// - Parameter url: A `file:` URL of the folder or file.
    /// - Throws: ``PhotoSourceError``; ``PhotoSourceError/unsupportedFormat(file:)`` for other file types.
    public static func load(from url: URL) throws(PhotoSourceError) -> PhotoCollection {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .unreadable(file: url, reason: "no such file or folder")
        }
        if isDirectory.boolValue { return try JPEGFolderSource(url: url).load() }
        switch url.pathExtension.lowercased() {
        case "json":
            return try JSONPhotoDocument.load(from: url, formats: [.geoJSON, .flickr])
        case "geojson":
            return try GeoJSONPhotoSource(url: url).load()
        case "csv":
            return try CSVPhotoSource(url: url).load()
        case "gpx":
            return try GPXWaypointSource(url: url).load()
        default:
            guard let data = try? GeoDataError.decompressedContents(ofFile: url.path), GPXReader.looksLikeGPX(data)
            else {
                throw .unsupportedFormat(file: url)
            }
            return try GPXWaypointSource(url: url).load()
        }
    }

    /// The photographers of these photos, sorted, each once; photos with none are not counted.
    public var photographers: [String] {
        Array(Set(photos.compactMap(\.photographer))).sorted()
    }

    /// The photos taken by `name`, compared without regard to case or surrounding whitespace.
    ///
    /// - Throws: ``PhotoSourceError/unknownPhotographer(_:found:)`` when no photo is by `name`,
    ///   listing ``photographers``.
    public func filtered(byPhotographer name: String) throws(PhotoSourceError) -> PhotoCollection {
        let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let kept = photos.filter { photo in
            photo.photographer.map { $0.caseInsensitiveCompare(wanted) == .orderedSame } ?? false
        }
        guard !kept.isEmpty else { throw .unknownPhotographer(name, found: photographers) }
        return PhotoCollection(photos: kept, report: report)
    }
}
