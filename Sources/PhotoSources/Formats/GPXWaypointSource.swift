public import Foundation
import GeoData
import MapCore
import MapUtilities

/// Points from a GPX file's waypoints (`wpt`), each one a ``Photo`` without an image: the places
/// a trip marked, shown as pins with callouts like photos.
///
/// | from the waypoint | becomes |
/// | --- | --- |
/// | `lat`, `lon` | ``Photo/coordinate`` |
/// | `ele` | ``Photo/altitudeMeters`` |
/// | `time` | ``Photo/dateTaken`` |
/// | `name` | ``Photo/title`` |
/// | `desc`, else `cmt` | ``Photo/subtitle`` |
///
/// ``Photo/id`` is the waypoint's name when no other waypoint of the file has it, else `wpt N`
/// (its place among the waypoints, from 1). A GPX file is told by its `<gpx` root whatever its
/// name (`.gpx`, `.gpx.xml`), and read decompressed when gzip'd (`.gpx.gz`). Tracks and routes
/// are not points: they are drawn with `--track`.
public struct GPXWaypointSource: PhotoSource {
    public let url: URL

    /// Creates a source for the GPX file at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// Reads the file's waypoints.
    ///
    /// - Throws: ``PhotoSourceError/unreadable(file:reason:)`` when the file cannot be read,
    ///   ``PhotoSourceError/invalidLine(file:line:problem:)`` for malformed GPX (as GeoData's
    ///   GPXReader says it), ``PhotoSourceError/malformed(file:reason:)`` for a file without waypoints.
    public func load() throws(PhotoSourceError) -> PhotoCollection {
        let document: GPXDocument
        do throws(GeoDataError) {
            document = try GPXReader.read(
                data: GeoDataError.decompressedContents(ofFile: url.path), path: url.displayPath)
        } catch {
            switch error {
            case .unreadableFile(_, let reason): throw .unreadable(file: url, reason: reason)
            case .invalidGPX(_, let line, let reason): throw .invalidLine(file: url, line: line, problem: reason)
            default:
                let message = "\(error)"
                let prefix = url.displayPath + ": "
                throw .malformed(
                    file: url, reason: message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message)
            }
        }
        try Self.check(document, file: url)
        var nameCounts: [String: Int] = [:]
        for waypoint in document.waypoints { if let name = waypoint.name { nameCounts[name, default: 0] += 1 } }
        let photos = document.waypoints.enumerated().map { index, waypoint in
            let id = waypoint.name.flatMap { nameCounts[$0] == 1 ? $0 : nil } ?? "wpt \(index + 1)"
            return Photo(
                id: id, title: waypoint.name, subtitle: waypoint.description ?? waypoint.comment,
                coordinate: waypoint.coordinate, altitudeMeters: waypoint.elevationMeters, dateTaken: waypoint.time)
        }
        return PhotoCollection(photos: photos)
    }

    /// Refuses a GPX file without waypoints, saying what it holds instead.
    static func check(_ document: GPXDocument, file: URL) throws(PhotoSourceError) {
        guard document.waypoints.isEmpty else { return }
        let lines =
            document.tracks.isEmpty && document.routes.isEmpty ? "" : "; its tracks and routes are drawn with --track"
        throw .malformed(file: file, reason: "has no waypoints (<wpt>) to show as points\(lines)")
    }
}
