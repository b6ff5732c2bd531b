public import ImageCodec
public import MapCore
public import MapRenderer
public import MapStyle
public import PhotoSources

/// A photographer's map, as `mapwright render` asks for it: photos as pins, one selected with
/// its callout, tracks and shapes over a basemap, framed to fit or to a chosen region.
public struct PhotoMapRequest: Sendable {
    /// Which photo shows its callout.
    public enum Selection: Hashable, Sendable {
        /// No callout.
        case none
        /// The first photo, in load order (Photomania's auto-selection).
        case first
        /// The photo with this id, else the first whose title is this (ignoring case), else the
        /// one whose title starts with it, else the one whose title contains it (see
        /// `PhotoMapBuilder.selectedPhoto(in:)`).
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
        /// A country or state/province from the basemap, by name, looked up when the map is
        /// framed (``PhotoMapError/unknownPlace(_:suggestions:)`` when none has that name).
        case place(String)
        /// A place looked up already (`MapData.resolvePlace(named:style:)`), framed as
        /// ``place(_:)`` frames it without looking it up again.
        case resolvedPlace(ResolvedPlace)
        /// A camera: its centre, heading, pitch and altitude (MapKit's MKMapCamera); the zoom
        /// follows from the altitude and the image's height. ``PhotoMapRequest/headingDegrees``
        /// and ``PhotoMapRequest/pitchDegrees`` are not used.
        case camera(Camera)
    }

    /// Whether pins are clustered.
    public enum Clustering: Hashable, Sendable {
        /// Clustered whenever two pins would overlap at the rendered zoom.
        case automatic
        /// Clustered whenever the index groups them, overlapping or not.
        case always
        /// Never clustered: every photo has its own pin.
        case never
    }

    /// Which photos may share a cluster (MapKit's clusteringIdentifier).
    public enum ClusterGrouping: String, Hashable, Sendable, CaseIterable {
        /// Only photos of the same photographer, in that photographer's colour.
        case photographer
        /// Any photos, in the style's cluster colour.
        case all
        /// No clustering at all.
        case none

        /// The clustering identifier a photo's annotation gets: its photographer (`""` when
        /// unknown), `""` for every photo, or `nil` (never clustered).
        public func clusteringIdentifier(for photo: Photo) -> String? {
            switch self {
            case .photographer: return photo.photographer ?? ""
            case .all: return ""
            case .none: return nil
            }
        }
    }

    /// The photos drawn as pins, in load order.
    public var photos: [Photo]
    /// Which photo shows its callout. The default is none.
    public var selection: Selection
    /// Tracks, areas and circles.
    public var overlays: [MapOverlay]
    /// What part of the world the map shows. The default fits the content.
    public var framing: Framing
    /// The image's size in points.
    public var size: ViewSize
    /// Pixels per point: 1, 2 or 3.
    public var scale: Double
    /// The basemap style, whose `metadata.mapwright` also gives the pins, callout and overlays their look.
    public var style: Style
    /// One colour for every pin; `nil` gives each photographer a colour of the style's palette,
    /// different for the photographers on one map (see `MapwrightMetadata.Pins.colors(forKeys:)`).
    public var pinColor: Color?
    /// A custom marker image, anchored at its bottom centre, drawn at its pixel size / 2 points.
    public var markerImage: RGBAImage?
    /// Whether each photo's accuracy circle is drawn when known.
    public var showsAccuracy: Bool
    /// Whether pins are clustered. The default is automatic.
    public var clustering: Clustering
    /// Which photos may share a cluster. The default is by photographer.
    public var clusterGrouping: ClusterGrouping
    /// Markers drawn besides the photos (a static map's `marker=`), over them, never clustered
    /// or selected, and framed with them. The default is none.
    public var markers: [MapAnnotation] = []
    /// The camera's heading in degrees clockwise from true north. Every framing but
    /// ``Framing/camera(_:)`` (which has its own) is turned to it about its centre, and zoomed
    /// out as far as it takes to keep showing what it framed. The default is 0, north up.
    public var headingDegrees: Double = 0
    /// The camera's pitch in degrees from looking straight down, in [0, `Camera.maximumPitchDegrees`]:
    /// the map is drawn in perspective (see `MapSnapshotter`). Applied as ``headingDegrees`` is.
    /// The default is 0, flat.
    public var pitchDegrees: Double = 0
    /// Room kept free around what is shown, in points, besides ``PhotoMapBuilder/fitMarginPoints``:
    /// when fitting the content, and around a ``Framing/region(_:)``. The default is none.
    public var padding: EdgeInsets = EdgeInsets()
    /// Whether the photos are drawn as a density map of where they were taken (a heatmap
    /// under the style's labels, see ``PhotoHeatmap``) instead of pins: no pins, clusters or
    /// callout for them; ``markers`` are still drawn. The default is false.
    public var showsHeatmap = false

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
        showsAccuracy: Bool = false,
        clustering: Clustering = .automatic,
        clusterGrouping: ClusterGrouping = .photographer
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
        self.clustering = clustering
        self.clusterGrouping = clusterGrouping
    }
}
