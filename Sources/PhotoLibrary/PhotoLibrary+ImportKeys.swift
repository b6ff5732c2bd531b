public import Foundation
public import PhotoSources

extension PhotoLibrary {
    /// The photos of a source as `photos import` keeps them: each with the id it has in the
    /// library, stable and unique across sources, so a re-import updates and never duplicates,
    /// and two sources never replace each other's photos.
    ///
    /// - A folder of JPEGs: the JPEG's absolute path, links resolved
    ///   (`/home/me/photos/camA/IMG_0001.jpg`): a subfolder imported after its folder gives the
    ///   same ids, and `camB/IMG_0001.jpg` is another photo than `camA/IMG_0001.jpg`.
    /// - A file (CSV, GeoJSON, Flickr JSON): the file's absolute path, links resolved, `#`, and the
    ///   photo's own id (a CSV `id` column, a GeoJSON feature `id`, a Flickr `id`):
    ///   `/home/me/trip/photos.csv#42`. A row or feature without one is keyed by its image (path or
    ///   URL) when no other photo of the file has the same, else, as a last resort, by its place in
    ///   the file (`/home/me/trip/photos.csv:7`, which changes when rows above it are removed).
    ///
    /// - Parameters:
    ///   - collection: The photos as the source read them (``PhotoCollection/load(from:)``).
    ///   - source: The folder or file they were read from.
    public static func importKeyed(_ collection: PhotoCollection, from source: URL) -> [Photo] {
        let resolved = source.resolvingSymlinksInPath().standardizedFileURL
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isFolder)
        var photos = collection.photos
        if isFolder.boolValue {
            let folder = resolved.path.hasSuffix("/") ? resolved.path : resolved.path + "/"
            for index in photos.indices { photos[index].id = folder + photos[index].id }
            return photos
        }
        // The sources name positional ids after the file as given (a link keeps its own name).
        // Byte-wise throughout: a million rows are keyed in a fraction of a second.
        let name = source.lastPathComponent
        let isPositional = photos.map { isPositionalID($0.id, fileName: name) }
        let images = photos.indices.map { isPositional[$0] ? photos[$0].storedImage : nil }
        var imageUses: [String: Int] = [:]
        imageUses.reserveCapacity(photos.count)
        for image in images { if let image { imageUses[image, default: 0] += 1 } }
        let nameLength = name.utf8.count
        for index in photos.indices {
            let id = photos[index].id
            if !isPositional[index] {
                photos[index].id = resolved.path + "#" + id
            } else if let image = images[index], imageUses[image] == 1 {
                photos[index].id = image
            } else {
                photos[index].id = resolved.path + String(Substring(id.utf8.dropFirst(nameLength)))
            }
        }
        return photos
    }

    /// Whether an id is the place of a row or feature in its file, as the sources make it when
    /// the entry has no id of its own: `NAME:LINE` (CSV) or `NAME#features[INDEX]` (GeoJSON).
    static func isPositionalID(_ id: String, fileName: String) -> Bool {
        let bytes = id.utf8
        let name = fileName.utf8
        guard bytes.starts(with: name) else { return false }
        let rest = bytes.dropFirst(name.count)
        func isNumber<Digits: Collection<UInt8>>(_ digits: Digits) -> Bool {
            !digits.isEmpty && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        if rest.first == UInt8(ascii: ":") { return isNumber(rest.dropFirst()) }
        let features = "#features[".utf8
        if rest.starts(with: features), rest.last == UInt8(ascii: "]") {
            return isNumber(rest.dropFirst(features.count).dropLast())
        }
        return false
    }
}
