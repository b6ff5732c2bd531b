import Foundation
import MapComposer
public import MapCore
public import MapRenderer
public import MapStyle

/// Tracks, shapes and lines drawn over a map, as values: GPX and GeoJSON files, geodesic
/// circles, great-circle lines, and where they sit.
public struct OverlayInputs: Hashable, Sendable {
    /// A circle drawn geodesically.
    public struct Circle: Hashable, Sendable {
        public var center: Coordinate
        public var radiusMeters: Double

        public init(center: Coordinate, radiusMeters: Double) {
            self.center = center
            self.radiusMeters = radiusMeters
        }
    }

    /// GPX 1.1 files (tracks and routes drawn as lines, waypoints as named markers) and GeoJSON
    /// files (lines and polygons), in order.
    public var files: [String]
    /// Circles drawn geodesically.
    public var circles: [Circle]
    /// Great-circle lines, each its two ends.
    public var greatCircles: [[Coordinate]]
    /// Where overlays sit. The default is above roads, under labels.
    public var level: MapOverlay.Level
    /// How the circles, lines and level were written, for ``ContentFingerprint``: the command
    /// line's own texts, so a fingerprint does not change with number formatting. The default
    /// describes the values.
    public var shapeTexts: [String]

    public init(
        files: [String] = [], circles: [Circle] = [], greatCircles: [[Coordinate]] = [],
        level: MapOverlay.Level = .aboveRoads,
        shapeTexts: [String]? = nil
    ) {
        self.files = files
        self.circles = circles
        self.greatCircles = greatCircles
        self.level = level
        self.shapeTexts =
            shapeTexts
            ?? circles.map { "\($0.center.latitude),\($0.center.longitude),\($0.radiusMeters)" }
            + greatCircles.map { $0.map { "\($0.latitude),\($0.longitude)" }.joined(separator: ",") }
            + [level == .aboveRoads ? "above-roads" : "above-labels"]
    }

    /// Whether any overlay is given.
    public var isEmpty: Bool { files.isEmpty && circles.isEmpty && greatCircles.isEmpty }

    /// The overlays, drawn in the style's overlay look: the files' (with a warning for what they
    /// hold that is not drawn, `FILE: ...`), then circles and great circles.
    ///
    /// - Throws: ``AssemblyError/photoMap(_:)`` naming the file and its problem.
    public func mapOverlays(look: MapwrightMetadata.Overlay) throws(AssemblyError) -> (
        overlays: [MapOverlay], warnings: [String]
    ) {
        var mapOverlays: [MapOverlay] = []
        var warnings: [String] = []
        for path in files {
            let contents: OverlayFile.Contents
            do throws(PhotoMapError) {
                contents = try OverlayFile.read(URL(fileURLWithPath: path), look: look, level: level)
            } catch {
                throw .photoMap(error)
            }
            if let warning = contents.brokenFeaturesWarning { warnings.append(warning) }
            if contents.skippedPoints > 0 {
                warnings.append("\(path): \(contents.skippedPoints) point features are not drawn as overlays")
            }
            switch contents.skippedSinglePointLines {
            case 0: break
            case 1: warnings.append("\(path): 1 line has a single point and is not drawn")
            case let count: warnings.append("\(path): \(count) lines have a single point and are not drawn")
            }
            mapOverlays += contents.overlays
        }
        for circle in circles {
            mapOverlays.append(
                MapOverlay(
                    shape: .circle(center: circle.center, radiusMeters: circle.radiusMeters),
                    strokeColor: look.lineColor,
                    lineWidthPoints: max(1, look.lineWidth / 2), fillColor: look.fillColor, level: level))
        }
        for line in greatCircles {
            mapOverlays.append(
                MapOverlay(
                    shape: .geodesicPolyline(line), strokeColor: look.lineColor,
                    lineWidthPoints: look.lineWidth, lineDashPattern: [look.lineWidth * 2, look.lineWidth * 1.5],
                    level: level))
        }
        return (mapOverlays, warnings)
    }
}
