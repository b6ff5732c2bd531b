import CCairo
public import MapCore
import MapStyle

/// Where a snapshot's markers, callout and attribution land in the view, found without
/// drawing: what framing needs to keep everything inside the image.
public struct SnapshotLayout: Hashable, Sendable {
    /// The frame of each marker that shows, in view points: pins with their shadow, marker
    /// images, cluster discs with their halo.
    public var markerFrames: [ViewRect]
    /// The selected marker's callout, pointer included; nil without one.
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
        let markers = options.markers?.layOut(in: viewport, visibleMapRect: visibleMapRect, style: metadata)
        let callout = markers?.callout(style: metadata, cairo: canvas.cairo)
        let attribution =
            options.showsAttribution
            ? MapSnapshotter.attributionPlate(
                style: options.style, data: data, zoom: viewport.zoomLevel + MapSnapshotter.styleZoomOffset,
                viewSize: viewport.size, cairo: canvas.cairo)?.plate
            : nil
        return SnapshotLayout(
            markerFrames: markers?.frames ?? [], calloutFrame: callout?.frame, attributionFrame: attribution)
    }
}
