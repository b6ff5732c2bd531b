import ImageDiff
import MapCore
import MapPhotos
import MapRenderer
import MapStyle

/// A photographer's map, as `mapwright render` asks for it: photos as pins, one selected with
/// its callout, tracks and shapes over a basemap, framed to fit or to a chosen region.
public struct PhotoMapRequest: Sendable {
    /// Which photo shows its callout.
    public enum Selection: Hashable, Sendable {
        case none
        /// The first photo, in load order (Photomania's auto-selection).
        case first
        /// The photo with this id, else the first whose title matches (ignoring case).
        case photo(String)
    }

    /// What part of the world the map shows.
    public enum Framing: Hashable, Sendable {
        /// Everything shown (photos, overlays) with room for pins and the callout.
        case fitContent
        /// A region, widened to the image's aspect.
        case region(CoordinateRegion)
        /// A centre and zoom level.
        case center(Coordinate, zoomLevel: Double)
        /// A country or state/province from the basemap, by name.
        case place(String)
    }

    public var photos: [Photo]
    public var selection: Selection
    /// Tracks, areas and circles.
    public var overlays: [MapOverlay]
    public var framing: Framing
    /// The image's size in points.
    public var size: ViewSize
    /// Pixels per point: 1, 2 or 3.
    public var scale: Double
    public var style: Style
    /// One colour for every pin; `nil` gives each photographer a stable colour of the style's palette.
    public var pinColor: Color?
    /// A custom marker image, anchored at its bottom centre, drawn at its pixel size / 2 points.
    public var markerImage: RGBAImage?
    /// Whether each photo's accuracy circle is drawn when known.
    public var showsAccuracy: Bool

    /// Creates a request; the defaults show the photos as pins on a 1200 × 800-point map.
    public init(
        photos: [Photo],
        style: Style,
        selection: Selection = .none,
        overlays: [MapOverlay] = [],
        framing: Framing = .fitContent,
        size: ViewSize = ViewSize(width: 1200, height: 800),
        scale: Double = 1,
        pinColor: Color? = nil,
        markerImage: RGBAImage? = nil,
        showsAccuracy: Bool = false
    ) {
        self.photos = photos
        self.style = style
        self.selection = selection
        self.overlays = overlays
        self.framing = framing
        self.size = size
        self.scale = scale
        self.pinColor = pinColor
        self.markerImage = markerImage
        self.showsAccuracy = showsAccuracy
    }
}
