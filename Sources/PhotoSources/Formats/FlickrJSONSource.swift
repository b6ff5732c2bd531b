public import Foundation
import MapCore
import MapJSON

/// Photos from a Flickr API answer (`flickr.photos.search` and friends with
/// `extras=geo,owner_name,description,date_taken,url_sq,url_s,url_l`), read as Photomania's loader reads it.
///
/// The document is an object with `photos.photo[]`; each photo has:
///
/// | member | becomes |
/// | --- | --- |
/// | `id` (string or number) | ``Photo/id`` |
/// | `title` | ``Photo/title`` |
/// | `description._content` | ``Photo/subtitle`` |
/// | `latitude`, `longitude` (numbers or strings) | ``Photo/coordinate`` |
/// | `ownername` | ``Photo/photographer`` |
/// | `datetaken` (`2016-05-01 18:02:11`, local time of unknown zone, read as UTC) | ``Photo/dateTaken`` |
/// | `url_l`, else `url_s`, else `url_sq` | ``Photo/image`` |
/// | `url_sq`, else `url_s`, else `url_l` | ``Photo/thumbnail`` |
///
/// Flickr reports 0, 0 for a photo that was never geotagged: such photos, and those without
/// coordinates, are skipped and counted. An answer with `"stat": "fail"` is an error with Flickr's message.
public struct FlickrJSONSource: PhotoSource {
    public let url: URL

    /// Creates a source for the JSON file at `url`.
    public init(url: URL) {
        self.url = url
    }

    public func load() throws(PhotoSourceError) -> PhotoCollection {
        try JSONPhotoDocument.load(from: url, formats: [.flickr])
    }

    /// The photos' path, streamed one photo at a time.
    static let entriesPath = ["photos", "photo"]

    /// The text members of a photo, each a string or an object `{"_content": "…"}`.
    private static let textMembers = ["title", "description", "datetaken", "ownername", "url_l", "url_s", "url_sq"]

    /// What a photo is made of, picked from its entry as it is parsed: `id`, `latitude`,
    /// `longitude`, then each text member and its `_content`.
    static let picks = JSONPicks(
        [["id"], ["latitude"], ["longitude"]] + textMembers.flatMap { [[$0], [$0, "_content"]] })

    /// Checks what the whole document must be (its photos already taken out).
    static func check(_ document: JSONValue, file: URL) throws(PhotoSourceError) {
        if case .string("fail") = document["stat"] {
            let message = document["message"]?.text ?? "no message"
            throw .malformed(file: file, reason: "is a failed Flickr answer: \(message)")
        }
        guard case .array = document["photos"]?["photo"] else {
            throw .malformed(
                file: file,
                reason: "has no 'photos.photo' list: expected a Flickr-style photo list or a GeoJSON FeatureCollection"
            )
        }
    }

    /// One photo, or `nil` when it has no location.
    static func photo(from entry: JSONPicked, images: ImageText) throws(EntryProblem) -> Photo? {
        guard case .object = entry.element else {
            throw EntryProblem("is \(entry.element.kindDescription), expected an object")
        }
        guard let id = entry[0]?.text, !id.isEmpty else { throw EntryProblem("has no id") }
        let latitude = try DegreesText.degrees(entry[1], name: "latitude")
        let longitude = try DegreesText.degrees(entry[2], name: "longitude")
        guard let coordinate = try DegreesText.coordinate(latitude: latitude, longitude: longitude) else {
            return nil
        }
        // The text members by their number in `textMembers`: title 0, description 1, datetaken 2,
        // ownername 3, url_l 4, url_s 5, url_sq 6.
        let image = try reference(entry, members: [4, 5, 6], images: images)
        let thumbnail = try reference(entry, members: [6, 5, 4], images: images)
        return Photo(
            id: PhotoText(id),
            title: try text(entry, 0),
            subtitle: try text(entry, 1),
            coordinate: coordinate,
            dateTaken: try text(entry, 2).flatMap { DateText.date(fromFlickr: $0) },
            photographer: try text(entry, 3),
            imageText: image,
            thumbnailText: thumbnail
        )
    }

    /// The text member number `number` of `textMembers` in a picked entry.
    private static func text(_ entry: JSONPicked, _ number: Int) throws(EntryProblem) -> String? {
        let value = entry[3 + 2 * number]
        if case .object? = value { return try text(entry[4 + 2 * number], name: "\(textMembers[number])._content") }
        return try text(value, name: textMembers[number])
    }

    /// A text member, which Flickr writes either as a string or as an object `{"_content": "…"}`.
    private static func text(_ value: JSONValue?, name: String) throws(EntryProblem) -> String? {
        switch value {
        case nil, .null?: return nil
        case .object?: return try text(value?["_content"], name: "\(name)._content")
        case let value?:
            guard let text = value.text else {
                throw EntryProblem("\(name) is \(value.kindDescription), expected a string")
            }
            return text
        }
    }

    /// The first of `members` (numbers in `textMembers`) that holds a URL, as stored text (see ``ImageText``).
    private static func reference(_ entry: JSONPicked, members: [Int], images: ImageText) throws(EntryProblem)
        -> PhotoText?
    {
        for member in members {
            guard let text = try text(entry, member), !text.isEmpty else { continue }
            return try images.stored(text, name: textMembers[member])
        }
        return nil
    }
}
