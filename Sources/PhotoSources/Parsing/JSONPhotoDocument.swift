import Foundation
import MapCore
import MapJSON
import MapProjection
import MapUtilities

/// Reads a GeoJSON or Flickr-style JSON photo file, making each photo as its entry is parsed:
/// the `features` or `photos.photo` array is streamed (see `JSONValue.parse(_:streamingArraysAt:
/// picking:into:minimumBytesForParts:add:)`), so a million entries never exist as one
/// `JSONValue`, and of each entry only the members a photo is made of are read into values
/// (``JSONPicks``); an array of 8 MiB or more is read in parts on several cores, each part
/// making its own photos, joined in order.
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

        /// What an entry's photo is made of; the other members are checked and dropped.
        var picks: JSONPicks {
            switch self {
            case .geoJSON: return GeoJSONPhotoSource.picks
            case .flickr: return FlickrJSONSource.picks
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
    ///
    /// - Parameter minimumBytesForParts: Arrays this large or larger are read in parts on
    ///   several cores (default 8 MiB; tests make it small).
    static func load(
        from url: URL, formats: [Format], minimumBytesForParts: Int = 8 << 20
    ) throws(PhotoSourceError) -> PhotoCollection {
        let data: Data
        do {
            data = try Data(readingFile: url, mapped: true, maximumBytes: PhotoSourceError.maximumDocumentBytes)
        } catch {
            throw .unreadable(file: url, reason: error.reason)
        }
        let images = ImageText(directoryPath: url.deletingLastPathComponent().path)
        let toWGS84 = try legacyCRS(of: data, formats: formats, file: url)
        let document: JSONValue
        var parts: [[EntryList]]
        do {
            (document, parts) = try JSONValue.parse(
                data, streamingArraysAt: formats.map(\.entriesPath), picking: formats.map(\.picks),
                into: EntryList(), minimumBytesForParts: minimumBytesForParts
            ) { list, path, index, element in
                list.add(element, index: index, format: formats[path], file: url, images: images, toWGS84: toWGS84)
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
        guard let path = formats.firstIndex(of: format) else { return PhotoCollection(photos: []) }
        var lists = parts[path]
        parts = []
        return try joined(&lists, format: format, file: url)
    }

    /// PROJ's transformation of a GeoJSON file's legacy `crs` (GeoJSON 2008, see
    /// ``MapProjection/GeoJSONCRS``) to longitudes and latitudes; nil for none, CRS84 or
    /// EPSG:4326. Only a file whose text holds `"crs"` is read whole for it first (the member
    /// may follow the features, which are made into photos as they are read).
    ///
    /// - Throws: ``PhotoSourceError/malformed(file:reason:)`` naming the CRS, when it is linked
    ///   or PROJ does not know it.
    private static func legacyCRS(of data: Data, formats: [Format], file: URL) throws(PhotoSourceError) -> Projection? {
        guard formats.contains(.geoJSON), data.range(of: Data(#""crs""#.utf8)) != nil,
            let root = try? JSONValue.parse(data), case .string("FeatureCollection") = root["type"]
        else { return nil }
        switch GeoJSONCRS.projectionToWGS84(document: root) {
        case .success(let projection): return projection
        case .failure(let problem): throw .malformed(file: file, reason: problem.message)
        }
    }

    /// The photos of an array read in parts, in order, with the first entry at fault reported by
    /// its index in the whole array, and features without an id named by that index.
    private static func joined(_ lists: inout [EntryList], format: Format, file: URL) throws(PhotoSourceError)
        -> PhotoCollection
    {
        var offset = 0
        for list in lists {
            if let (index, problem) = list.failure {
                throw .invalidEntry(file: file, entry: format.entryName(offset + index), problem: problem)
            }
            offset += list.count
        }
        var photos = lists.first?.photos ?? []
        if !lists.isEmpty { lists[0].photos = [] }
        photos.reserveCapacity(photos.count + lists.dropFirst().reduce(0) { $0 + $1.photos.count })
        offset = 0
        var skipped = 0
        for number in lists.indices {
            let base = number == 0 ? 0 : photos.count
            if number > 0 {
                // Moved, not copied: a copy would retain every text of half a million photos
                // here and release them again when the part is freed. What is left behind is a
                // photo of no text, which costs nothing to free.
                let placeholder = Photo(
                    id: PhotoText(""), title: nil, coordinate: try! Coordinate(latitude: 0, longitude: 0),
                    imageText: nil, thumbnailText: nil)
                lists[number].photos.withUnsafeMutableBufferPointer { part in
                    for position in part.indices {
                        photos.append(part.moveElement(from: position))
                        (part.baseAddress! + position).initialize(to: placeholder)
                    }
                }
            }
            for (position, index) in lists[number].unnamed {
                photos[base + position].id = GeoJSONPhotoSource.unnamedID(file: file, index: offset + index)
            }
            offset += lists[number].count
            skipped += lists[number].skipped
        }
        return PhotoCollection(photos: photos, report: PhotoLoadReport(skippedWithoutLocation: skipped))
    }

    /// The photos made from one part of a streamed array.
    private struct EntryList: Sendable {
        var photos: [Photo] = []
        var skipped = 0
        /// How many entries the part holds.
        var count = 0
        /// The first entry at fault, by its index in the part; later entries are not made into photos.
        var failure: (index: Int, problem: String)?
        /// Photos of features without an id (their position in `photos`, their index in the
        /// part), named once the index in the whole array is known.
        var unnamed: [(position: Int, index: Int)] = []
        /// Makes the entry at `index` (in the part) into a photo, or notes why it cannot be one.
        mutating func add(
            _ element: JSONPicked, index: Int, format: Format, file: URL, images: ImageText, toWGS84: Projection?
        ) {
            count += 1
            guard failure == nil else { return }
            do throws(EntryProblem) {
                let photo: Photo?
                switch format {
                case .geoJSON:
                    photo = try GeoJSONPhotoSource.photo(
                        from: element, index: index, file: file, images: images, toWGS84: toWGS84)
                    if photo != nil, GeoJSONPhotoSource.Feature(picked: element).id?.text == nil {
                        unnamed.append((photos.count, index))
                    }
                case .flickr:
                    photo = try FlickrJSONSource.photo(from: element, images: images)
                }
                if let photo { photos.append(photo) } else { skipped += 1 }
            } catch {
                failure = (index, error.message)
            }
        }
    }
}
