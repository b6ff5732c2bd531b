import ArgumentParser
import Foundation
import MapComposer
import PhotoSources

/// Where photos come from, and whose: the options `render` and `cluster` share.
struct PhotoSourceOptions: ParsableArguments {
    @Option(name: .customLong("photos"), parsing: .unconditionalSingleValue, help: "A photo source: a folder of JPEGs, or a .json, .geojson or .csv file.")
    var sources: [String] = []

    @Option(parsing: .unconditional, help: "Keep only this photographer's photos.")
    var photographer: String?

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

/// `--cluster-by`: which photos may share a cluster, by the grouping's raw values.
extension PhotoMapRequest.ClusterGrouping: ExpressibleByArgument {}
