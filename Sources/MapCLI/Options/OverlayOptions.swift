import ArgumentParser
import Foundation
import MapAssembly
import MapCore
import MapRenderer

/// Tracks, shapes and lines drawn over a map: `--track`, `--overlay`, `--circle`,
/// `--great-circle` and `--overlay-level`, shared by `render` and `tiles export`.
struct OverlayOptions: ParsableArguments {
    @Option(
        name: .customLong("track"), parsing: .unconditionalSingleValue,
        help: "A GPX 1.1 file whose tracks and routes are drawn as lines, its waypoints as named markers.")
    var tracks: [String] = []

    @Option(
        name: .customLong("overlay"), parsing: .unconditionalSingleValue,
        help: "A GeoJSON file whose lines and polygons are drawn over the map.")
    var overlays: [String] = []

    @Option(
        name: .customLong("circle"), parsing: .unconditionalSingleValue,
        help: "A circle drawn geodesically, as LAT,LON,METERS.")
    var circles: [String] = []

    @Option(
        name: .customLong("great-circle"), parsing: .unconditionalSingleValue,
        help: "A great-circle line, as LAT,LON,LAT,LON.")
    var greatCircles: [String] = []

    @Option(parsing: .unconditional, help: "Where overlays sit: above-roads (under labels) or above-labels.")
    var overlayLevel: OverlayLevelArgument = .aboveRoads

    func validate() throws {
        for circle in circles { _ = try ArgumentValues.circle(circle) }
        for line in greatCircles { _ = try ArgumentValues.greatCircle(line) }
        for path in tracks { try OutputPath.checkReadableFile(path, option: "--track") }
        for path in overlays { try OutputPath.checkReadableFile(path, option: "--overlay") }
    }

    /// Whether any overlay is given.
    var isEmpty: Bool { tracks.isEmpty && overlays.isEmpty && circles.isEmpty && greatCircles.isEmpty }

    /// The files, shapes and level, for the assembly (the shapes' texts as given, for fingerprints).
    ///
    /// - Throws: `ValidationError` for a circle or line that is not one (``validate()`` checks first).
    func inputs() throws -> OverlayInputs {
        OverlayInputs(
            files: tracks + overlays,
            circles: try circles.map { text in
                let circle = try ArgumentValues.circle(text)
                return OverlayInputs.Circle(center: circle.center, radiusMeters: circle.radiusMeters)
            },
            greatCircles: try greatCircles.map(ArgumentValues.greatCircle), level: overlayLevel.level,
            shapeTexts: circles + greatCircles + [overlayLevel.rawValue])
    }
}

/// Where `--overlay-level` puts overlays.
enum OverlayLevelArgument: String, ExpressibleByArgument, CaseIterable {
    case aboveRoads = "above-roads"
    case aboveLabels = "above-labels"

    var level: MapOverlay.Level { self == .aboveRoads ? .aboveRoads : .aboveLabels }
}
