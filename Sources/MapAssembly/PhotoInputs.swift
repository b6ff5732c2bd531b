public import Foundation
import MapComposer
public import PhotoLibrary
public import PhotoSources

/// Where photos come from, and whose: photo sources (folders of JPEG, HEIC and raw photos,
/// Flickr-style JSON, GeoJSON, CSV, GPX waypoints), a photo library, a photographer to keep.
public struct PhotoInputs: Hashable, Sendable {
    /// Photo sources, in order: folders of photos, or .json, .geojson, .csv or .gpx files.
    public var sources: [String]
    /// A photo library file; nil for none.
    public var library: String?
    /// Keep only this photographer's photos; nil keeps all.
    public var photographer: String?
    /// Whether a file of a photo folder that cannot be read as a photo fails the load (else it
    /// is skipped, with a warning).
    public var strict: Bool

    public init(sources: [String] = [], library: String? = nil, photographer: String? = nil, strict: Bool = false) {
        self.sources = sources
        self.library = library
        self.photographer = photographer
        self.strict = strict
    }

    /// Whether photos were asked for: a source or a library.
    public var isEmpty: Bool { sources.isEmpty && library == nil }

    /// The photos of the library then every source, in order, filtered by photographer, and a
    /// warning line per source that skipped something (`SOURCE: <what was skipped>`).
    ///
    /// - Parameter requireLocated: Whether photos asked for but none located is an error
    ///   (``PhotoMapError/noLocatedPhotos``, status 1). The default is true.
    /// - Throws: ``AssemblyError`` naming the source at fault, or listing the photographers found
    ///   when ``photographer`` names none of them; with ``strict``, naming the first file skipped.
    public func load(requireLocated: Bool = true) throws(AssemblyError) -> (photos: [Photo], warnings: [String]) {
        var photos: [Photo] = []
        var warnings: [String] = []
        if let library {
            photos = try Self.loadLibrary(URL(fileURLWithPath: library), photographer: photographer)
        }
        if !sources.isEmpty {
            for source in sources {
                let collection: PhotoCollection
                do throws(PhotoSourceError) {
                    collection = try PhotoCollection.load(from: URL(fileURLWithPath: source))
                } catch {
                    throw .photos(error)
                }
                if strict, let skipped = collection.report.skippedFiles.first { throw .skippedFile(skipped) }
                if let warning = collection.report.warningLine { warnings.append("\(source): \(warning)") }
                // The first source's array is taken as is: a million photos are never copied.
                if photos.isEmpty { photos = collection.photos } else { photos += collection.photos }
            }
            if let photographer {
                do throws(PhotoSourceError) {
                    photos = try PhotoCollection(photos: photos).filtered(byPhotographer: photographer).photos
                } catch {
                    throw .photos(error)
                }
            }
        }
        if requireLocated, !isEmpty, photos.isEmpty { throw .photoMap(.noLocatedPhotos) }
        return (photos, warnings)
    }

    /// A library's photos, or one photographer's through the library's index; a photographer
    /// the library does not know is the same failure as for other sources.
    public static func loadLibrary(_ file: URL, photographer: String?) throws(AssemblyError) -> [Photo] {
        let library: PhotoLibrary
        do throws(PhotoLibraryError) { library = try PhotoLibrary(file: file, create: false) } catch {
            throw .library(error)
        }
        return try photos(in: library, photographer: photographer)
    }

    /// The photos of a library open already, as ``loadLibrary(_:photographer:)`` reads them.
    public static func photos(in library: PhotoLibrary, photographer: String?) throws(AssemblyError) -> [Photo] {
        let known: [String]
        do throws(PhotoLibraryError) {
            let photos = try library.photos(byPhotographer: photographer)
            guard photographer != nil, photos.isEmpty else { return photos }
            known = try library.photographers().map(\.name)
        } catch {
            throw .library(error)
        }
        throw .photos(.unknownPhotographer(photographer ?? "", found: known))
    }
}
