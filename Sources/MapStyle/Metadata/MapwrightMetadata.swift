import Foundation
import MapUtilities

/// Mapwright's own section of a style: how pins, callouts, overlays, clusters, attribution and
/// label placement look. None of it is in the MapLibre Style Specification.
///
/// It lives at `metadata.mapwright`, because the specification keeps arbitrary data under the
/// root `metadata` object ("Root: metadata"), so Mapwright styles stay valid MapLibre styles.
/// Every key is optional and has a documented default, so a style can omit the whole section:
///
/// ```json
/// "metadata": {
///   "mapwright": {
///     "pins": {"palette": ["#ff3b30", "#007aff"], "default": "#ff3b30"},
///     "callout": {"background": "#1c1c1e", "text-color": "#ffffff"}
///   }
/// }
/// ```
public struct MapwrightMetadata: Hashable, Sendable {
    /// `pins`: photo pins.
    public var pins = Pins()
    /// `callout`: the bubble shown for a selected pin.
    public var callout = Callout()
    /// `overlay`: defaults for tracks, polygons and circles drawn over the map.
    public var overlay = Overlay()
    /// `cluster`: bubbles that stand for several pins.
    public var cluster = Cluster()
    /// `attribution`: the credit line.
    public var attribution = Attribution()
    /// `labels`: how basemap labels are placed.
    public var labels = Labels()

    public init() {}

    /// `pins`: photo pins.
    public struct Pins: Hashable, Sendable {
        /// `palette`: colours given to photographers (or any grouping key): different on one map
        /// while there are no more keys than colours, see ``colors(forKeys:)``. The default is
        /// ten clearly different colours in MapKit's marker hues (``defaultPalette``).
        public var palette: [Color] = Pins.defaultPalette
        /// `default`: the colour of a pin without a grouping key. The default is `#ff3b30`.
        public var defaultColor = Color(rgb: 0xff3b30)
        /// `stroke-color`: the pin's outline and glyph. The default is white.
        public var strokeColor = Color.white
        /// `shadow-color`. The default is black.
        public var shadowColor = Color.black
        /// `shadow-opacity`, in [0, 1]. The default is 0.3.
        public var shadowOpacity = 0.3
        /// `selected-scale`: how much larger a selected pin is drawn. The default is 1.25.
        public var selectedScale = 1.25

        public init() {}

        /// Ten colours in MapKit's marker hues, every pair at least 22 apart in CIEDE2000 (over
        /// 20 tells colours apart at a glance), all dark enough for white glyphs and counts: red,
        /// blue, green, orange, purple, teal, brown, pink, graphite, olive.
        public static let defaultPalette: [Color] =
            ([
                0xff3b30, 0x007aff, 0x248a3d, 0xf08300, 0x9b59d0, 0x00a3a3, 0x8e6a3d, 0xff2d92, 0x48484a, 0xb8a000,
            ] as [UInt32]).map(Color.init(rgb:))
    }

    /// `callout`: the bubble shown for a selected pin.
    public struct Callout: Hashable, Sendable {
        /// `title-font`. The default is DejaVu Sans Bold.
        public var titleFont = "DejaVu Sans Bold"
        /// `title-size`, in points. The default is 15.
        public var titleSize = 15.0
        /// `subtitle-font`. The default is DejaVu Sans Book.
        public var subtitleFont = "DejaVu Sans Book"
        /// `subtitle-size`, in points. The default is 12.
        public var subtitleSize = 12.0
        /// `background`. The default is white.
        public var background = Color.white
        /// `text-color`: the title. The default is black.
        public var textColor = Color.black
        /// `subtitle-color`. The default is `#6e6e73`.
        public var subtitleColor = Color(rgb: 0x6e6e73)
        /// `max-width`: the widest callout for its subtitle, in points; a longer subtitle is cut
        /// with an ellipsis. A longer title widens the callout, up to the image's width less 4
        /// points each side, and only then is cut. The default is 320.
        public var maxWidth = 320.0
        /// `corner-radius`, in points. The default is 10.
        public var cornerRadius = 10.0
        /// `accessory-color`: the disclosure chevron and other accessories. The default is `#007aff`.
        public var accessoryColor = Color(rgb: 0x007aff)

        public init() {}
    }

    /// `overlay`: defaults for tracks, polygons and circles drawn over the map.
    public struct Overlay: Hashable, Sendable {
        /// `line-color`: tracks and outlines. The default is `#007aff`.
        public var lineColor = Color(rgb: 0x007aff)
        /// `line-width`, in points. The default is 4.
        public var lineWidth = 4.0
        /// `fill-color`: polygon interiors. The default is `#007aff` at 20 % opacity.
        public var fillColor = Color(rgb: 0x007aff).with(alpha: 0.2)
        /// `circle-fill-color`: point markers drawn as circles. The default is `#007aff`.
        public var circleFillColor = Color(rgb: 0x007aff)
        /// `circle-line-color`: their ring. The default is white.
        public var circleLineColor = Color.white
        /// `circle-radius`, in points. The default is 6.
        public var circleRadius = 6.0
        /// `accuracy-fill-color`: the disc showing a position's uncertainty. The default is
        /// `#007aff` at 15 % opacity.
        public var accuracyFillColor = Color(rgb: 0x007aff).with(alpha: 0.15)

        public init() {}
    }

    /// `cluster`: bubbles that stand for several pins.
    public struct Cluster: Hashable, Sendable {
        /// `fill-color`: the bubble. The default is `#ff3b30`.
        public var fillColor = Color(rgb: 0xff3b30)
        /// `text-color`: the count. The default is white.
        public var textColor = Color.white
        /// `font`. The default is DejaVu Sans Bold.
        public var font = "DejaVu Sans Bold"
        /// `text-size`, in points. The default is 13.
        public var textSize = 13.0
        /// `min-radius`: the radius of the smallest cluster, in points. The default is 14.
        public var minRadius = 14.0
        /// `max-radius`: the radius of the largest, in points. The default is 28.
        public var maxRadius = 28.0

        public init() {}
    }

    /// `attribution`: the credit line.
    public struct Attribution: Hashable, Sendable {
        /// `text`; nil joins the sources' `attribution`s. The default is nil.
        public var text: String?
        /// `color`. The default is `#000000` at 60 % opacity.
        public var color = Color.black.with(alpha: 0.6)

        public init() {}
    }

    /// `labels`: how basemap labels are placed.
    public struct Labels: Hashable, Sendable {
        /// `collision-padding`: the clear space kept around each label, in points, against other
        /// labels and pins. The default is 4.
        public var collisionPadding = 4.0
        /// `placement`: the rules symbols are placed by. The default is ``Placement/maplibre``.
        public var placement = Placement.maplibre

        /// The rules symbols (labels and icons) are placed by.
        public enum Placement: String, Hashable, Sendable, CaseIterable {
            /// MapLibre's: each symbol keeps its layer's `text-padding` and `icon-padding` free
            /// round it, may reach past the view's edge, and places in the order of its layer's
            /// features (or `symbol-sort-key`), upper layers first; what a public style expects.
            case maplibre
            /// A static map's: each label keeps ``collisionPadding`` free round it and lies
            /// wholly inside the view, and larger areas name themselves first; what Mapwright's
            /// own styles use, so no label is cut by the image's edge.
            case insideView = "inside-view"
        }

        public init() {}
    }
}
