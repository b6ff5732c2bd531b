import Foundation
import ImageCodec
import MapCore
import MapRenderer
import MapStyle
import PhotoSources

/// Turns a ``PhotoMapRequest`` into snapshot options: pins for photos, the selected photo's
/// callout with its thumbnail, accuracy circles, and the viewport that frames it all.
///
/// For example:
///
/// ```swift
/// let builder = PhotoMapBuilder(data: MapData())
/// let options = try builder.options(for: PhotoMapRequest(photos: photos, style: style, selection: .first))
/// try MapSnapshotter(data: builder.data).write(options, to: URL(fileURLWithPath: "map.png"))
/// ```
public struct PhotoMapBuilder: Sendable {
    /// The map data places are looked up in (`--place`).
    public let data: MapData
    /// Where callout thumbnails are decoded and cached.
    public let thumbnails: ThumbnailCache

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
        let selected = try selectedPhoto(in: request)
        var thumbnail: RGBAImage?
        if let selected { thumbnail = self.thumbnail(for: selected, scale: request.scale, warnings: &warnings) }
        let annotations = request.photos.map { photo in
            annotation(for: photo, in: request, thumbnail: photo.id == selected?.id ? thumbnail : nil)
        }
        var overlays = request.overlays
        if request.showsAccuracy {
            let style = request.style.mapwright.overlay
            for photo in request.photos {
                guard let accuracy = photo.horizontalAccuracyMeters, accuracy > 0 else { continue }
                overlays.append(MapOverlay(
                    shape: .circle(center: photo.coordinate, radiusMeters: accuracy),
                    strokeColor: style.lineColor.with(alpha: 0.6), lineWidthPoints: 1,
                    fillColor: style.accuracyFillColor))
            }
        }
        let viewport = try self.viewport(for: request, overlays: overlays, hasCallout: selected != nil)
        return MapSnapshotOptions(
            viewport: viewport, style: request.style, annotations: annotations,
            clusterIndex: clusterIndex(for: annotations, in: request, viewport: viewport), clusterMemberName: "photos",
            selectedAnnotationID: selected?.id, overlays: overlays)
    }

    private func selectedPhoto(in request: PhotoMapRequest) throws(PhotoMapError) -> Photo? {
        switch request.selection {
        case .none:
            return nil
        case .first:
            return request.photos.first
        case .photo(let name):
            if let photo = request.photos.first(where: { $0.id == name }) { return photo }
            if let photo = request.photos.first(where: { $0.calloutTitle.caseInsensitiveCompare(name) == .orderedSame }) {
                return photo
            }
            throw .unknownSelection(name)
        }
    }

    /// The photo's thumbnail, from its thumbnail file or its image when local; remote images
    /// are not fetched, so their callouts have no thumbnail. A thumbnail that cannot be made, or
    /// cached, is a warning.
    private func thumbnail(for photo: Photo, scale: Double, warnings: inout [PhotoMapWarning]) -> RGBAImage? {
        let reference = [photo.thumbnail, photo.image].compactMap { $0 }.first { if case .file = $0 { return true }; return false }
        guard case .file(let url)? = reference else { return nil }
        let pixelSize = Int((MapAnnotation.thumbnailSizePoints * scale).rounded())
        do {
            let thumbnail = try thumbnails.thumbnail(for: url, pixelSize: pixelSize) { warnings.append(.thumbnailNotCached($0)) }
            return RGBAImage(width: thumbnail.width, height: thumbnail.height, pixels: thumbnail.rgba)
        } catch {
            warnings.append(.thumbnailUnavailable(error))
            return nil
        }
    }

    private func annotation(for photo: Photo, in request: PhotoMapRequest, thumbnail: RGBAImage?) -> MapAnnotation {
        let marker: MapAnnotation.Marker
        if let image = request.markerImage {
            // Marker images are @2x: a 64 × 64-pixel PNG is a 32 × 32-point marker.
            let size = ViewSize(width: Double(image.width) / 2, height: Double(image.height) / 2)
            marker = .image(image, pointSize: size, anchor: ViewPoint(x: size.width / 2, y: size.height))
        } else {
            marker = .pin(request.pinColor ?? request.style.mapwright.pins.color(forKey: photo.photographer ?? ""))
        }
        return MapAnnotation(
            id: photo.id, coordinate: photo.coordinate, title: photo.calloutTitle, subtitle: subtitle(for: photo),
            marker: marker, thumbnail: thumbnail, clusteringIdentifier: request.clusterGrouping.clusteringIdentifier(for: photo))
    }

    /// The cluster index for the annotations, when the request clusters them here.
    private func clusterIndex(for annotations: [MapAnnotation], in request: PhotoMapRequest, viewport: Viewport) -> ClusterIndex? {
        guard request.clusterGrouping != .none else { return nil }
        switch request.clustering {
        case .never: return nil
        case .automatic where !MapSnapshotter.markersWouldOverlap(annotations, in: viewport): return nil
        case .automatic, .always:
            return ClusterIndex(annotations.map { ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.clusteringIdentifier) })
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

    private func viewport(for request: PhotoMapRequest, overlays: [MapOverlay], hasCallout: Bool) throws(PhotoMapError) -> Viewport {
        let size = request.size, scale = request.scale
        switch request.framing {
        case .region(let region):
            return try viewport { () throws(MapCoreError) in try Viewport(region: region, size: size, scale: scale) }
        case .center(let center, let zoomLevel):
            return try viewport { () throws(MapCoreError) in
                try Viewport(center: center, zoomLevel: zoomLevel, size: size, scale: scale)
            }
        case .place(let name):
            let region: CoordinateRegion?
            do { region = try data.region(ofPlaceNamed: name, style: request.style) } catch { throw .renderer(error) }
            guard let region else { throw .unknownPlace(name) }
            return try viewport { () throws(MapCoreError) in try Viewport(region: region, size: size, scale: scale) }
        case .fitContent:
            let coordinates = request.photos.map(\.coordinate) + overlays.flatMap(\.framingCoordinates)
            guard !coordinates.isEmpty else { throw .nothingToShow }
            let padding = edgePadding(for: size, hasPins: !request.photos.isEmpty, hasCallout: hasCallout)
            return try viewport { () throws(MapCoreError) in
                try Viewport(showing: coordinates, edgePadding: padding, size: size, scale: scale)
            }
        }
    }

    private func viewport(_ make: () throws(MapCoreError) -> Viewport) throws(PhotoMapError) -> Viewport {
        do { return try make() } catch { throw .viewport(error) }
    }

    /// Room for pins above their coordinates and for the callout above the selected pin, shrunk
    /// for small images so at least 40 % of each side is left for the content.
    private func edgePadding(for size: ViewSize, hasPins: Bool, hasCallout: Bool) -> EdgeInsets {
        var top = hasPins ? 44.0 : 16, sides = 24.0, bottom = 12.0
        if hasCallout { top += 84 }
        let vertical = min(1, size.height * 0.6 / (top + bottom)), horizontal = min(1, size.width * 0.6 / (2 * sides))
        top *= vertical; bottom *= vertical; sides *= horizontal
        return EdgeInsets(top: top, left: sides, bottom: bottom, right: sides)
    }
}

extension MapOverlay {
    /// The coordinates a map must show for the overlay to be seen whole.
    var framingCoordinates: [Coordinate] {
        switch shape {
        case .polyline(let coordinates), .geodesicPolyline(let coordinates):
            return coordinates
        case .polygon(let exterior, _):
            return exterior
        case .circle(let center, let radiusMeters):
            return (try? GeodesicCircle(center: center, radiusMeters: radiusMeters).ring(pointCount: 16)) ?? [center]
        }
    }
}
