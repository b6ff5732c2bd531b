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
    public var id: String {
        @inlinable get { idText.text }
        set { idText = PhotoText(newValue) }
    }
    /// The photo's own title, or `nil` when the source gave none (or only whitespace).
    public var title: String?
    /// A second line: a description or caption, or `nil`.
    public var subtitle: String?
    /// Where the photo was taken, on WGS 84.
    public var coordinate: Coordinate
    /// Height above mean sea level in meters, negative below it; `nil` when unknown.
    public var altitudeMeters: Double? {
        get { altitudeStorage.isNaN ? nil : altitudeStorage }
        set { altitudeStorage = newValue ?? .nan }
    }
    /// The radius of uncertainty of ``coordinate`` in meters (EXIF GPSHPositioningError); `nil` when unknown.
    public var horizontalAccuracyMeters: Double? {
        get { accuracyStorage.isNaN ? nil : accuracyStorage }
        set { accuracyStorage = newValue ?? .nan }
    }
    /// When the photo was taken; `nil` when unknown.
    public var dateTaken: Date? {
        get { dateStorage.isNaN ? nil : Date(timeIntervalSinceReferenceDate: dateStorage) }
        set { dateStorage = newValue?.timeIntervalSinceReferenceDate ?? .nan }
    }
    /// Who took the photo, or `nil` when the source does not say.
    public var photographer: String?
    /// The full-size image, as a local file or a remote URL; `nil` when the source names none.
    ///
    /// Sources store the text they read and it is resolved (through Foundation's URL APIs) only
    /// when asked for, so that a million rows cost no URL work; text that Foundation cannot read
    /// as a URL after all (an `http` URL with a space) resolves to `nil`.
    public var image: ImageReference? {
        get { imageText.flatMap { ImageReference(resolving: $0.text) } }
        set { imageText = newValue.map { PhotoText($0.storedText) } }
    }
    /// A small image for the callout, as a local file or a remote URL; `nil` when the source names none.
    ///
    /// For a local JPEG this is the photo itself: ``ThumbnailCache`` decodes it at a reduced scale.
    /// Resolved when asked for, as ``image``.
    public var thumbnail: ImageReference? {
        get { thumbnailText.flatMap { ImageReference(resolving: $0.text) } }
        set { thumbnailText = newValue.map { PhotoText($0.storedText) } }
    }

    // Stored compactly, for sources of a million photos: texts in two parts when a source's
    // photos share the first, and optional numbers as NaN for nil (8 bytes each instead of 16).
    /// ``id`` as stored.
    @usableFromInline var idText: PhotoText
    /// ``altitudeMeters``, NaN for nil.
    private var altitudeStorage: Double
    /// ``horizontalAccuracyMeters``, NaN for nil.
    private var accuracyStorage: Double
    /// ``dateTaken`` in seconds since 2001-01-01 UTC, NaN for nil.
    private var dateStorage: Double
    /// ``image`` as stored: an absolute or `~` path, or a URL (see ``ImageText``).
    var imageText: PhotoText?
    /// ``thumbnail`` as stored.
    var thumbnailText: PhotoText?

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
            id: PhotoText(id), title: title, subtitle: subtitle, coordinate: coordinate, altitudeMeters: altitudeMeters,
            horizontalAccuracyMeters: horizontalAccuracyMeters, dateTaken: dateTaken, photographer: photographer,
            imageText: image.map { PhotoText($0.storedText) }, thumbnailText: thumbnail.map { PhotoText($0.storedText) }
        )
    }

    /// Creates a photo whose image references are text from ``ImageText``, resolved when asked for.
    init(
        id: PhotoText,
        title: String?,
        subtitle: String? = nil,
        coordinate: Coordinate,
        altitudeMeters: Double? = nil,
        horizontalAccuracyMeters: Double? = nil,
        dateTaken: Date? = nil,
        photographer: String? = nil,
        imageText: PhotoText?,
        thumbnailText: PhotoText?
    ) {
        idText = id
        self.title = Photo.nonEmpty(title)
        self.subtitle = Photo.nonEmpty(subtitle)
        self.coordinate = coordinate
        altitudeStorage = altitudeMeters ?? .nan
        accuracyStorage = horizontalAccuracyMeters ?? .nan
        dateStorage = dateTaken?.timeIntervalSinceReferenceDate ?? .nan
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
        idText = PhotoText(try container.decode(String.self, forKey: .id))
        title = try container.decodeIfPresent(String.self, forKey: .title)
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle)
        coordinate = try container.decode(Coordinate.self, forKey: .coordinate)
        altitudeStorage = try container.decodeIfPresent(Double.self, forKey: .altitudeMeters) ?? .nan
        accuracyStorage = try container.decodeIfPresent(Double.self, forKey: .horizontalAccuracyMeters) ?? .nan
        dateStorage = try container.decodeIfPresent(Date.self, forKey: .dateTaken)?.timeIntervalSinceReferenceDate ?? .nan
        photographer = try container.decodeIfPresent(String.self, forKey: .photographer)
        imageText = try container.decodeIfPresent(ImageReference.self, forKey: .image).map { PhotoText($0.storedText) }
        thumbnailText = try container.decodeIfPresent(ImageReference.self, forKey: .thumbnail).map { PhotoText($0.storedText) }
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

/// Text a ``Photo`` stores, in two parts when many photos of a source share the first (a CSV
/// file's name before each row's line number, a folder before each relative image path): the
/// shared part is one string for them all and the rest usually fits inside the `String` itself
/// (15 UTF-8 bytes or fewer), so a million rows allocate nothing for it.
@usableFromInline
struct PhotoText: Sendable, Hashable {
    /// The part shared with other photos, or `nil`.
    @usableFromInline let prefix: String?
    /// The rest.
    @usableFromInline let suffix: String

    init(prefix: String? = nil, _ suffix: String) {
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The whole text.
    @inlinable var text: String {
        guard let prefix else { return suffix }
        return prefix + suffix
    }

    @usableFromInline static func == (lhs: PhotoText, rhs: PhotoText) -> Bool { lhs.text == rhs.text }
    @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(text) }
}
