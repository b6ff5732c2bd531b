import ArgumentParser
import Foundation
import MapComposer
import MapCore
import MapRenderer
import MapStyle

/// Tracks, shapes and lines drawn over a map: `--track`, `--overlay`, `--circle`,
/// `--great-circle` and `--overlay-level`, shared by `render` and `tiles export`.
struct OverlayOptions: ParsableArguments {
    @Option(name: .customLong("track"), parsing: .unconditionalSingleValue, help: "A GPX 1.1 file whose tracks and routes are drawn as lines.")
    var tracks: [String] = []

    @Option(name: .customLong("overlay"), parsing: .unconditionalSingleValue, help: "A GeoJSON file whose lines and polygons are drawn over the map.")
    var overlays: [String] = []

    @Option(name: .customLong("circle"), parsing: .unconditionalSingleValue, help: "A circle drawn geodesically, as LAT,LON,METERS.")
    var circles: [String] = []

    @Option(name: .customLong("great-circle"), parsing: .unconditionalSingleValue, help: "A great-circle line, as LAT,LON,LAT,LON.")
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

    /// The overlays, drawn in the style's overlay look: tracks and GeoJSON files (with a warning
    /// for what they hold that is not drawn), then circles and great circles.
    ///
    /// - Throws: `CommandFailure` naming the file and its problem.
    func mapOverlays(look: MapwrightMetadata.Overlay) throws -> [MapOverlay] {
        let level = overlayLevel.level
        var mapOverlays: [MapOverlay] = []
        for path in tracks + overlays {
            let contents: OverlayFile.Contents
            do throws(PhotoMapError) {
                contents = try OverlayFile.read(URL(fileURLWithPath: path), look: look, level: level)
            } catch {
                throw CommandFailure(error.description)
            }
            if contents.skippedPoints > 0 { Mapwright.warn("\(path): \(contents.skippedPoints) point features are not drawn as overlays") }
            switch contents.skippedSinglePointLines {
            case 0: break
            case 1: Mapwright.warn("\(path): 1 line has a single point and is not drawn")
            case let count: Mapwright.warn("\(path): \(count) lines have a single point and are not drawn")
            }
            mapOverlays += contents.overlays
        }
        for text in circles {
            let circle = try ArgumentValues.circle(text)
            mapOverlays.append(MapOverlay(
                shape: .circle(center: circle.center, radiusMeters: circle.radiusMeters), strokeColor: look.lineColor,
                lineWidthPoints: max(1, look.lineWidth / 2), fillColor: look.fillColor, level: level))
        }
        for text in greatCircles {
            mapOverlays.append(MapOverlay(
                shape: .geodesicPolyline(try ArgumentValues.greatCircle(text)), strokeColor: look.lineColor,
                lineWidthPoints: look.lineWidth, lineDashPattern: [look.lineWidth * 2, look.lineWidth * 1.5], level: level))
        }
        return mapOverlays
    }
}

/// Where `--overlay-level` puts overlays.
enum OverlayLevelArgument: String, ExpressibleByArgument, CaseIterable {
    case aboveRoads = "above-roads"
    case aboveLabels = "above-labels"

    var level: MapOverlay.Level { self == .aboveRoads ? .aboveRoads : .aboveLabels }
}
