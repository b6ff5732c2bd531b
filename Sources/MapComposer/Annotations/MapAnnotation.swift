import Foundation
public import ImageCodec
public import MapCore
public import MapStyle

/// A marker at a coordinate, with what its callout shows when it is selected (MapKit's
/// MKAnnotation with its annotation view).
public struct MapAnnotation: Hashable, Sendable, Identifiable {
    /// How an annotation is drawn on the map.
    public enum Marker: Hashable, Sendable {
        /// The classic pin in a colour, its needle's tip on the coordinate.
        case pin(Color)
        /// A custom image; `anchor` is the point of the image, in its own points from the
        /// top-left, that sits on the coordinate. The image is drawn `pointSize` large.
        case image(RGBAImage, pointSize: ViewSize, anchor: ViewPoint)
    }

    /// The side of a callout's square thumbnail, in points: 46. A thumbnail of this many points
    /// × the render's scale pixels is drawn without resampling.
    public static let thumbnailSizePoints: Double = 46

    /// Identifies the annotation for selection (`--select ID`).
    public var id: String
    /// Where the marker points.
    public var coordinate: Coordinate
    /// The callout's first line, drawn bold; never empty when shown (see ``calloutTitle``).
    public var title: String
    /// The callout's second line.
    public var subtitle: String?
    /// The marker.
    public var marker: Marker
    /// The image in the callout's left accessory (a photo thumbnail), drawn
    /// ``thumbnailSizePoints`` × ``thumbnailSizePoints`` points.
    public var thumbnail: RGBAImage?
    /// Annotations cluster only with annotations that share this (MapKit's clusteringIdentifier);
    /// `nil` never clusters.
    public var clusteringIdentifier: String?

    /// Creates an annotation.
    public init(
        id: String,
        coordinate: Coordinate,
        title: String,
        subtitle: String? = nil,
        marker: Marker,
        thumbnail: RGBAImage? = nil,
        clusteringIdentifier: String? = nil
    ) {
        self.id = id
        self.coordinate = coordinate
        self.title = title
        self.subtitle = subtitle
        self.marker = marker
        self.thumbnail = thumbnail
        self.clusteringIdentifier = clusteringIdentifier
    }

    /// The title a callout shows: the title, else the subtitle, else "Untitled".
    public var calloutTitle: String {
        if !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return title }
        if let subtitle, !subtitle.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return subtitle }
        return "Untitled"
    }
}
