import Foundation
import MapCore

/// One geotagged photo, whichever source it came from: a JPEG's EXIF, a Flickr-style JSON list,
/// a GeoJSON feature or a CSV row.
///
/// Text fields hold what the source said, trimmed of surrounding whitespace; an empty string is
/// stored as `nil`. The callout shows ``calloutTitle`` and ``calloutSubtitle``, which apply the
/// title rule so that a callout is never blank:
///
/// ```swift
/// let photo = Photo(id: "1", title: "", subtitle: "Fog over the valley", coordinate: yosemite)
/// photo.calloutTitle    // "Fog over the valley"
/// photo.calloutSubtitle // nil: the subtitle already stands in for the title
/// ```
public struct Photo: Sendable {
    /// Identifies the photo within its source: the path relative to the photo folder, a Flickr
    /// photo id, a GeoJSON feature id, or `<file name>:<line>` for a CSV row.
    public var id: String
    /// The photo's own title, or `nil` when the source gave none (or only whitespace).
    public var title: String?
    /// A second line: a description or caption, or `nil`.
    public var subtitle: String?
    /// Where the photo was taken, on WGS 84.
    public var coordinate: Coordinate
    /// Height above mean sea level in meters, negative below it; `nil` when unknown.
    public var altitudeMeters: Double?
    /// The radius of uncertainty of ``coordinate`` in meters (EXIF GPSHPositioningError); `nil` when unknown.
    public var horizontalAccuracyMeters: Double?
    /// When the photo was taken; `nil` when unknown.
    public var dateTaken: Date?
    /// Who took the photo, or `nil` when the source does not say.
    public var photographer: String?
    /// The full-size image, as a local file or a remote URL; `nil` when the source names none.
    ///
    /// Sources store the text they read and it is resolved (through Foundation's URL APIs) only
    /// when asked for, so that a million rows cost no URL work; text that Foundation cannot read
    /// as a URL after all (an `http` URL with a space) resolves to `nil`.
    public var image: ImageReference? {
        get { imageText.flatMap { ImageReference(resolving: $0) } }
        set { imageText = newValue?.storedText }
    }
    /// A small image for the callout, as a local file or a remote URL; `nil` when the source names none.
    ///
    /// For a local JPEG this is the photo itself: ``ThumbnailCache`` decodes it at a reduced scale.
    /// Resolved when asked for, as ``image``.
    public var thumbnail: ImageReference? {
        get { thumbnailText.flatMap { ImageReference(resolving: $0) } }
        set { thumbnailText = newValue?.storedText }
    }

    /// ``image`` as stored: an absolute or `~` path, or a URL (see ``ImageText``).
    var imageText: String?
    /// ``thumbnail`` as stored.
    var thumbnailText: String?

    /// Creates a photo; `title`, `subtitle` and `photographer` are trimmed and an empty one becomes `nil`.
    public init(
        id: String,
        title: String?,
        subtitle: String? = nil,
        coordinate: Coordinate,
        altitudeMeters: Double? = nil,
        horizontalAccuracyMeters: Double? = nil,
        dateTaken: Date? = nil,
        photographer: String? = nil,
        image: ImageReference? = nil,
        thumbnail: ImageReference? = nil
    ) {
        self.init(
            id: id, title: title, subtitle: subtitle, coordinate: coordinate, altitudeMeters: altitudeMeters,
            horizontalAccuracyMeters: horizontalAccuracyMeters, dateTaken: dateTaken, photographer: photographer,
            imageText: image?.storedText, thumbnailText: thumbnail?.storedText
        )
    }

    /// Creates a photo whose image references are text from ``ImageText``, resolved when asked for.
    init(
        id: String,
        title: String?,
        subtitle: String? = nil,
        coordinate: Coordinate,
        altitudeMeters: Double? = nil,
        horizontalAccuracyMeters: Double? = nil,
        dateTaken: Date? = nil,
        photographer: String? = nil,
        imageText: String?,
        thumbnailText: String?
    ) {
        self.id = id
        self.title = Photo.nonEmpty(title)
        self.subtitle = Photo.nonEmpty(subtitle)
        self.coordinate = coordinate
        self.altitudeMeters = altitudeMeters
        self.horizontalAccuracyMeters = horizontalAccuracyMeters
        self.dateTaken = dateTaken
        self.photographer = Photo.nonEmpty(photographer)
        self.imageText = imageText
        self.thumbnailText = thumbnailText
    }

    /// The text a callout shows first: the title, else the subtitle, else "Untitled". Never empty.
    @inlinable public var calloutTitle: String { title ?? subtitle ?? Photo.untitled }

    /// The callout's second line: the subtitle, unless it already stands in for a missing title.
    @inlinable public var calloutSubtitle: String? { title == nil ? nil : subtitle }

    /// The callout title of a photo with neither a title nor a subtitle.
    public static let untitled = "Untitled"

    /// `text` trimmed of whitespace and newlines, or `nil` when nothing is left.
    ///
    /// Text that starts and ends with a character that is surely not white space (printable
    /// ASCII, or a scalar in U+00A1..<U+1680 or U+3001..<U+D800, where Unicode puts none) is
    /// returned as is without asking Foundation: the common case.
    static func nonEmpty(_ text: String?) -> String? {
        guard let text else { return nil }
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return nil }
        func isSurelyNotWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x21..<0x7F, 0xA1..<0x1680, 0x3001..<0xD800: return true
            default: return false
            }
        }
        if isSurelyNotWhiteSpace(first), isSurelyNotWhiteSpace(last) { return text }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension Photo: Hashable {
    /// Photos are equal when every field is, image references compared resolved.
    public static func == (lhs: Photo, rhs: Photo) -> Bool {
        lhs.id == rhs.id && lhs.title == rhs.title && lhs.subtitle == rhs.subtitle && lhs.coordinate == rhs.coordinate
            && lhs.altitudeMeters == rhs.altitudeMeters && lhs.horizontalAccuracyMeters == rhs.horizontalAccuracyMeters
            && lhs.dateTaken == rhs.dateTaken && lhs.photographer == rhs.photographer
            && lhs.image == rhs.image && lhs.thumbnail == rhs.thumbnail
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(coordinate)
        hasher.combine(title)
    }
}

extension Photo: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, title, subtitle, coordinate, altitudeMeters, horizontalAccuracyMeters, dateTaken, photographer
        case image, thumbnail
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
        coordinate = try container.decode(Coordinate.self, forKey: .coordinate)
        altitudeMeters = try container.decodeIfPresent(Double.self, forKey: .altitudeMeters)
        horizontalAccuracyMeters = try container.decodeIfPresent(Double.self, forKey: .horizontalAccuracyMeters)
        dateTaken = try container.decodeIfPresent(Date.self, forKey: .dateTaken)
        photographer = try container.decodeIfPresent(String.self, forKey: .photographer)
        imageText = try container.decodeIfPresent(ImageReference.self, forKey: .image)?.storedText
        thumbnailText = try container.decodeIfPresent(ImageReference.self, forKey: .thumbnail)?.storedText
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(subtitle, forKey: .subtitle)
        try container.encode(coordinate, forKey: .coordinate)
        try container.encodeIfPresent(altitudeMeters, forKey: .altitudeMeters)
        try container.encodeIfPresent(horizontalAccuracyMeters, forKey: .horizontalAccuracyMeters)
        try container.encodeIfPresent(dateTaken, forKey: .dateTaken)
        try container.encodeIfPresent(photographer, forKey: .photographer)
        try container.encodeIfPresent(image, forKey: .image)
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
    }
}
