public import Foundation
import MapCore
import MapJSON
import MapProjection

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
/// Without `title`, `subtitle` or `photographer`, the names other GeoJSON files use are read, in
/// order: `name`, `Name`, `NAME` (Natural Earth), `label` for the title; `description`,
/// `Description`, `desc` for the subtitle; `author`, `creator` for the photographer (a value of
/// those that is not a string is left unread).
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

    /// What a feature's photo is made of, picked from the feature as it is parsed.
    static let picks = JSONPicks(
        [
            ["type"], ["id"], ["geometry"], ["geometry", "type"], ["geometry", "coordinates"], ["properties"],
            ["properties", "title"], ["properties", "subtitle"], ["properties", "photographer"],
            ["properties", "image"], ["properties", "thumbnail"],
        ] + (titleAlternatives + subtitleAlternatives + photographerAlternatives).map { ["properties", $0] })

    /// What a title, subtitle or photographer is read from without its own property, in order.
    static let titleAlternatives = ["name", "Name", "NAME", "label"]
    static let subtitleAlternatives = ["description", "Description", "desc"]
    static let photographerAlternatives = ["author", "creator"]

    /// The picked values of a feature, by name.
    struct Feature {
        let picked: JSONPicked

        var type: JSONValue? { picked[0] }
        var id: JSONValue? { picked[1] }
        var geometry: JSONValue? { picked[2] }
        var geometryType: JSONValue? { picked[3] }
        var coordinates: JSONValue? { picked[4] }
        var properties: JSONValue? { picked[5] }
        /// A string property by its number in ``picks`` (6: title ... 10: thumbnail).
        func property(_ path: Int) -> JSONValue? { picked[path] }
    }

    /// One photo, or `nil` when the feature has no location.
    ///
    /// - Parameter toWGS84: The transformation of the file's legacy `crs` to longitudes and
    ///   latitudes; nil (the default) for positions already in them.
    static func photo(
        from picked: JSONPicked, index: Int, file: URL, images: ImageText, toWGS84: Projection? = nil
    ) throws(EntryProblem) -> Photo? {
        let feature = Feature(picked: picked)
        guard case .string("Feature") = feature.type else {
            throw EntryProblem(
                "is \(feature.type?.text.map { "a \($0)" } ?? picked.element.kindDescription), expected a Feature")
        }
        guard var position = try position(of: feature) else { return nil }
        if let toWGS84 {
            // Easting then northing, as GDAL reads a legacy crs.
            guard let placed = try? toWGS84.transform(x: position.longitude, y: position.latitude), placed.x.isFinite,
                placed.y.isFinite
            else {
                throw EntryProblem(
                    "PROJ cannot place [\(position.longitude), \(position.latitude)] of \(toWGS84.source) on the globe")
            }
            position = (placed.y, placed.x, position.altitude)
        }
        let coordinate: Coordinate
        do {
            guard let located = try PhotoLocation.coordinate(latitude: position.latitude, longitude: position.longitude)
            else { return nil }
            coordinate = located
        } catch {
            throw EntryProblem(error)
        }
        switch feature.properties ?? .null {
        case .object, .null: break
        case let properties: throw EntryProblem("properties is \(properties.kindDescription), expected an object")
        }
        return Photo(
            id: PhotoText(feature.id?.text ?? unnamedID(file: file, index: index)),
            title: try text(feature, 6, "title") ?? alternative(feature, from: 11, count: titleAlternatives.count),
            subtitle: try text(feature, 7, "subtitle")
                ?? alternative(feature, from: 11 + titleAlternatives.count, count: subtitleAlternatives.count),
            coordinate: coordinate,
            altitudeMeters: position.altitude,
            photographer: try text(feature, 8, "photographer")
                ?? alternative(
                    feature, from: 11 + titleAlternatives.count + subtitleAlternatives.count,
                    count: photographerAlternatives.count),
            imageText: try reference(feature, 9, "image", images: images),
            thumbnailText: try reference(feature, 10, "thumbnail", images: images)
        )
    }

    /// The id of a feature without one: `<file name>#features[<index>]`.
    static func unnamedID(file: URL, index: Int) -> String {
        "\(file.lastPathComponent)#features[\(index)]"
    }

    /// The point of the feature's geometry, or `nil` for a null geometry.
    private static func position(
        of feature: Feature
    ) throws(EntryProblem) -> (latitude: Double, longitude: Double, altitude: Double?)? {
        switch feature.geometry {
        case nil, .null?: return nil
        case .object?: break
        case let other?: throw EntryProblem("geometry is \(other.kindDescription), expected an object")
        }
        guard case .string("Point") = feature.geometryType else {
            let type = feature.geometryType?.text ?? "without a type"
            throw EntryProblem("geometry is a \(type); only Point features are photos")
        }
        guard case .array(let values) = feature.coordinates, (2...3).contains(values.count) else {
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

    /// A string property (its number in ``picks``, its name for messages); `nil` when missing or null.
    private static func text(_ feature: Feature, _ path: Int, _ name: String) throws(EntryProblem) -> String? {
        switch feature.property(path) {
        case nil, .null?: return nil
        case let value?:
            guard let text = value.text else {
                throw EntryProblem("properties.\(name) is \(value.kindDescription), expected a string")
            }
            return text
        }
    }

    /// The first non-empty string among `count` alternative properties picked from `first` on.
    private static func alternative(_ feature: Feature, from first: Int, count: Int) -> String? {
        (first..<first + count).lazy.compactMap { feature.property($0)?.text }.first { !$0.isEmpty }
    }

    /// An image property as stored text (see ``ImageText``); `nil` when missing, null or empty.
    private static func reference(_ feature: Feature, _ path: Int, _ name: String, images: ImageText)
        throws(EntryProblem) -> PhotoText?
    {
        guard let text = try text(feature, path, name), !text.isEmpty else { return nil }
        return try images.stored(text, name: "properties.\(name)")
    }
}
