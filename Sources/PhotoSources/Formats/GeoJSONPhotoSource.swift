import Foundation
import MapCore
import MapJSON

/// Photos from a GeoJSON FeatureCollection of Point features (RFC 7946).
///
/// Each feature is one photo at its point, `[longitude, latitude]` or `[longitude, latitude, altitude]`
/// (RFC 7946 §3.1.1), with these optional properties, strings all:
///
/// ```json
/// {"type": "Feature", "id": "half-dome",
///  "geometry": {"type": "Point", "coordinates": [-119.5332, 37.7459, 2693]},
///  "properties": {"title": "Half Dome", "subtitle": "From Glacier Point", "photographer": "Ansel Adams",
///                 "image": "photos/half-dome.jpg", "thumbnail": "https://example.org/half-dome-s.jpg"}}
/// ```
///
/// Relative `image` and `thumbnail` paths are resolved against the GeoJSON file's folder. A feature
/// whose geometry is `null` (allowed by RFC 7946 §3.2) or at 0, 0 has no location: it is skipped
/// and counted. Any other geometry than a Point is an error naming the feature.
public struct GeoJSONPhotoSource: PhotoSource {
    public let url: URL

    /// Creates a source for the GeoJSON file at `url`.
    public init(url: URL) {
        self.url = url
    }

    public func load() throws(PhotoSourceError) -> PhotoCollection {
        try JSONPhotoDocument.load(from: url, formats: [.geoJSON])
    }

    /// The features' path, streamed one feature at a time.
    static let entriesPath = ["features"]

    /// Checks what the whole document must be (its `features` already taken out).
    static func check(_ document: JSONValue, file: URL) throws(PhotoSourceError) {
        guard case .string("FeatureCollection") = document["type"] else {
            let type = document["type"]?.text.map { "a GeoJSON \($0)" } ?? "not GeoJSON"
            throw .malformed(file: file, reason: "is \(type), expected a FeatureCollection of Point features")
        }
        guard case .array = document["features"] else {
            throw .malformed(file: file, reason: "is a FeatureCollection without a 'features' array")
        }
    }

    /// One photo, or `nil` when the feature has no location.
    static func photo(
        from feature: JSONValue, index: Int, file: URL, images: ImageText
    ) throws(EntryProblem) -> Photo? {
        guard case .string("Feature") = feature["type"] else {
            throw EntryProblem("is \(feature["type"]?.text.map { "a \($0)" } ?? feature.kindDescription), expected a Feature")
        }
        guard let position = try position(of: feature["geometry"]) else { return nil }
        let coordinate: Coordinate
        do {
            guard let located = try PhotoLocation.coordinate(latitude: position.latitude, longitude: position.longitude)
            else { return nil }
            coordinate = located
        } catch {
            throw EntryProblem(error)
        }
        let properties = feature["properties"] ?? .null
        switch properties {
        case .object, .null: break
        default: throw EntryProblem("properties is \(properties.kindDescription), expected an object")
        }
        return Photo(
            id: PhotoText(feature["id"]?.text ?? unnamedID(file: file, index: index)),
            title: try text(properties, "title"),
            subtitle: try text(properties, "subtitle"),
            coordinate: coordinate,
            altitudeMeters: position.altitude,
            photographer: try text(properties, "photographer"),
            imageText: try reference(properties, "image", images: images),
            thumbnailText: try reference(properties, "thumbnail", images: images)
        )
    }

    /// The id of a feature without one: `<file name>#features[<index>]`.
    static func unnamedID(file: URL, index: Int) -> String {
        "\(file.lastPathComponent)#features[\(index)]"
    }

    /// The point of a geometry, or `nil` for a null geometry.
    private static func position(
        of geometry: JSONValue?
    ) throws(EntryProblem) -> (latitude: Double, longitude: Double, altitude: Double?)? {
        switch geometry {
        case nil, .null?: return nil
        case .object?: break
        case let other?: throw EntryProblem("geometry is \(other.kindDescription), expected an object")
        }
        guard case .string("Point") = geometry?["type"] else {
            let type = geometry?["type"]?.text ?? "without a type"
            throw EntryProblem("geometry is a \(type); only Point features are photos")
        }
        guard case .array(let values) = geometry?["coordinates"], (2...3).contains(values.count) else {
            throw EntryProblem("coordinates must be [longitude, latitude] or [longitude, latitude, altitude]")
        }
        var numbers: [Double] = []
        for value in values {
            guard case .number(let number) = value else {
                throw EntryProblem("coordinates must be numbers, found \(value.kindDescription)")
            }
            numbers.append(number)
        }
        return (numbers[1], numbers[0], numbers.count == 3 ? numbers[2] : nil)
    }

    /// A string property; `nil` when missing or null.
    private static func text(_ properties: JSONValue, _ name: String) throws(EntryProblem) -> String? {
        switch properties[name] {
        case nil, .null?: return nil
        case let value?:
            guard let text = value.text else {
                throw EntryProblem("properties.\(name) is \(value.kindDescription), expected a string")
            }
            return text
        }
    }

    /// An image property as stored text (see ``ImageText``); `nil` when missing, null or empty.
    private static func reference(_ properties: JSONValue, _ name: String, images: ImageText) throws(EntryProblem) -> PhotoText? {
        guard let text = try text(properties, name), !text.isEmpty else { return nil }
        return try images.stored(text, name: "properties.\(name)")
    }
}
