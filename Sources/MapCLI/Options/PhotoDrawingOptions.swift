import ArgumentParser
import MapAssembly
import MapComposer

/// How the photos are drawn: `--select`, `--show-accuracy`, `--cluster-by` and `--pin-color`,
/// shared by `render`, `flyover`, `tiles export` and `serve` (each adds its own clustering flags).
struct PhotoDrawingOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help:
            "The photo whose callout is shown: first, or a photo's id, title, or the start or a part of one title (case ignored)."
    )
    var select: String?

    @Flag(help: "Draw each photo's accuracy circle when it is known.")
    var showAccuracy = false

    @Option(parsing: .unconditional, help: "Which photos may share a cluster: photographer, all or none.")
    var clusterBy: PhotoMapRequest.ClusterGrouping = .photographer

    @Option(
        parsing: .unconditional,
        help: "The colour of every pin: red, green, purple or a hex colour; by default each photographer gets one.")
    var pinColor: String?

    func validate() throws {
        if let pinColor, PhotoDrawing.pinColor(pinColor) == nil {
            throw ValidationError("--pin-color: '\(pinColor)' is not red, green, purple or a colour")
        }
    }

    /// The options with `clustering`, for the assembly.
    func drawing(clustering: PhotoMapRequest.Clustering) -> PhotoDrawing {
        PhotoDrawing(
            select: select, showsAccuracy: showAccuracy, clustering: clustering, clusterGrouping: clusterBy,
            pinColor: pinColor)
    }
}

/// How tiles draw the photos: ``PhotoDrawingOptions`` and `--no-cluster`, shared by `tiles
/// export` and `serve`.
struct TileDrawingOptions: ParsableArguments {
    @OptionGroup var photos: PhotoDrawingOptions

    @Flag(
        help:
            "Never cluster pins: every photo gets its own pin. By default pins cluster by the cluster index at each zoom."
    )
    var noCluster = false

    /// The options, for the assembly.
    var drawing: PhotoDrawing { photos.drawing(clustering: noCluster ? .never : .automatic) }
}
