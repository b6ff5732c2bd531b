import Foundation
import MapJSON

/// Reads a GeoJSON or Flickr-style JSON photo file in one pass, making each photo as its entry
/// is parsed: the `features` or `photos.photo` array is streamed (see
/// `JSONValue.parse(_:streamingArraysAt:visit:)`), so a million entries never exist as one
/// `JSONValue`.
///
/// Problems are reported as if the whole document had been read first: a syntax error anywhere
/// wins, then what is wrong with the document as a whole, then the first entry at fault.
enum JSONPhotoDocument {
    /// The two JSON photo formats.
    enum Format: Hashable, Sendable {
        /// A GeoJSON FeatureCollection of Point features (``GeoJSONPhotoSource``).
        case geoJSON
        /// A Flickr API answer with `photos.photo[]` (``FlickrJSONSource``).
        case flickr

        /// The member path of the entries' array.
        var entriesPath: [String] {
            switch self {
            case .geoJSON: return GeoJSONPhotoSource.entriesPath
            case .flickr: return FlickrJSONSource.entriesPath
            }
        }

        /// The members of an entry that make its photo; the others are not kept.
        var entryMembers: [String]? {
            switch self {
            case .geoJSON: return nil
            case .flickr: return FlickrJSONSource.entryMembers
            }
        }

        /// How an entry is named in messages: `features[3]`, `photos.photo[3]`.
        func entryName(_ index: Int) -> String {
            "\(entriesPath.joined(separator: "."))[\(index)]"
        }
    }

    /// The photos the file holds in one of `formats`: the only one given, else GeoJSON when the
    /// top-level `type` is `FeatureCollection` and Flickr otherwise.
    ///
    /// - Throws: ``PhotoSourceError`` naming the file, and the entry at fault.
    static func load(from url: URL, formats: [Format]) throws(PhotoSourceError) -> PhotoCollection {
        let data: Data
        do { data = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw .unreadable(file: url, reason: error.localizedDescription)
        }
        let images = ImageText(directoryPath: url.deletingLastPathComponent().path)
        var lists = [EntryList](repeating: EntryList(), count: formats.count)
        let document: JSONValue
        do {
            document = try JSONValue.parse(
                data, streamingArraysAt: formats.map(\.entriesPath), keepingMembers: formats.map(\.entryMembers)
            ) { path, index, element in
                guard lists[path].failure == nil else { return }
                do throws(EntryProblem) {
                    let photo: Photo?
                    switch formats[path] {
                    case .geoJSON:
                        photo = try GeoJSONPhotoSource.photo(from: element, index: index, file: url, images: images)
                    case .flickr:
                        photo = try FlickrJSONSource.photo(from: element, images: images)
                    }
                    if let photo { lists[path].photos.append(photo) } else { lists[path].skipped += 1 }
                } catch {
                    lists[path].failure = (index, error.message)
                }
            }
        } catch {
            throw .malformed(file: url, reason: error.reason)
        }
        let format: Format
        if formats.count == 1 {
            format = formats[0]
        } else if case .string("FeatureCollection") = document["type"] {
            format = .geoJSON
        } else {
            format = .flickr
        }
        switch format {
        case .geoJSON: try GeoJSONPhotoSource.check(document, file: url)
        case .flickr: try FlickrJSONSource.check(document, file: url)
        }
        guard let list = formats.firstIndex(of: format).map({ lists[$0] }) else {
            return PhotoCollection(photos: [])
        }
        if let (index, problem) = list.failure {
            throw .invalidEntry(file: url, entry: format.entryName(index), problem: problem)
        }
        return PhotoCollection(photos: list.photos, report: PhotoLoadReport(skippedWithoutLocation: list.skipped))
    }

    /// The photos made from one streamed array so far.
    private struct EntryList {
        var photos: [Photo] = []
        var skipped = 0
        /// The first entry at fault; later entries are parsed but not made into photos.
        var failure: (index: Int, problem: String)?
    }
}
