import CCairo
import ImageCodec
public import MapCore
public import MapRenderer
public import MapStyle

/// Annotations as a map shows them (MapKit's annotations on a map view): each a pin or marker
/// image at its coordinate, those that crowd together drawn as clusters when there is a cluster
/// index, and the selected one's callout. The marker layer a photographer's map, its tiles and
/// `serve` draw above the map.
public struct AnnotationSet: MarkerLayer, Sendable {
    /// The annotations, drawn south over north.
    public var annotations: [MapAnnotation]
    /// Clusters of ``annotations``, built over exactly them, in order, and shared by every render
    /// and tile of them; `nil` draws every annotation on its own. Clusters are drawn at a view's
    /// (or a tile's viewport's) zoom level as ``ClusterIndex/items(in:zoomLevel:)`` gives them,
    /// so one image and a grid of tiles of the same area show the same clusters.
    public var clusterIndex: ClusterIndex?
    /// What a cluster's callout calls its members: "16 photos". The default is "items".
    public var clusterMemberName: String
    /// The annotation whose callout is shown, by ``MapAnnotation/id``; when it is in a cluster at
    /// a view's zoom, the cluster's callout is shown.
    public var selectedAnnotationID: String?

    /// Creates a set; the default is no annotations.
    public init(
        annotations: [MapAnnotation] = [],
        clusterIndex: ClusterIndex? = nil,
        clusterMemberName: String = "items",
        selectedAnnotationID: String? = nil
    ) {
        self.annotations = annotations
        self.clusterIndex = clusterIndex
        self.clusterMemberName = clusterMemberName
        self.selectedAnnotationID = selectedAnnotationID
    }

    /// A cluster index built over other annotations than these.
    public var problem: String? {
        guard let index = clusterIndex, index.inputCount != annotations.count else { return nil }
        return "the cluster index holds \(index.inputCount) annotations, not the \(annotations.count) given"
    }

    public func layOut(in viewport: Viewport, visibleMapRect: MapRect, style: MapwrightMetadata) -> any MarkerLayout {
        let layout = AnnotationLayout(
            annotations: annotations, clusterIndex: clusterIndex, viewport: viewport, visibleMapRect: visibleMapRect,
            style: style)
        let selected = selectedAnnotationID.flatMap {
            layout.marker(showing: $0, annotations: annotations, clusterIndex: clusterIndex)
        }
        return LaidOut(set: self, layout: layout, selected: selected)
    }

    /// The selected annotation's callout in `world`, over its marker: its cluster's at zooms
    /// where it is in one, which may stand a little away from it (the markers within four
    /// cluster radii, two of the largest discs and 64 points of it are laid out to find it).
    public func worldCallout(in world: Viewport, style: MapwrightMetadata, cairo: OpaquePointer)
        -> (any MarkerCalloutPlacement)?
    {
        guard let id = selectedAnnotationID, let annotation = annotations.first(where: { $0.id == id }) else {
            return nil
        }
        let pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: world.zoomLevel)
        let point = MapPoint(annotation.coordinate)
        let reachPoints = 4 * (clusterIndex?.options.radiusPoints ?? 40) + 2 * style.cluster.maxRadius + 64
        let reach = reachPoints / pointsPerMapPoint
        let layout = AnnotationLayout(
            annotations: annotations, clusterIndex: clusterIndex, viewport: world,
            visibleMapRect: MapRect(x: point.x - reach, y: point.y - reach, width: 2 * reach, height: 2 * reach),
            style: style)
        guard let marker = layout.marker(showing: id, annotations: annotations, clusterIndex: clusterIndex) else {
            return nil
        }
        let text = AnnotationLayout.calloutContent(
            for: marker, selectedID: id, annotations: annotations, clusterIndex: clusterIndex,
            memberName: clusterMemberName)
        let anchor = ViewPoint(x: marker.tip.x, y: marker.bodyFrame.minY)
        let laidOut = Callout(
            title: text.title, subtitle: text.subtitle, thumbnail: text.thumbnail, anchor: anchor, tip: marker.tip,
            viewSize: world.size, appearance: style.callout, cairo: cairo)
        // The shadow reaches 4 points round the bubble and 1.5 lower.
        return WorldCallout(
            title: text.title, subtitle: text.subtitle, thumbnail: text.thumbnail, anchor: anchor, tip: marker.tip,
            appearance: style.callout, inkFrame: laidOut.frame.insetBy(dx: -6, dy: -6))
    }

    /// Whether any two of the annotations' markers would overlap in the viewport: the cue for
    /// clustering them automatically. Only markers in the image count: pins crowded off-screen
    /// do not cluster the map.
    public static func markersWouldOverlap(_ annotations: [MapAnnotation], in viewport: Viewport) -> Bool {
        var taken = CollisionIndex()
        for annotation in annotations {
            guard let tip = viewport.point(for: annotation.coordinate) else { continue }
            let body = AnnotationLayout.bounds(of: annotation.marker).body.offsetBy(tip)
            guard body.maxX > 0, body.minX < viewport.size.width, body.maxY > 0, body.minY < viewport.size.height else {
                continue
            }
            if !taken.insertIfFree(body) { return true }
        }
        return false
    }

    /// An annotation set laid out in one view, with its selected marker.
    struct LaidOut: MarkerLayout {
        let set: AnnotationSet
        let layout: AnnotationLayout
        /// The marker showing the selected annotation, drawn last; nil when none shows.
        let selected: AnnotationLayout.Placed?

        var frames: [ViewRect] { layout.placed.map(\.frame) }
        var bodyFrames: [ViewRect] { layout.bodyFrames }

        func callout(style: MapwrightMetadata, cairo: OpaquePointer) -> (any MarkerCallout)? {
            selected.map {
                layout.callout(
                    for: $0, selectedID: set.selectedAnnotationID, annotations: set.annotations,
                    clusterIndex: set.clusterIndex, memberName: set.clusterMemberName, appearance: style.callout,
                    cairo: cairo)
            }
        }

        func draw(style: MapwrightMetadata, pixelScale: Double?, cairo: OpaquePointer) {
            layout.draw(
                selected: selected, style: style, sprites: pixelScale.map(PinSprites.init(scale:)), cairo: cairo)
        }
    }

    /// The selected annotation's callout placed in the world at a tile zoom.
    struct WorldCallout: MarkerCalloutPlacement, Equatable {
        let title: String
        let subtitle: String?
        let thumbnail: RGBAImage?
        /// The marker's top and tip, in world points.
        let anchor: ViewPoint
        let tip: ViewPoint
        let appearance: MapwrightMetadata.Callout
        /// The bubble and pointer with their shadow, in world points.
        let inkFrame: ViewRect

        func layOut(worldSize: ViewSize, cairo: OpaquePointer) -> any MarkerCallout {
            Callout(
                title: title, subtitle: subtitle, thumbnail: thumbnail, anchor: anchor, tip: tip, viewSize: worldSize,
                appearance: appearance, cairo: cairo)
        }

        func drawsLike(_ other: any MarkerCalloutPlacement) -> Bool {
            (other as? WorldCallout) == self
        }
    }
}

extension Callout: MarkerCallout {}

extension MapAnnotation.Marker {
    /// What the marker covers relative to its anchor (a pin's tip, an image's anchor), in
    /// points, shadow included: a pin reaches 8.5 points left, 21.5 right (its shadow), 35 up.
    public var frameAroundAnchor: ViewRect {
        AnnotationLayout.bounds(of: self).frame
    }
}
