public import ArgumentParser
import Foundation
import MapAssembly
public import MapComposer

/// Where photos come from, and whose: the options `render` and `cluster` share.
struct PhotoSourceOptions: ParsableArguments {
    @Option(
        name: .customLong("photos"), parsing: .unconditionalSingleValue,
        help:
            "A photo source: a folder of photos (JPEG, HEIC, DNG/CR2/NEF/ARW raw), or a .json, .geojson, .csv or .gpx file (its waypoints)."
    )
    var sources: [String] = []

    @Option(
        parsing: .unconditional,
        help:
            "A photo library file (see `mapwright photos`): its photos, read through its index by photographer with --photographer."
    )
    var library: String?

    @Option(parsing: .unconditional, help: "Keep only this photographer's photos.")
    var photographer: String?

    /// Whether photos were asked for: a source or a library.
    var isEmpty: Bool { sources.isEmpty && library == nil }

    @Flag(
        help:
            "Fail on the first file of a photo folder that cannot be read as a photo (not a photo, cut short, unreadable) instead of skipping it."
    )
    var strict = false

    /// The sources, library and photographer, for the assembly.
    var inputs: PhotoInputs {
        PhotoInputs(sources: sources, library: library, photographer: photographer, strict: strict)
    }
}

/// `--cluster-by`: which photos may share a cluster, by the grouping's raw values.
extension PhotoMapRequest.ClusterGrouping: ExpressibleByArgument {}
