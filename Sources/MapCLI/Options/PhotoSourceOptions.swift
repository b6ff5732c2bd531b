public import ArgumentParser
import Foundation
import MapComposer
import PhotoLibrary
import PhotoSources

/// Where photos come from, and whose: the options `render` and `cluster` share.
struct PhotoSourceOptions: ParsableArguments {
    @Option(name: .customLong("photos"), parsing: .unconditionalSingleValue, help: "A photo source: a folder of JPEGs, or a .json, .geojson or .csv file.")
    var sources: [String] = []

    @Option(
        parsing: .unconditional,
        help: "A photo library file (see `mapwright photos`): its photos, read through its index by photographer with --photographer.")
    var library: String?

    @Option(parsing: .unconditional, help: "Keep only this photographer's photos.")
    var photographer: String?

    /// Whether photos were asked for: a source or a library.
    var isEmpty: Bool { sources.isEmpty && library == nil }

    @Flag(help: "Fail on the first file of a photo folder that cannot be read as a photo (not a JPEG, cut short, unreadable) instead of skipping it.")
    var strict = false

    /// The photos of every source, in order, filtered by photographer. Warnings (photos without a
    /// location, files that are not photos) go to standard error, one line per source.
    ///
    /// - Throws: `CommandFailure` naming the source at fault, or listing the photographers found
    ///   when `--photographer` names none of them; with `--strict`, naming the first file skipped.
    ///   A folder without JPEG files is status 1, as no located photo is.
    func load() throws -> [Photo] {
        var photos: [Photo] = []
        if let library {
            photos = try Self.loadLibrary(URL(fileURLWithPath: library), photographer: photographer)
            guard !sources.isEmpty else { return photos }
        }
        for source in sources {
            let collection: PhotoCollection
            do { collection = try PhotoCollection.load(from: URL(fileURLWithPath: source)) } catch {
                if case .noJPEGFiles = error { throw CommandFailure(error.description, status: 1) }
                throw CommandFailure(error.description)
            }
            if strict, let skipped = collection.report.skippedFiles.first { throw CommandFailure(skipped.description) }
            if let warning = collection.report.warningLine { Mapwright.warn("\(source): \(warning)") }
            // The first source's array is taken as is: a million photos are never copied.
            if photos.isEmpty { photos = collection.photos } else { photos += collection.photos }
        }
        guard let photographer else { return photos }
        do { return try PhotoCollection(photos: photos).filtered(byPhotographer: photographer).photos } catch {
            throw CommandFailure(error.description)
        }
    }
}

extension PhotoSourceOptions {
    /// A library's photos, or one photographer's through the library's index; a photographer
    /// the library does not know is the same one-line failure as for other sources.
    static func loadLibrary(_ file: URL, photographer: String?) throws -> [Photo] {
        let library = try libraryFailure { () throws(PhotoLibraryError) in try PhotoLibrary(file: file, create: false) }
        let photos = try libraryFailure { () throws(PhotoLibraryError) in try library.photos(byPhotographer: photographer) }
        if let photographer, photos.isEmpty {
            let names = try libraryFailure { () throws(PhotoLibraryError) in try library.photographers() }.map(\.name)
            throw CommandFailure(PhotoSourceError.unknownPhotographer(photographer, found: names).description)
        }
        return photos
    }
}

/// `--cluster-by`: which photos may share a cluster, by the grouping's raw values.
extension PhotoMapRequest.ClusterGrouping: ExpressibleByArgument {}
