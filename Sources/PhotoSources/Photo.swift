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
public struct Photo: Hashable, Sendable, Codable {
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
    public var image: ImageReference?
    /// A small image for the callout, as a local file or a remote URL; `nil` when the source names none.
    ///
    /// For a local JPEG this is the photo itself: ``ThumbnailCache`` decodes it at a reduced scale.
    public var thumbnail: ImageReference?

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
        self.id = id
        self.title = Photo.nonEmpty(title)
        self.subtitle = Photo.nonEmpty(subtitle)
        self.coordinate = coordinate
        self.altitudeMeters = altitudeMeters
        self.horizontalAccuracyMeters = horizontalAccuracyMeters
        self.dateTaken = dateTaken
        self.photographer = Photo.nonEmpty(photographer)
        self.image = image
        self.thumbnail = thumbnail
    }

    /// The text a callout shows first: the title, else the subtitle, else "Untitled". Never empty.
    public var calloutTitle: String { title ?? subtitle ?? Photo.untitled }

    /// The callout's second line: the subtitle, unless it already stands in for a missing title.
    public var calloutSubtitle: String? { title == nil ? nil : subtitle }

    /// The callout title of a photo with neither a title nor a subtitle.
    public static let untitled = "Untitled"

    /// `text` trimmed of whitespace and newlines, or `nil` when nothing is left.
    static func nonEmpty(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}
