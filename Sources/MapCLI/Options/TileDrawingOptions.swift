import ArgumentParser
import MapAssembly
import MapComposer

/// How tiles draw the photos: `--select`, `--show-accuracy`, `--no-cluster`, `--cluster-by` and
/// `--pin-color`, shared by `tiles export` and `serve`.
struct TileDrawingOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "The photo whose callout is drawn: first, or a photo's id, title, or the start or a part of one title (case ignored).")
    var select: String?

    @Flag(help: "Draw each photo's accuracy circle when it is known.")
    var showAccuracy = false

    @Flag(help: "Never cluster pins: every photo gets its own pin. By default pins cluster by the cluster index at each zoom.")
    var noCluster = false

    @Option(parsing: .unconditional, help: "Which photos may share a cluster: photographer, all or none.")
    var clusterBy: PhotoMapRequest.ClusterGrouping = .photographer

    @Option(parsing: .unconditional, help: "The colour of every pin: red, green, purple or a hex colour; by default each photographer gets one.")
    var pinColor: String?

    func validate() throws {
        if let pinColor { _ = try RenderCommand.pinColor(pinColor) }
    }

    /// The options, for the assembly.
    var drawing: TileDrawing {
        TileDrawing(select: select, showsAccuracy: showAccuracy, noCluster: noCluster, clusterGrouping: clusterBy, pinColor: pinColor)
    }
}
