public import Foundation
public import PhotoLibrary
public import PhotoSources

extension PhotoInputs {
    /// What an import into a library did: photos added, updated and unchanged, and what the
    /// sources skipped.
    public struct ImportSummary: Sendable {
        /// The library imported into.
        public var library: URL
        /// Photos new, changed and left alone, over every source.
        public var photos: PhotoLibrary.ImportSummary
        /// Photos without a location and files that are not photos, over every source.
        public var skipped: PhotoLoadReport

        public init(
            library: URL, photos: PhotoLibrary.ImportSummary = PhotoLibrary.ImportSummary(),
            skipped: PhotoLoadReport = PhotoLoadReport()
        ) {
            self.library = library
            self.photos = photos
            self.skipped = skipped
        }

        /// How many photos were imported: added, updated and unchanged.
        public var count: Int { photos.added + photos.updated + photos.unchanged }
    }

    /// Imports the photos of every source, as `mapwright photos import` does, into the library
    /// `file` (made when there is none): every source is read first (with ``strict``, the first
    /// file skipped fails before anything is written), then each is imported by its photos' keys
    /// (``PhotoLibrary/PhotoLibrary/importKeyed(_:from:)``), so that importing again updates
    /// rather than duplicates. ``library`` and ``photographer`` are not used.
    ///
    /// - Throws: ``AssemblyError`` naming the source or the library at fault.
    public func importPhotos(into file: URL) throws(AssemblyError) -> ImportSummary {
        var collections: [(source: String, collection: PhotoCollection)] = []
        for source in sources {
            let collection: PhotoCollection
            do throws(PhotoSourceError) {
                collection = try PhotoCollection.load(from: URL(fileURLWithPath: source))
            } catch {
                throw .photos(error)
            }
            if strict, let skipped = collection.report.skippedFiles.first { throw .skippedFile(skipped) }
            collections.append((source, collection))
        }
        var summary = ImportSummary(library: file)
        do throws(PhotoLibraryError) {
            let library = try PhotoLibrary(file: file, create: true)
            summary.library = library.file
            for (source, collection) in collections {
                let imported = try library.importPhotos(
                    PhotoLibrary.importKeyed(collection, from: URL(fileURLWithPath: source)))
                summary.photos.added += imported.added
                summary.photos.updated += imported.updated
                summary.photos.unchanged += imported.unchanged
                summary.skipped.skippedWithoutLocation += collection.report.skippedWithoutLocation
                summary.skipped.skippedFiles += collection.report.skippedFiles
                summary.skipped.cutImages += collection.report.cutImages
            }
        } catch {
            throw .library(error)
        }
        return summary
    }
}
