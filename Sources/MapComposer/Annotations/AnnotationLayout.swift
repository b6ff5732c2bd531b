import CCairo
import Foundation
import ImageCodec
package import MapCore
import MapRenderer
package import MapStyle

/// The markers that show in a view — single annotations and, when clustering, clusters — where
/// they sit, and how to draw them.
package struct AnnotationLayout {
    /// What stands at a place on the map.
    package enum Content {
        case annotation(MapAnnotation)
        case cluster(Cluster)
    }

    package struct Placed {
        package let content: Content
        /// The marker's anchor in view points: a pin's tip (on the coordinate), a cluster's centre.
        package let tip: ViewPoint
        /// What the marker covers (shadow included), in view points.
        package let frame: ViewRect
        /// What the marker's body covers, kept free of labels.
        package let bodyFrame: ViewRect
        /// Orders markers that stand at the same height.
        package let sortKey: String
        /// A cluster's colour: its members' pin colour; nil for single annotations.
        package var clusterColor: Color? = nil
        /// How much larger than its size the marker is drawn, about its anchor: 1 in flat views;
        /// in pitched ones near markers are larger and far ones smaller (see ``markerScale(at:in:)``).
        package var scale: Double = 1
    }

    let viewSize: ViewSize
    /// Visible markers, north first, so drawing in order puts southern markers on top.
    package let placed: [Placed]

    /// Lays out `annotations`, or the clusters and single annotations of `clusterIndex` (built
    /// over exactly `annotations`, in order) at the view's zoom level.
    package init(
        annotations: [MapAnnotation], clusterIndex: ClusterIndex?, viewport: Viewport, visibleMapRect: MapRect,
        style: MapwrightMetadata
    ) {
        viewSize = viewport.size
        let view = ViewRect(x: 0, y: 0, width: viewport.size.width, height: viewport.size.height)
        func visible(_ frame: ViewRect) -> Bool {
            frame.maxX > view.minX && frame.minX < view.maxX && frame.maxY > view.minY && frame.minY < view.maxY
        }
        // A pitched view's far ground beyond the visible-ground limit is hidden by the fog.
        let groundTop = viewport.camera.pitchDegrees > 0 ? viewport.visibleGroundTopViewY : -Double.infinity
        func place(_ annotation: MapAnnotation, at tip: ViewPoint) -> Placed? {
            guard tip.y > groundTop else { return nil }
            let scale = AnnotationLayout.markerScale(at: tip, in: viewport)
            let (bounds, body) = AnnotationLayout.bounds(of: annotation.marker)
            let frame = bounds.scaled(by: scale).offsetBy(tip)
            // Only markers that can touch the image are drawn.
            guard visible(frame) else { return nil }
            return Placed(
                content: .annotation(annotation), tip: tip, frame: frame,
                bodyFrame: body.scaled(by: scale).offsetBy(tip),
                sortKey: annotation.id, scale: scale)
        }
        var placed: [Placed] = []
        if let clusterIndex {
            precondition(
                clusterIndex.inputCount == annotations.count, "a cluster index must be built over the annotations drawn"
            )
            // Markers reach beyond their anchor, and clusters spread apart (see `spreadCenters(of:)`):
            // query a margin around the view.
            let identifiers = Set(annotations.compactMap(\.clusteringIdentifier))
            let marginPoints = max(
                AnnotationLayout.markerReachPoints(of: annotations),
                AnnotationLayout.spreadingReachPoints(groupSize: 2 * identifiers.count, style: style.cluster))
            let marginMapPoints = marginPoints / ZoomLevel.zoomScale(atZoomLevel: viewport.zoomLevel)
            var spots: [ClusterSpot] = []
            for item in clusterIndex.items(
                in: visibleMapRect.insetBy(dx: -marginMapPoints, dy: -marginMapPoints), zoomLevel: viewport.zoomLevel)
            {
                guard let tip = viewport.unwrappedPoint(for: item.mapPoint) else { continue }
                switch item.item {
                case .point(let index, _):
                    if let marker = place(annotations[index], at: tip) { placed.append(marker) }
                case .cluster(let cluster):
                    guard tip.y > groundTop else { continue }
                    let scale = AnnotationLayout.markerScale(at: tip, in: viewport)
                    let outer =
                        (ClusterMarker.radius(count: cluster.count, style: style.cluster)
                            + ClusterMarker.haloWidthPoints) * scale
                    spots.append(ClusterSpot(cluster: cluster, center: tip, outerRadius: outer))
                }
            }
            var colors = ClusterColors(annotations: annotations, clusterIndex: clusterIndex, style: style)
            for (spot, center) in zip(spots, AnnotationLayout.spreadCenters(of: spots)) {
                let scale = AnnotationLayout.markerScale(at: spot.center, in: viewport)
                let frame = ClusterMarker.frame(
                    count: spot.cluster.count, center: ViewPoint(x: 0, y: 0), style: style.cluster
                )
                .scaled(by: scale).offsetBy(center)
                guard visible(frame) else { continue }
                placed.append(
                    Placed(
                        content: .cluster(spot.cluster), tip: center, frame: frame, bodyFrame: frame,
                        sortKey: "cluster \(spot.cluster.id)",
                        clusterColor: colors.color(of: spot.cluster), scale: scale))
            }
        } else {
            placed = annotations.compactMap { annotation in
                viewport.point(for: annotation.coordinate).flatMap { place(annotation, at: $0) }
            }
        }
        self.placed = placed.sorted {
            if $0.tip.y != $1.tip.y { return $0.tip.y < $1.tip.y }
            if $0.tip.x != $1.tip.x { return $0.tip.x < $1.tip.x }
            return $0.sortKey < $1.sortKey
        }
    }

    /// How much a marker anchored at `tip` is scaled: 1 in a flat view; in a pitched one
    /// MapLibre's perspective ratio for symbols, 0.5 + 0.5 × the ground's scale there (see
    /// ``Viewport/perspectiveScale(atViewY:)``), kept within [0.6, 1.4] so that far markers stay
    /// readable and near ones do not swamp the map.
    static func markerScale(at tip: ViewPoint, in viewport: Viewport) -> Double {
        guard viewport.camera.pitchDegrees > 0, let ground = viewport.perspectiveScale(atViewY: tip.y) else { return 1 }
        return min(1.4, max(0.6, 0.5 + 0.5 * ground))
    }

    /// The markers' bodies, which labels avoid.
    var bodyFrames: [ViewRect] { placed.map(\.bodyFrame) }

    /// How far any of the annotations' markers reaches from its anchor, in points: at least 48,
    /// more for large marker images. Markers anchored this far outside a view are looked for, so
    /// a tile draws the part of a marker whose anchor lies in its neighbour.
    package static func markerReachPoints(of annotations: [MapAnnotation]) -> Double {
        var reach = 48.0
        var seen = Set<ViewRect>()
        for annotation in annotations {
            guard case .image = annotation.marker else { continue }
            let frame = bounds(of: annotation.marker).frame
            guard seen.insert(frame).inserted else { continue }
            reach = max(reach, -frame.minX, -frame.minY, frame.maxX, frame.maxY)
        }
        return reach.rounded(.up)
    }

    /// The frame of a marker and of its body, relative to its anchor.
    static func bounds(of marker: MapAnnotation.Marker) -> (frame: ViewRect, body: ViewRect) {
        switch marker {
        case .pin:
            return (PinMarker.bounds, PinMarker.bodyBounds)
        case .image(_, let size, let anchor):
            let frame = ViewRect(x: -anchor.x, y: -anchor.y, width: size.width, height: size.height)
            return (frame, frame)
        }
    }

    /// The visible marker showing the selected annotation: the annotation itself, or the cluster
    /// it belongs to at this zoom (as MapKit selects the cluster of a clustered annotation).
    /// When the world shows more than once, of its copies the nearest the camera (the largest,
    /// under pitch), then the nearest the view's centre.
    package func marker(showing id: String, annotations: [MapAnnotation], clusterIndex: ClusterIndex?) -> Placed? {
        let own = placed.filter {
            if case .annotation(let annotation) = $0.content { return annotation.id == id }
            return false
        }
        if !own.isEmpty { return nearest(of: own) }
        guard let clusterIndex, let index = annotations.firstIndex(where: { $0.id == id }) else { return nil }
        return nearest(
            of: placed.filter { marker in
                guard case .cluster(let cluster) = marker.content,
                    let leaves = try? clusterIndex.leaves(of: cluster.id, limit: cluster.count)
                else { return false }
                return leaves.contains(index)
            })
    }

    /// Of copies of one marker, the largest (nearest the camera), then the nearest the view's centre.
    private func nearest(of copies: [Placed]) -> Placed? {
        let centre = ViewPoint(x: viewSize.width / 2, y: viewSize.height / 2)
        func distance(_ marker: Placed) -> Double { hypot(marker.tip.x - centre.x, marker.tip.y - centre.y) }
        return copies.min { ($1.scale, distance($0)) < ($0.scale, distance($1)) }
    }

    /// The callout for a marker: an annotation's title and subtitle and thumbnail, or a
    /// cluster's count and the titles of its first members, the selected annotation's
    /// (`selectedID`) first.
    func callout(
        for marker: Placed, selectedID: String?, annotations: [MapAnnotation], clusterIndex: ClusterIndex?,
        memberName: String,
        appearance: MapwrightMetadata.Callout, cairo: OpaquePointer
    ) -> Callout {
        let content = AnnotationLayout.calloutContent(
            for: marker, selectedID: selectedID, annotations: annotations, clusterIndex: clusterIndex,
            memberName: memberName)
        return Callout(
            title: content.title, subtitle: content.subtitle, thumbnail: content.thumbnail,
            anchor: ViewPoint(x: marker.tip.x, y: marker.bodyFrame.minY), tip: marker.tip,
            viewSize: viewSize, appearance: appearance, cairo: cairo)
    }

    /// What a marker's callout says and shows (see ``callout(for:selectedID:annotations:clusterIndex:memberName:appearance:cairo:)``).
    static func calloutContent(
        for marker: Placed, selectedID: String?, annotations: [MapAnnotation], clusterIndex: ClusterIndex?,
        memberName: String
    ) -> (title: String, subtitle: String?, thumbnail: RGBAImage?) {
        let title: String
        let subtitle: String?
        let thumbnail: RGBAImage?
        switch marker.content {
        case .annotation(let annotation):
            title = annotation.calloutTitle
            subtitle = annotation.calloutTitle == annotation.subtitle ? nil : annotation.subtitle
            thumbnail = annotation.thumbnail
        case .cluster(let cluster):
            title = "\(cluster.count) \(memberName)"
            let shown = 3
            // The selected member first, then the first others.
            let selected = selectedID.flatMap { id in annotations.firstIndex { $0.id == id } }
            let first = ((try? clusterIndex?.leaves(of: cluster.id, limit: shown + 1)) ?? nil) ?? []
            let leaves = Array(
                ([selected].compactMap { $0 } + first.filter { $0 != selected }).prefix(min(shown, cluster.count)))
            let titles = leaves.map { annotations[$0].calloutTitle }
            subtitle = titles.joined(separator: ", ") + (cluster.count > titles.count ? ", …" : "")
            thumbnail = leaves.lazy.compactMap { annotations[$0].thumbnail }.first
        }
        return (title, subtitle, thumbnail)
    }

    /// Draws every marker: all pin shadows first, then the markers north to south, the selected
    /// one last so it stands in front.
    ///
    /// The shadows are drawn opaque into one group, clipped to where they fall, that is painted at
    /// the shadow opacity, so where shadows overlap they do not darken each other.
    ///
    /// - Parameter sprites: Pixel-aligned pin bitmaps for image output; `nil` draws pins as paths
    ///   (PDF, SVG).
    func draw(selected: Placed?, style: MapwrightMetadata, sprites: PinSprites?, cairo: OpaquePointer) {
        let pinned = placed.filter {
            if case .annotation(let annotation) = $0.content, case .pin = annotation.marker { return true }
            return false
        }
        if let shadowArea = ViewRect(
            enclosing: pinned.flatMap { [$0.frame.origin, ViewPoint(x: $0.frame.maxX, y: $0.frame.maxY)] })
        {
            cairo_save(cairo)
            cairo_rectangle(
                cairo, shadowArea.minX - 1, shadowArea.minY - 1, shadowArea.size.width + 2, shadowArea.size.height + 2)
            cairo_clip(cairo)
            cairo_push_group(cairo)
            for marker in pinned {
                if let sprites, marker.scale == 1 {
                    sprites.paintShadow(color: style.pins.shadowColor, at: marker.tip, cairo: cairo)
                } else {
                    Self.scaled(marker, cairo: cairo) {
                        PinMarker.drawShadow(at: $0, in: cairo, color: style.pins.shadowColor)
                    }
                }
            }
            cairo_pop_group_to_source(cairo)
            cairo_paint_with_alpha(cairo, style.pins.shadowOpacity)
            cairo_restore(cairo)
        }
        // Image markers usually share one image: make each distinct image a surface once.
        // (Comparing arrays that share storage is immediate.)
        var imageSurfaces: [(image: RGBAImage, surface: OpaquePointer)] = []
        defer { for entry in imageSurfaces { cairo_surface_destroy(entry.surface) } }
        func surface(for image: RGBAImage) -> OpaquePointer? {
            if let entry = imageSurfaces.first(where: { $0.image == image }) { return entry.surface }
            guard let surface = ImagePainter.makeSurface(image) else { return nil }
            imageSurfaces.append((image, surface))
            return surface
        }
        let ordered =
            placed.filter { $0.sortKey != selected?.sortKey } + placed.filter { $0.sortKey == selected?.sortKey }
        for marker in ordered {
            switch marker.content {
            case .annotation(let annotation):
                switch annotation.marker {
                case .pin(let color):
                    if let sprites, marker.scale == 1 {
                        sprites.paintPin(color: color, at: marker.tip, cairo: cairo)
                    } else {
                        Self.scaled(marker, cairo: cairo) {
                            PinMarker.drawPin(at: $0, color: color, scale: marker.scale, in: cairo)
                        }
                    }
                case .image(let image, _, _):
                    if let surface = surface(for: image) {
                        ImagePainter.draw(image, surface: surface, in: marker.frame, cornerRadius: 0, cairo: cairo)
                    }
                }
            case .cluster(let cluster):
                Self.scaled(marker, cairo: cairo) {
                    ClusterMarker.draw(
                        cluster, at: $0, color: marker.clusterColor ?? style.cluster.fillColor, style: style.cluster,
                        cairo: cairo)
                }
            }
        }
    }

    /// Runs `draw` with the marker's anchor, under its scale about that anchor.
    private static func scaled(_ marker: Placed, cairo: OpaquePointer, draw: (ViewPoint) -> Void) {
        guard marker.scale != 1 else { return draw(marker.tip) }
        cairo_save(cairo)
        cairo_translate(cairo, marker.tip.x, marker.tip.y)
        cairo_scale(cairo, marker.scale, marker.scale)
        draw(ViewPoint(x: 0, y: 0))
        cairo_restore(cairo)
    }
}

extension ViewRect {
    /// The rect scaled about the origin (a marker's anchor).
    func scaled(by factor: Double) -> ViewRect {
        factor == 1
            ? self
            : ViewRect(x: minX * factor, y: minY * factor, width: size.width * factor, height: size.height * factor)
    }

    /// The rect moved by a point's coordinates.
    func offsetBy(_ point: ViewPoint) -> ViewRect {
        ViewRect(x: minX + point.x, y: minY + point.y, width: size.width, height: size.height)
    }
}
