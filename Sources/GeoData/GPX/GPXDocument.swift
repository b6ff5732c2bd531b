public import Foundation
public import MapCore
import MapJSON

/// The waypoints, routes and tracks of a GPX 1.1 file (<https://www.topografix.com/GPX/1/1/>).
///
/// For example:
///
/// ```swift
/// let walk = try GPXReader.read(path: "walk.gpx")
/// let pointCount = walk.tracks.flatMap(\.segments).map(\.count).reduce(0, +)
/// ```
public struct GPXDocument: Hashable, Sendable {
    /// A `wptType`: a waypoint, route point or track point.
    public struct Point: Hashable, Sendable {
        /// The position (`lat` and `lon` attributes, WGS 84).
        public var coordinate: Coordinate
        /// The elevation (`ele`), in meters above mean sea level.
        public var elevationMeters: Double?
        /// The time (`time`, xsd:dateTime; UTC when the file gives no zone).
        public var time: Date?
        /// The name (`name`), mostly given for waypoints.
        public var name: String?
        /// The description (`desc`): what a person wrote about the point.
        public var description: String?
        /// The comment (`cmt`), which GPS receivers show beside the name.
        public var comment: String?

        /// Creates a point; every field but the coordinate defaults to `nil`.
        public init(
            coordinate: Coordinate, elevationMeters: Double? = nil, time: Date? = nil, name: String? = nil,
            description: String? = nil, comment: String? = nil
        ) {
            self.coordinate = coordinate
            self.elevationMeters = elevationMeters
            self.time = time
            self.name = name
            self.description = description
            self.comment = comment
        }
    }

    /// An `rte`: an ordered list of route points leading to a destination.
    public struct Route: Hashable, Sendable {
        /// The route's name.
        public var name: String?
        /// The `rtept` elements, in order.
        public var points: [Point]
    }

    /// A `trk`: recorded positions, in segments broken where reception was lost.
    public struct Track: Hashable, Sendable {
        /// The track's name.
        public var name: String?
        /// Each `trkseg`'s `trkpt` elements, in order.
        public var segments: [[Point]]
    }

    /// The `wpt` elements.
    public var waypoints: [Point]
    /// The `rte` elements.
    public var routes: [Route]
    /// The `trk` elements.
    public var tracks: [Track]

    /// Creates a document.
    public init(waypoints: [Point] = [], routes: [Route] = [], tracks: [Track] = []) {
        self.waypoints = waypoints
        self.routes = routes
        self.tracks = tracks
    }

    /// The document as features, for a vector layer: each track a MultiLineString (one line per
    /// segment), each route a LineString, each waypoint a Point. Properties are `kind`
    /// (`"track"`, `"route"` or `"waypoint"`) and `name` when there is one.
    public var featureCollection: FeatureCollection {
        func properties(kind: String, name: String?) -> [String: FeatureValue] {
            var properties: [String: FeatureValue] = ["kind": .string(kind)]
            if let name { properties["name"] = .string(name) }
            return properties
        }
        func positions(_ points: [Point]) -> [Position] { points.map { Position($0.coordinate) } }

        var features: [Feature] = []
        for track in tracks {
            let geometry = Geometry.multiLineString(track.segments.map(positions))
            features.append(Feature(geometry: geometry, properties: properties(kind: "track", name: track.name)))
        }
        for route in routes {
            let geometry = Geometry.lineString(positions(route.points))
            features.append(Feature(geometry: geometry, properties: properties(kind: "route", name: route.name)))
        }
        for waypoint in waypoints {
            let geometry = Geometry.point(Position(waypoint.coordinate))
            features.append(Feature(geometry: geometry, properties: properties(kind: "waypoint", name: waypoint.name)))
        }
        return FeatureCollection(features: features)
    }
}
