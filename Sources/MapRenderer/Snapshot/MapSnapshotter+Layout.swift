import CCairo
public import MapCore
import MapStyle

/// Where a snapshot's annotations, callout and attribution land in the view, found without
/// drawing: what framing needs to keep everything inside the image.
public struct SnapshotLayout: Hashable, Sendable {
    /// The frame of each marker that shows, in view points: pins with their shadow, marker
    /// images, cluster discs with their halo.
    public var markerFrames: [ViewRect]
    /// The selected annotation's callout, pointer included; nil without one.
    public var calloutFrame: ViewRect?
    /// The attribution plate in the bottom-right corner; nil when none is drawn.
    public var attributionFrame: ViewRect?

    public init(markerFrames: [ViewRect], calloutFrame: ViewRect?, attributionFrame: ViewRect?) {
        self.markerFrames = markerFrames
        self.calloutFrame = calloutFrame
        self.attributionFrame = attributionFrame
    }
}

extension MapSnapshotter {
    /// Where ``snapshot(_:)`` would put the markers, the callout and the attribution for these
    /// options, measured with the same fonts, without drawing the map.
    public func layout(_ options: MapSnapshotOptions) -> SnapshotLayout {
        let viewport = options.viewport
        let viewRect = ViewRect(x: 0, y: 0, width: viewport.size.width, height: viewport.size.height)
        guard let visibleMapRect = viewport.mapRect(for: viewRect),
            let canvas = try? Canvas(widthPoints: 1, heightPoints: 1, scale: 1, target: .image, fonts: data.fonts)
        else { return SnapshotLayout(markerFrames: [], calloutFrame: nil, attributionFrame: nil) }
        let metadata = options.style.mapwright
        let markers = AnnotationLayout(
            annotations: options.annotations, clusterIndex: options.clusterIndex, viewport: viewport,
            visibleMapRect: visibleMapRect, style: metadata)
        let selected = options.selectedAnnotationID.flatMap {
            markers.marker(showing: $0, annotations: options.annotations, clusterIndex: options.clusterIndex)
        }
        let callout = selected.map {
            markers.callout(
                for: $0, selectedID: options.selectedAnnotationID, annotations: options.annotations,
                clusterIndex: options.clusterIndex,
                memberName: options.clusterMemberName, appearance: metadata.callout, cairo: canvas.cairo)
        }
        let attribution =
            options.showsAttribution
            ? MapSnapshotter.attributionPlate(
                style: options.style, data: data, zoom: viewport.zoomLevel + MapSnapshotter.styleZoomOffset,
                viewSize: viewport.size, cairo: canvas.cairo)?.plate
            : nil
        return SnapshotLayout(
            markerFrames: markers.placed.map(\.frame), calloutFrame: callout?.frame, attributionFrame: attribution)
    }
}

extension MapAnnotation.Marker {
    /// What the marker covers relative to its anchor (a pin's tip, an image's anchor), in
    /// points, shadow included: a pin reaches 8.5 points left, 21.5 right (its shadow), 35 up.
    public var frameAroundAnchor: ViewRect {
        AnnotationLayout.bounds(of: self).frame
    }
}
