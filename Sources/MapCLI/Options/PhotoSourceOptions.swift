import ArgumentParser
import Foundation
import MapComposer
import PhotoSources

/// Where photos come from, and whose: the options `render` and `cluster` share.
struct PhotoSourceOptions: ParsableArguments {
    @Option(name: .customLong("photos"), help: "A photo source: a folder of JPEGs, or a .json, .geojson or .csv file.")
    var sources: [String] = []

    @Option(help: "Keep only this photographer's photos.")
    var photographer: String?

    /// The photos of every source, in order, filtered by photographer. Warnings (photos without a
    /// location) go to standard error.
    ///
    /// - Throws: `CommandFailure` naming the source at fault, or listing the photographers found
    ///   when `--photographer` names none of them.
    func load() throws -> [Photo] {
        var photos: [Photo] = []
        for source in sources {
            let collection: PhotoCollection
            do { collection = try PhotoCollection.load(from: URL(fileURLWithPath: source)) } catch {
                throw CommandFailure(error.description)
            }
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
