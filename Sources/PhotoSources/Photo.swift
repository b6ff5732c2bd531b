public import Foundation
public import MapCore

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
    /// photo id, a GeoJSON feature id, or a CSV row's `id` field (`<file name>:<line>` without one).
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
        get { extras?.altitudeMeters }
        set { changeExtras { $0.altitudeMeters = newValue } }
    }
    /// The radius of uncertainty of ``coordinate`` in meters (EXIF GPSHPositioningError); `nil` when unknown.
    public var horizontalAccuracyMeters: Double? {
        get { extras?.horizontalAccuracyMeters }
        set { changeExtras { $0.horizontalAccuracyMeters = newValue } }
    }
    /// When the photo was taken; `nil` when unknown.
    public var dateTaken: Date? {
        get { extras?.dateTaken }
        set { changeExtras { $0.dateTaken = newValue } }
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
        set { changeExtras { $0.thumbnailText = newValue.map { PhotoText($0.storedText) } } }
    }

    // Stored compactly, for sources of a million photos: texts in two parts when a source's
    // photos share the first, and what most rows lack (altitude, accuracy, date, thumbnail) in
    // one shared box, absent when all of it is (8 bytes instead of 64 a photo).
    /// ``id`` as stored.
    @usableFromInline var idText: PhotoText
    /// ``image`` as stored: an absolute or `~` path, or a URL (see ``ImageText``).
    var imageText: PhotoText?
    /// ``thumbnail`` as stored.
    var thumbnailText: PhotoText? { extras?.thumbnailText }
    /// The fields most photos lack; `nil` when all are.
    private var extras: Extras?

    /// ``altitudeMeters``, ``horizontalAccuracyMeters``, ``dateTaken`` and ``thumbnail``, in an
    /// immutable box that photos copied from one another share; changing one makes a new box.
    private final class Extras: Sendable {
        let altitudeMeters: Double?
        let horizontalAccuracyMeters: Double?
        let dateTaken: Date?
        let thumbnailText: PhotoText?

        /// A box, or `nil` when every field is `nil`.
        static func make(
            altitudeMeters: Double?, horizontalAccuracyMeters: Double?, dateTaken: Date?, thumbnailText: PhotoText?
        ) -> Extras? {
            guard altitudeMeters != nil || horizontalAccuracyMeters != nil || dateTaken != nil || thumbnailText != nil
            else {
                return nil
            }
            return Extras(
                altitudeMeters: altitudeMeters, horizontalAccuracyMeters: horizontalAccuracyMeters,
                dateTaken: dateTaken, thumbnailText: thumbnailText)
        }

        private init(
            altitudeMeters: Double?, horizontalAccuracyMeters: Double?, dateTaken: Date?, thumbnailText: PhotoText?
        ) {
            self.altitudeMeters = altitudeMeters
            self.horizontalAccuracyMeters = horizontalAccuracyMeters
            self.dateTaken = dateTaken
            self.thumbnailText = thumbnailText
        }
    }

    /// The extras' fields, to change.
    private struct ExtraFields {
        var altitudeMeters: Double?
        var horizontalAccuracyMeters: Double?
        var dateTaken: Date?
        var thumbnailText: PhotoText?
    }

    /// Replaces the extras box by one with `change` applied.
    private mutating func changeExtras(_ change: (inout ExtraFields) -> Void) {
        var fields = ExtraFields(
            altitudeMeters: extras?.altitudeMeters, horizontalAccuracyMeters: extras?.horizontalAccuracyMeters,
            dateTaken: extras?.dateTaken, thumbnailText: extras?.thumbnailText
        )
        change(&fields)
        extras = Extras.make(
            altitudeMeters: fields.altitudeMeters, horizontalAccuracyMeters: fields.horizontalAccuracyMeters,
            dateTaken: fields.dateTaken, thumbnailText: fields.thumbnailText
        )
    }

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
        extras = Extras.make(
            altitudeMeters: altitudeMeters, horizontalAccuracyMeters: horizontalAccuracyMeters,
            dateTaken: dateTaken, thumbnailText: thumbnailText
        )
        self.photographer = Photo.nonEmpty(photographer)
        self.imageText = imageText
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

extension Photo {
    /// Creates a photo whose image and thumbnail are kept as the text ``ImageReference/storedText``
    /// gives (an absolute path or a URL), resolved only when asked for: what a photo library
    /// reads back, a million rows without URL work.
    public init(
        id: String, title: String?, subtitle: String? = nil, coordinate: Coordinate, altitudeMeters: Double? = nil,
        horizontalAccuracyMeters: Double? = nil, dateTaken: Date? = nil, photographer: String? = nil,
        storedImage: String?, storedThumbnail: String?
    ) {
        self.init(
            id: PhotoText(id), title: title, subtitle: subtitle, coordinate: coordinate, altitudeMeters: altitudeMeters,
            horizontalAccuracyMeters: horizontalAccuracyMeters, dateTaken: dateTaken, photographer: photographer,
            imageText: storedImage.map { PhotoText($0) }, thumbnailText: storedThumbnail.map { PhotoText($0) })
    }

    /// ``image`` as stored: the text ``ImageReference/storedText`` gives, without resolving it.
    public var storedImage: String? { imageText?.text }
    /// ``thumbnail`` as stored.
    public var storedThumbnail: String? { thumbnailText?.text }
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
        extras = Extras.make(
            altitudeMeters: try container.decodeIfPresent(Double.self, forKey: .altitudeMeters),
            horizontalAccuracyMeters: try container.decodeIfPresent(Double.self, forKey: .horizontalAccuracyMeters),
            dateTaken: try container.decodeIfPresent(Date.self, forKey: .dateTaken),
            thumbnailText: try container.decodeIfPresent(ImageReference.self, forKey: .thumbnail).map {
                PhotoText($0.storedText)
            }
        )
        photographer = try container.decodeIfPresent(String.self, forKey: .photographer)
        imageText = try container.decodeIfPresent(ImageReference.self, forKey: .image).map { PhotoText($0.storedText) }
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
