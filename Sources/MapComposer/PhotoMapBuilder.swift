import Foundation
import ImageCodec
import MapCore
public import MapData
public import MapRenderer
import MapStyle
import MapUtilities
public import PhotoSources

/// Turns a ``PhotoMapRequest`` into snapshot options: pins for photos, the selected photo's
/// callout with its thumbnail, accuracy circles, and the viewport that frames it all.
///
/// For example:
///
/// ```swift
/// let builder = PhotoMapBuilder(data: try MapInputs().placeData())
/// let options = try builder.options(for: PhotoMapRequest(photos: photos, style: style, selection: .first))
/// try MapSnapshotter(data: builder.data).write(options, to: URL(fileURLWithPath: "map.png"))
/// ```
public struct PhotoMapBuilder: Sendable {
    /// The map data places are looked up in (`--place`).
    public let data: MapData
    /// Where callout thumbnails are decoded and cached.
    public let thumbnails: ThumbnailCache

    /// Called with the viewport of each layout fitting measures (tests count them: each
    /// candidate framing is laid out once).
    var onLayoutMeasured: (@Sendable (Viewport) -> Void)?
    /// Called each time a request's cluster index is built (tests count them: once per request).
    var onClusterIndexBuilt: (@Sendable () -> Void)?

    /// Creates a builder over shared map data and a thumbnail cache (by default the user's).
    public init(data: MapData, thumbnails: ThumbnailCache = ThumbnailCache()) {
        self.data = data
        self.thumbnails = thumbnails
    }

    /// The snapshot options for a request; problems that do not stop the map (see
    /// ``PhotoMapWarning``) are dropped.
    ///
    /// - Throws: ``PhotoMapError`` naming what is wrong: a selection or place that matches
    ///   nothing, a region that cannot be shown.
    public func options(for request: PhotoMapRequest) throws(PhotoMapError) -> MapSnapshotOptions {
        var warnings: [PhotoMapWarning] = []
        return try options(for: request, warnings: &warnings)
    }

    /// The snapshot options for a request, adding to `warnings` the problems that do not stop
    /// the map: a thumbnail cache that cannot be written, a selected photo whose thumbnail
    /// cannot be made (its callout is drawn without one).
    ///
    /// - Throws: ``PhotoMapError`` naming what is wrong: a selection or place that matches
    ///   nothing, a region that cannot be shown.
    public func options(
        for request: PhotoMapRequest, warnings: inout [PhotoMapWarning]
    ) throws(PhotoMapError) -> MapSnapshotOptions {
        let (selected, annotations, overlays) = try content(for: request, warnings: &warnings)
        // The cluster index does not depend on the framing: built once, for the first framing that clusters.
        var index: ClusterIndex?
        let style = request.showsHeatmap ? PhotoHeatmap.style(request.style, showing: request.photos) : request.style
        func options(in viewport: Viewport) -> MapSnapshotOptions {
            MapSnapshotOptions(
                viewport: viewport, style: style, annotations: annotations,
                clusterIndex: clusterIndex(for: annotations, in: request, viewport: viewport, built: &index),
                clusterMemberName: "photos",
                selectedAnnotationID: selected?.id, overlays: overlays)
        }
        var result: MapSnapshotOptions
        if case .fitContent = request.framing, annotations.isEmpty, overlays.isEmpty, let camera = request.style.camera
        {
            // Nothing frames the map: the style's own view, as MapLibre opens it.
            result = options(
                in: try viewport { () throws(MapCoreError) in
                    try Viewport(
                        center: camera.center, zoomLevel: camera.zoomLevel, size: request.size, scale: request.scale,
                        headingDegrees: camera.headingDegrees, pitchDegrees: camera.pitchDegrees)
                })
        } else if case .fitContent = request.framing {
            result = try fittedOptions(
                for: request, annotations: annotations, overlays: overlays, hasCallout: selected != nil,
                options: options(in:))
            if request.headingDegrees != 0 || request.pitchDegrees != 0 {
                let shown =
                    request.photos.map(\.coordinate) + request.markers.map(\.coordinate)
                    + overlays.flatMap(\.framingCoordinates)
                var insets = initialPadding(annotations: annotations, hasCallout: selected != nil)
                insets.bottom += request.padding.bottom + 16
                insets.top += request.padding.top
                insets.left += request.padding.left
                insets.right += request.padding.right
                result = options(
                    in: try underCamera(
                        result.viewport, request: request, showing: shown,
                        insets: fittedPadding(insets, in: request.size)))
            }
        } else {
            result = options(in: try viewport(for: request))
        }
        warnings += framingWarnings(for: result, photos: request.photos, selected: selected)
        return result
    }

    /// The selected photo, the photos' annotations (the selected one with its thumbnail) and the
    /// overlays with the accuracy circles: what a map and a tileset of the request draw.
    func content(
        for request: PhotoMapRequest, warnings: inout [PhotoMapWarning]
    ) throws(PhotoMapError) -> (selected: Photo?, annotations: [MapAnnotation], overlays: [MapOverlay]) {
        let selected = request.showsHeatmap ? nil : try selectedPhoto(in: request)
        var thumbnail: RGBAImage?
        if let selected { thumbnail = self.thumbnail(for: selected, scale: request.scale, warnings: &warnings) }
        // The photographers on this map get different colours (see `colors(forKeys:)`).
        let colors = request.style.mapwright.pins.colors(forKeys: request.photos.map { $0.photographer ?? "" })
        let annotations =
            (request.showsHeatmap ? [] : request.photos).map { photo in
                annotation(
                    for: photo, in: request, color: colors[photo.photographer ?? ""],
                    thumbnail: photo.id == selected?.id ? thumbnail : nil)
            }
            + request.markers.map { marker in
                var marker = marker
                marker.clusteringIdentifier = nil
                return marker
            }
        var overlays = request.overlays
        if request.showsAccuracy {
            let style = request.style.mapwright.overlay
            for photo in request.photos {
                guard let accuracy = photo.horizontalAccuracyMeters, accuracy > 0 else { continue }
                overlays.append(
                    MapOverlay(
                        shape: .circle(center: photo.coordinate, radiusMeters: accuracy),
                        strokeColor: style.lineColor.with(alpha: 0.6), lineWidthPoints: 1,
                        fillColor: style.accuracyFillColor))
            }
        }
        return (selected, annotations, overlays)
    }

    /// What the framing leaves out: photos outside an explicit region, the selected photo among
    /// them, a callout larger than the image, all of a vector tileset's streets.
    private func framingWarnings(for options: MapSnapshotOptions, photos: [Photo], selected: Photo?)
        -> [PhotoMapWarning]
    {
        let size = options.viewport.size
        func inside(_ coordinate: Coordinate) -> Bool {
            guard let point = options.viewport.point(for: coordinate) else { return false }
            return point.x >= 0 && point.x <= size.width && point.y >= 0 && point.y <= size.height
        }
        var warnings: [PhotoMapWarning] = []
        let outside = photos.filter { !inside($0.coordinate) }.count
        if outside > 0 { warnings.append(.photosOutsideMap(outside: outside, total: photos.count)) }
        if let selected, !inside(selected.coordinate) {
            warnings.append(.selectedPhotoOutsideMap(title: selected.calloutTitle))
        } else if let selected, let callout = MapSnapshotter(data: data).layout(options).calloutFrame,
            callout.minX < 0 || callout.minY < 0 || callout.maxX > size.width || callout.maxY > size.height
        {
            warnings.append(.calloutDoesNotFit(title: selected.calloutTitle, size: size))
        }
        if let shown = options.viewport.mapRect(for: ViewRect(x: 0, y: 0, width: size.width, height: size.height)) {
            for tileset in data.vectorTilesets(of: options.style, outside: shown) {
                warnings.append(.outsideVectorTiles(file: tileset.url.displayPath, bounds: tileset.bounds))
            }
            let zoom = Int((options.viewport.zoomLevel + 1e-9).rounded(.down))
            if zoom >= Self.streetZoomLevel, data.streetBasemapsCover(shown, in: options.style) == false {
                warnings.append(.noStreetLevelData(zoom: zoom))
            }
        }
        return warnings
    }

    /// The zoom from which a map in a style with street-level basemaps is expected to show
    /// streets, and says so when none covers it: 12 (a town).
    public static let streetZoomLevel = 12

    /// The space kept free between everything drawn (the callout's shadow included) and the
    /// image's edges when fitting, in points: 12.
    public static let fitMarginPoints: Double = 12

    /// Fits the photos and overlays with room for what is drawn around them: pins with their
    /// shadows, marker images, the callout above the selected pin, overlay lines, and the
    /// attribution plate, each kept ``fitMarginPoints`` from the edges (see ``FitSolver``). What
    /// the renderer then lays out (clusters too) is measured, and any reach past the margins
    /// widens them for another fit.
    private func fittedOptions(
        for request: PhotoMapRequest, annotations: [MapAnnotation], overlays: [MapOverlay], hasCallout: Bool,
        options: (Viewport) -> MapSnapshotOptions
    ) throws(PhotoMapError) -> MapSnapshotOptions {
        let overlayCoordinates = overlays.flatMap(\.framingCoordinates)
        let coordinates = request.photos.map(\.coordinate) + request.markers.map(\.coordinate) + overlayCoordinates
        guard !coordinates.isEmpty else { throw .nothingToShow }
        let size = request.size
        let scale = request.scale
        let padding = request.padding
        var initial = initialPadding(annotations: annotations, hasCallout: hasCallout)
        initial = EdgeInsets(
            top: initial.top + padding.top, left: initial.left + padding.left,
            bottom: initial.bottom + padding.bottom, right: initial.right + padding.right)
        let first = try viewport { () throws(MapCoreError) in
            try Viewport(showing: coordinates, edgePadding: fittedPadding(initial, in: size), size: size, scale: scale)
        }
        let snapshotter = MapSnapshotter(data: data)
        // Each candidate framing is laid out once: a solution may land on a view measured before.
        var measured: [Viewport: SnapshotLayout] = [:]
        func layout(_ options: MapSnapshotOptions) -> SnapshotLayout {
            if let known = measured[options.viewport] { return known }
            onLayoutMeasured?(options.viewport)
            let layout = snapshotter.layout(options)
            measured[options.viewport] = layout
            return layout
        }
        let firstOptions = options(first)
        let firstLayout = layout(firstOptions)
        let margin = Self.fitMarginPoints
        var margins = EdgeInsets(
            top: margin + padding.top, left: margin + padding.left, bottom: margin + padding.bottom,
            right: margin + padding.right)
        if let plate = firstLayout.attributionFrame {
            margins.bottom = max(margins.bottom, size.height - plate.minY + 4)
        }

        var items: [FitSolver.Item] = []
        var calloutItems: [FitSolver.Item] = []
        for annotation in annotations {
            guard let anchor = first.point(for: annotation.coordinate) else { continue }
            let frame = annotation.marker.frameAroundAnchor
            items.append(
                FitSolver.Item(
                    anchor: anchor,
                    reach: EdgeInsets(top: -frame.minY, left: -frame.minX, bottom: frame.maxY, right: frame.maxX)))
            // The callout stands on the selected pin's head, its shadow 4 points wider.
            if annotation.id == firstOptions.selectedAnnotationID, let callout = firstLayout.calloutFrame {
                let half = callout.size.width / 2 + 4
                calloutItems.append(
                    FitSolver.Item(
                        anchor: anchor,
                        reach: EdgeInsets(
                            top: -frame.minY + 1 + callout.size.height + 4, left: half, bottom: 0, right: half)))
            }
        }
        let lineReach = overlays.map { $0.lineWidthPoints / 2 }.max() ?? 0
        for coordinate in overlayCoordinates {
            guard let anchor = first.point(for: coordinate) else { continue }
            items.append(
                FitSolver.Item(
                    anchor: anchor,
                    reach: EdgeInsets(top: lineReach, left: lineReach, bottom: lineReach, right: lineReach)))
        }
        let withCallout = FitSolver(items + calloutItems)
        let withoutCallout = FitSolver(items)
        var result = firstOptions
        for _ in 0..<3 {
            guard var solution = withCallout.solve(from: first, margins: margins) else { break }
            if !solution.fitsWholly, !calloutItems.isEmpty,
                let markersOnly = withoutCallout.solve(from: first, margins: margins)
            {
                // No room for the callout centred on its pin: fit the rest, and let the renderer
                // shift the callout sideways into the image, as it does.
                solution = markersOnly
            }
            let viewport = solution.viewport
            result = options(viewport)
            guard solution.fitsWholly else { break }
            let measuredLayout = layout(result)
            let overflow = Self.overflow(
                markers: measuredLayout.markerFrames, callout: measuredLayout.calloutFrame,
                attribution: measuredLayout.attributionFrame,
                overlayPoints: overlayCoordinates.compactMap { viewport.point(for: $0) }, lineReach: lineReach,
                size: size)
            guard overflow != .zero else { break }
            // Clusters are larger than pins: what they reach past the margins widens them.
            margins = EdgeInsets(
                top: margins.top + overflow.top, left: margins.left + overflow.left,
                bottom: margins.bottom + overflow.bottom, right: margins.right + overflow.right)
        }
        return result
    }

    /// How far, on each side, drawn things reach past the margin (or under the attribution).
    static func overflow(
        markers: [ViewRect], callout: ViewRect?, attribution: ViewRect?, overlayPoints: [ViewPoint], lineReach: Double,
        size: ViewSize
    ) -> EdgeInsets {
        let margin = fitMarginPoints
        // Nothing may sit under the attribution plate's band at the bottom.
        let bottomLimit = min(size.height - margin, (attribution?.minY ?? size.height) - 4)
        var top = 0.0
        var left = 0.0
        var bottom = 0.0
        var right = 0.0
        func check(_ frame: ViewRect, sideMargin: Double) {
            top = max(top, margin - frame.minY)
            bottom = max(bottom, frame.maxY - bottomLimit)
            left = max(left, sideMargin - frame.minX)
            right = max(right, frame.maxX - (size.width - sideMargin))
        }
        for frame in markers { check(frame, sideMargin: margin) }
        for point in overlayPoints {
            check(
                ViewRect(x: point.x - lineReach, y: point.y - lineReach, width: 2 * lineReach, height: 2 * lineReach),
                sideMargin: margin)
        }
        // The callout too: the renderer keeps it 4 points from the sides, and its shadow reaches
        // 4 points further, so a callout pushed against a side would touch the edge.
        if let callout { check(callout.insetBy(dx: -4, dy: -4), sideMargin: margin) }
        // Sub-point reaches are rounding, not overflow.
        let clean = { (value: Double) in value > 0.5 ? value.rounded(.up) : 0 }
        return EdgeInsets(top: clean(top), left: clean(left), bottom: clean(bottom), right: clean(right))
    }

    /// The photo's thumbnail, from its thumbnail file or its image when local; remote images
    /// are not fetched, so their callouts have no thumbnail. A thumbnail that cannot be made, or
    /// cached, is a warning.
    private func thumbnail(for photo: Photo, scale: Double, warnings: inout [PhotoMapWarning]) -> RGBAImage? {
        let reference = [photo.thumbnail, photo.image].compactMap { $0 }.first {
            if case .file = $0 { return true }
            return false
        }
        guard case .file(let url)? = reference else { return nil }
        let pixelSize = Int((MapAnnotation.thumbnailSizePoints * scale).rounded())
        do {
            let thumbnail = try thumbnails.thumbnail(for: url, pixelSize: pixelSize) {
                warnings.append(.thumbnailNotCached($0))
            }
            return RGBAImage(width: thumbnail.width, height: thumbnail.height, pixels: thumbnail.rgba)
        } catch {
            warnings.append(.thumbnailUnavailable(error))
            return nil
        }
    }

    /// The photo's annotation; `color` is its photographer's pin colour on this map.
    private func annotation(for photo: Photo, in request: PhotoMapRequest, color: Color?, thumbnail: RGBAImage?)
        -> MapAnnotation
    {
        let marker: MapAnnotation.Marker
        if let image = request.markerImage {
            // Marker images are @2x: a 64 × 64-pixel PNG is a 32 × 32-point marker.
            let size = ViewSize(width: Double(image.width) / 2, height: Double(image.height) / 2)
            marker = .image(image, pointSize: size, anchor: ViewPoint(x: size.width / 2, y: size.height))
        } else {
            marker = .pin(request.pinColor ?? color ?? request.style.mapwright.pins.defaultColor)
        }
        return MapAnnotation(
            id: photo.id, coordinate: photo.coordinate, title: photo.calloutTitle, subtitle: subtitle(for: photo),
            marker: marker, thumbnail: thumbnail,
            clusteringIdentifier: request.clusterGrouping.clusteringIdentifier(for: photo))
    }

    /// The cluster index for the annotations, when the request clusters them here.
    ///
    /// - Parameter built: The index built for an earlier framing of the same annotations, kept
    ///   there when this call builds it.
    private func clusterIndex(
        for annotations: [MapAnnotation], in request: PhotoMapRequest, viewport: Viewport, built: inout ClusterIndex?
    ) -> ClusterIndex? {
        guard request.clusterGrouping != .none else { return nil }
        switch request.clustering {
        case .never: return nil
        case .automatic where !AnnotationSet.markersWouldOverlap(annotations, in: viewport): return nil
        case .automatic, .always:
            if let built { return built }
            onClusterIndexBuilt?()
            let index = ClusterIndex(
                annotations.map {
                    ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.clusteringIdentifier)
                })
            built = index
            return index
        }
    }

    /// The calendar subtitles give dates in: Gregorian, UTC.
    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// The callout's second line: the photo's subtitle, else who took it and when.
    private func subtitle(for photo: Photo) -> String? {
        if let subtitle = photo.calloutSubtitle { return subtitle }
        let date = photo.dateTaken.map { date -> String in
            let parts = PhotoMapBuilder.utcCalendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        let parts = [photo.photographer, date].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// The viewport of an explicit framing: a region, a centre and zoom, or a place.
    private func viewport(for request: PhotoMapRequest) throws(PhotoMapError) -> Viewport {
        let size = request.size
        let scale = request.scale
        switch request.framing {
        case .region(let region):
            let exact = try viewport { () throws(MapCoreError) in try Viewport(region: region, size: size, scale: scale)
            }
            let padding = request.padding
            guard padding != EdgeInsets() else {
                return try underCamera(exact, request: request, showing: Self.outline(of: region), insets: EdgeInsets())
            }
            // The region inside the padding: zoomed out about its centre.
            let factor = min(
                (size.width - padding.left - padding.right) / size.width,
                (size.height - padding.top - padding.bottom) / size.height)
            guard factor > 0 else { return exact }
            let padded = try viewport { () throws(MapCoreError) in
                try Viewport(
                    center: exact.camera.centerCoordinate, zoomLevel: max(0, exact.zoomLevel + log2(factor)),
                    size: size, scale: scale)
            }
            return try underCamera(padded, request: request, showing: Self.outline(of: region), insets: padding)
        case .center(let center, let zoomLevel):
            let heading = request.headingDegrees
            let pitch = request.pitchDegrees
            return try viewport { () throws(MapCoreError) in
                try Viewport(
                    center: center, zoomLevel: zoomLevel, size: size, scale: scale, headingDegrees: heading,
                    pitchDegrees: pitch)
            }
        case .camera(let camera):
            return try viewport { () throws(MapCoreError) in try Viewport(camera: camera, size: size, scale: scale) }
        case .place(let name):
            return try placeViewport(data.resolvePlace(named: name, style: request.style).region, request: request)
        case .resolvedPlace(let place):
            return try placeViewport(place.region, request: request)
        case .fitContent:
            preconditionFailure("fitted by fittedOptions(for:annotations:overlays:hasCallout:options:)")
        }
    }

    /// The viewport of a place's region: the whole place, with the fitting margin on every side.
    private func placeViewport(_ region: CoordinateRegion, request: PhotoMapRequest) throws(PhotoMapError) -> Viewport {
        let size = request.size
        let scale = request.scale
        // The whole place, with the fitting margin on every side.
        let exact = try viewport { () throws(MapCoreError) in try Viewport(region: region, size: size, scale: scale) }
        let margin = 2 * Self.fitMarginPoints
        let factor = min((size.width - margin) / size.width, (size.height - margin) / size.height)
        guard factor > 0 else { return exact }
        let fitted = try viewport { () throws(MapCoreError) in
            try Viewport(
                center: exact.camera.centerCoordinate, zoomLevel: max(0, exact.zoomLevel + log2(factor)), size: size,
                scale: scale)
        }
        return try underCamera(
            fitted, request: request, showing: Self.outline(of: region), insets: EdgeInsets(all: Self.fitMarginPoints))
    }

    /// `flat` turned to the request's heading and tilted to its pitch about its centre, and
    /// zoomed out a quarter level at a time (at most 8 levels) until every coordinate shows on
    /// the ground inside the view less `insets`; `flat` itself without heading or pitch.
    private func underCamera(
        _ flat: Viewport, request: PhotoMapRequest, showing coordinates: [Coordinate], insets: EdgeInsets
    ) throws(PhotoMapError) -> Viewport {
        guard request.headingDegrees != 0 || request.pitchDegrees != 0 else { return flat }
        let size = request.size
        func fits(_ viewport: Viewport) -> Bool {
            let top = max(insets.top, viewport.visibleGroundTopViewY)
            return coordinates.allSatisfy { coordinate in
                guard let point = viewport.point(for: coordinate) else { return false }
                return point.x >= insets.left && point.x <= size.width - insets.right && point.y >= top
                    && point.y <= size.height - insets.bottom
            }
        }
        var zoomLevel = flat.zoomLevel
        while true {
            let zoom = zoomLevel
            let turned = try viewport { () throws(MapCoreError) in
                try Viewport(
                    center: flat.camera.centerCoordinate, zoomLevel: zoom, size: size, scale: request.scale,
                    headingDegrees: request.headingDegrees, pitchDegrees: request.pitchDegrees)
            }
            if fits(turned) || zoomLevel - 0.25 < 0 || flat.zoomLevel - zoomLevel >= 8 { return turned }
            zoomLevel -= 0.25
        }
    }

    /// Points round a region's edge (corners and midpoints) that a turned view must show.
    static func outline(of region: CoordinateRegion) -> [Coordinate] {
        let rect = region.mapRect
        return [(0.0, 0.0), (0.5, 0), (1, 0), (1, 0.5), (1, 1), (0.5, 1), (0, 1), (0, 0.5)].map { fx, fy in
            MapPoint(x: rect.minX + fx * rect.width, y: rect.minY + fy * rect.height).coordinate
        }
    }

    private func viewport(_ make: () throws(MapCoreError) -> Viewport) throws(PhotoMapError) -> Viewport {
        do { return try make() } catch { throw .viewport(error) }
    }

    /// The first guess at the room drawn things need around the fitted coordinates: the margin,
    /// plus the markers' reach around their anchors, plus a callout's height above the pins.
    private func initialPadding(annotations: [MapAnnotation], hasCallout: Bool) -> EdgeInsets {
        let margin = Self.fitMarginPoints
        var top = margin
        var left = margin
        var bottom = margin
        var right = margin
        for frame in Set(annotations.map(\.marker.frameAroundAnchor)) {
            top = max(top, margin - frame.minY)
            left = max(left, margin - frame.minX)
            bottom = max(bottom, margin + frame.maxY)
            right = max(right, margin + frame.maxX)
        }
        if hasCallout { top += 84 }
        return EdgeInsets(top: top, left: left, bottom: bottom, right: right)
    }

    /// `padding`, shrunk for small images so that at least 40 % of each side is left for the
    /// content; unchanged when the image is large enough.
    private func fittedPadding(_ padding: EdgeInsets, in size: ViewSize) -> EdgeInsets {
        let vertical = min(1, size.height * 0.6 / (padding.top + padding.bottom))
        let horizontal = min(1, size.width * 0.6 / (padding.left + padding.right))
        guard vertical < 1 || horizontal < 1 else { return padding }
        return EdgeInsets(
            top: padding.top * vertical, left: padding.left * horizontal,
            bottom: padding.bottom * vertical, right: padding.right * horizontal)
    }
}

extension MapOverlay {
    /// The coordinates a map must show for the overlay to be seen whole.
    var framingCoordinates: [Coordinate] {
        switch shape {
        case .polyline(let coordinates):
            return coordinates
        case .geodesicPolyline(let coordinates):
            // The whole arc, not just its ends: London to Sydney bulges far north of both.
            return zip(coordinates, coordinates.dropFirst()).flatMap { start, end in
                (try? start.greatCirclePath(to: end, maximumSegmentMeters: 50_000)) ?? [start, end]
            }
        case .polygon(let exterior, _):
            return exterior
        case .circle(let center, let radiusMeters):
            return (try? GeodesicCircle(center: center, radiusMeters: radiusMeters).ring(pointCount: 72)) ?? [center]
        case .waypoint(let coordinate, _):
            return [coordinate]
        }
    }
}
