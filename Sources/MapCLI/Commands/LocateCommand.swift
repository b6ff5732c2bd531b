import ArgumentParser
import MapAssembly
import MapCore

/// `mapwright locate`: where coordinates appear in a view and what lies under view points, for
/// people debugging maps.
struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Convert between coordinates and view points for a camera over a view.",
        discussion: """
            For each --coordinate, prints its view point, its Web Mercator map point and the tile \
            containing it at the zoom level; for each --point, the coordinate under it (none above \
            the horizon); and the visible region. View points have their origin at the top-left, y down.
            """
    )

    @OptionGroup var camera: CameraOptions

    @Option(
        name: .customLong("coordinate"), parsing: .unconditionalSingleValue,
        help: "A coordinate to locate in the view, as LAT,LON.", transform: ArgumentValues.coordinate)
    var coordinates: [Coordinate] = []

    @Option(
        name: .customLong("point"), parsing: .unconditionalSingleValue,
        help: "A view point to locate on the map, as X,Y in points.", transform: ArgumentValues.viewPoint)
    var points: [ViewPoint] = []

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        _ = try camera.viewport()
    }

    func run() throws {
        let report = try LocateReport(viewport: camera.viewport(), coordinates: coordinates, points: points)
        print(json ? report.jsonText : report.text)
    }
}
