public import Foundation
import GeoData
import MapCore
public import MapRenderer
public import MapStyle
import MapUtilities

/// Tracks and shapes read from files as overlays, in a style's default overlay look.
public enum OverlayFile {
    /// What a file gave.
    public struct Contents: Sendable {
        /// The file's lines and areas in file order, then a GPX file's waypoints.
        public var overlays: [MapOverlay]
        /// A GeoJSON file's point features, which overlays do not draw.
        public var skippedPoints: Int
        /// Track segments, routes and LineStrings with a single position, which draw no line.
        public var skippedSinglePointLines: Int = 0
        /// A GeoJSON file's broken features, left out, as one warning line
        /// (``FeatureCollection/skippedFeaturesWarning``); `nil` when there are none.
        public var brokenFeaturesWarning: String?
    }

    /// Reads a GPX 1.1 file (tracks, one line per segment, routes, and waypoints as named markers,
    /// ``MapOverlay/Shape/waypoint(_:name:)``, over the lines) or a GeoJSON file (LineStrings as
    /// lines, Polygons with their holes as filled areas), told apart by content: GPX by its `<gpx`
    /// root whatever the name (`.gpx.xml`), either gzip'd (`.gpx.gz`).
    ///
    /// A file that holds nothing to draw is an error rather than a map without it: a GPX file
    /// without track or route points or waypoints says "walk.gpx: has no track points or
    /// waypoints", a GeoJSON file without features "has no features". Point features are counted in
    /// ``Contents/skippedPoints``, lines of a single position in ``Contents/skippedSinglePointLines``,
    /// broken GeoJSON features (while others are valid) in ``Contents/brokenFeaturesWarning``.
    ///
    /// - Throws: ``PhotoMapError/overlay(_:)`` naming the file and the line or feature at fault,
    ///   or ``GeoDataError/nothingToDraw(path:missing:)``.
    public static func read(
        _ url: URL, look: MapwrightMetadata.Overlay, level: MapOverlay.Level = .aboveRoads
    ) throws(PhotoMapError) -> Contents {
        var contents = Contents(overlays: [], skippedPoints: 0)
        func line(_ coordinates: [Coordinate]) {
            guard coordinates.count >= 2 else {
                if coordinates.count == 1 { contents.skippedSinglePointLines += 1 }
                return
            }
            contents.overlays.append(
                MapOverlay(
                    shape: .polyline(coordinates), strokeColor: look.lineColor, lineWidthPoints: look.lineWidth,
                    level: level))
        }
        do throws(GeoDataError) {
            // GPX told by content (a `.gpx.xml`, a gzip'd `.gpx.gz`), GeoJSON otherwise.
            let data = try GeoDataError.decompressedContents(ofFile: url.path)
            if url.pathExtension.lowercased() == "gpx" || GPXReader.looksLikeGPX(data) {
                let document = try GPXReader.read(data: data, path: url.displayPath)
                let trackPoints = document.tracks.reduce(0) { $0 + $1.segments.reduce(0) { $0 + $1.count } }
                let points =
                    trackPoints + document.routes.reduce(0, { $0 + $1.points.count }) + document.waypoints.count
                guard points > 0 else {
                    throw .nothingToDraw(path: url.displayPath, missing: "track points or waypoints")
                }
                for track in document.tracks { for segment in track.segments { line(segment.map(\.coordinate)) } }
                for route in document.routes { line(route.points.map(\.coordinate)) }
                for waypoint in document.waypoints {
                    contents.overlays.append(
                        MapOverlay(
                            shape: .waypoint(waypoint.coordinate, name: waypoint.name), strokeColor: look.lineColor,
                            lineWidthPoints: look.lineWidth, level: level))
                }
                return contents
            }
            let collection = try GeoJSONReader.read(data: data, path: url.displayPath)
            guard !collection.features.isEmpty else { throw .nothingToDraw(path: url.displayPath, missing: "features") }
            func add(_ geometry: Geometry) {
                switch geometry {
                case .point, .multiPoint:
                    contents.skippedPoints += 1
                case .lineString(let positions):
                    line(coordinates(positions))
                case .multiLineString(let lines):
                    lines.forEach { line(coordinates($0)) }
                case .polygon(let rings):
                    polygon(rings)
                case .multiPolygon(let polygons):
                    polygons.forEach(polygon)
                case .geometryCollection(let members):
                    members.forEach(add)
                }
            }
            func polygon(_ rings: [[Position]]) {
                guard let exterior = rings.first else { return }
                contents.overlays.append(
                    MapOverlay(
                        shape: .polygon(exterior: coordinates(exterior), holes: rings.dropFirst().map(coordinates)),
                        strokeColor: look.lineColor, lineWidthPoints: max(1, look.lineWidth / 2),
                        fillColor: look.fillColor, level: level))
            }
            for feature in collection.features { if let geometry = feature.geometry { add(geometry) } }
            contents.brokenFeaturesWarning = collection.skippedFeaturesWarning
            return contents
        } catch {
            throw .overlay(error)
        }
    }

    /// Positions as coordinates; the readers have validated them already.
    private static func coordinates(_ positions: [Position]) -> [Coordinate] {
        positions.compactMap { try? Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
    }
}
