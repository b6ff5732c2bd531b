import Dispatch
import Foundation
import Logging
import MBTiles
import MapComposer
import MapCore
import MapRenderer
import PhotoSources
import Synchronization

extension MapTileServer {
    /// `Cache-Control: max-age` of what draws or lists the photos (overlay tiles, the annotations
    /// API): ``ServerConfiguration/cacheMaxAgeSeconds``, or `nil` (`no-cache`: clients revalidate
    /// with the ETag, a cheap 304) when a ``PhotoFeed`` may change the photos at the same URLs.
    var photosMaxAgeSeconds: Int? {
        (try? servedContent().photoFeed) == nil ? configuration.cacheMaxAgeSeconds : nil
    }

    /// Brings the served photos up to date with the ``PhotoFeed``, when there is one and its
    /// version moved: reads the photos, makes the overlay again, and removes from the memory and
    /// file caches the overlay tiles the change touches, at every zoom, at every tile size and
    /// scale. ``PhotoLibraryWatchService`` calls it every
    /// ``ServerConfiguration/photoCheckIntervalSeconds``, one call at a time; requests never wait
    /// for it. The version and photos are read on NIO's blocking-I/O threads, never on an event
    /// loop. Failures are logged and the old photos stay served (the next check tries again).
    public func refreshPhotosIfChanged() async {
        guard let feed = try? servedContent().photoFeed else { return }
        do {
            let version = try await blockingIO(feed.version)
            guard appliedPhotoVersion.withLock({ $0 }) != version else { return }
            // Seconds of work under load (reading, clustering, finding the changed tiles at every
            // zoom): on a queue of its own, not NIO's blocking-I/O threads, which every cache and
            // tileset read needs.
            _ = try await withCheckedThrowingContinuation { continuation in
                Self.photoQueue.async { [self] in
                    continuation.resume(with: Result { try applyPhotoFeed(feed, version: version) })
                }
            }
        } catch {
            logger.error("photos: \(error)")
        }
    }

    /// Keeps tiles a change of photos replaced in ``replacedTiles``, to stand in for the new ones.
    private func keepReplaced(_ tiles: [(MemoryTileKey, CachedTile)]) {
        for (key, tile) in tiles { replacedTiles.insert(tile, for: key) }
    }

    /// Where changes of photos are applied, one at a time.
    static let photoQueue = DispatchQueue(label: "mapwright.serve.photos")

    /// Every tile size and scale of overlay tiles the cache may hold.
    static let overlayTileSizes = [256, 512], overlayScales = 1...3

    /// The cache keys of the overlay's tiles of one size and scale: the photos', and the density
    /// map's when photos are served.
    func overlayKeys(_ overlay: ServedOverlay, tileSizePoints: Int, scale: Int) -> [TileCacheKey] {
        [overlayTiles(overlay, tileSizePoints: tileSizePoints, scale: scale).0]
            + [heatmapTiles(overlay, tileSizePoints: tileSizePoints, scale: scale)?.0].compactMap { $0 }
    }

    /// Drops the overlay tiles of the cache files that were drawn for other photos than the
    /// overlay's (an earlier run's library, changed since), at start-up. Failures are logged.
    func adoptOverlayCache(_ overlay: ServedOverlay, drawnFor: String) {
        var removed = 0
        do {
            for size in Self.overlayTileSizes {
                for scale in Self.overlayScales {
                    for key in overlayKeys(overlay, tileSizePoints: size, scale: scale) {
                        removed += try cache.adopt(drawnFor: drawnFor, key: key, zooms: 0...configuration.maximumZoom)
                    }
                }
            }
        } catch {
            logger.error("photos: the cache's overlay tiles could not be checked: \(error)")
        }
        if removed > 0 {
            logger.info("photos: \(removed) cached overlay tiles were drawn for other photos and were removed")
        }
    }

    /// Reads the feed's photos and serves them, invalidating the overlay tiles that change.
    ///
    /// - Returns: How many tiles were invalidated (memory and files counted once per address).
    @discardableResult
    func applyPhotoFeed(_ feed: PhotoFeed, version: Int64) throws -> Int {
        let start = DispatchTime.now().uptimeNanoseconds
        let content = try servedContent()
        let newPhotos = try feed.photos()
        let oldPhotos = content.photos?.request.photos ?? []
        let places = PhotoFeed.changedPlaces(from: oldPhotos, to: newPhotos)
        guard !places.isEmpty else {
            appliedPhotoVersion.withLock { $0 = version }
            return 0
        }
        let (overlay, photos) = try feed.content(newPhotos)

        // The changed tiles per tile size, found at scale 1 (markers have the same size in points at every scale).
        var changes: [Int: ChangedTiles] = [:]
        var newRenderers: [TileCacheKey: MapTileRenderer] = [:]
        for size in [256, 512] {
            let (newKey, makeNew) = overlayTiles(overlay, tileSizePoints: size, scale: 1)
            let newRenderer = try makeNew()
            newRenderers[newKey] = newRenderer
            guard let oldOverlay = content.overlay else {
                changes[size] = .all
                continue
            }
            let (oldKey, makeOld) = overlayTiles(oldOverlay, tileSizePoints: size, scale: 1)
            let oldRenderer = try existingRenderer(for: oldKey) ?? makeOld()
            changes[size] = try oldRenderer.changedTiles(
                comparedWith: newRenderer, around: places, zooms: 0...configuration.maximumZoom)
        }

        // The cache files record no photos while they hold tiles of both.
        for size in Self.overlayTileSizes where overlay.drawnFor != nil {
            for scale in Self.overlayScales {
                for key in overlayKeys(overlay, tileSizePoints: size, scale: scale) {
                    try cache.record(drawnFor: nil, key: key)
                }
            }
        }
        // Serve the new photos first, then forget the old tiles: a render begun before this sees
        // the generation move and keeps its tiles out of the caches.
        overlayGeneration.add(1, ordering: .releasing)
        replaceContent { served in
            served.overlay = overlay
            served.photos = photos
        }
        forgetOverlayRenderers(keeping: newRenderers)

        var invalidated = 0
        for size in Self.overlayTileSizes {
            for scale in Self.overlayScales {
                let (key, _) = overlayTiles(overlay, tileSizePoints: size, scale: scale)
                let source = MemoryTileSource.rendered(key)
                // The replaced tiles in memory stand in for the new ones under load (see standIn(for:cacheKey:)).
                switch changes[size] ?? .all {
                case .all:
                    keepReplaced(memory.removeAll(source: source))
                    invalidated += try cache.removeAll(key: key, zooms: 0...configuration.maximumZoom)
                case .tiles(let tiles):
                    keepReplaced(memory.remove(tiles.map { MemoryTileKey(source: source, tile: $0) }))
                    try cache.remove(tiles, key: key)
                    if scale == 1 { invalidated += tiles.count }
                }
                if let drawnFor = overlay.drawnFor { try cache.record(drawnFor: drawnFor, key: key) }
                // The density map changes over a kernel's reach around each changed photo, at
                // every zoom: its tiles are all drawn again on request.
                if let (heatmapKey, _) = heatmapTiles(overlay, tileSizePoints: size, scale: scale) {
                    keepReplaced(memory.removeAll(source: .rendered(heatmapKey)))
                    _ = try cache.removeAll(key: heatmapKey, zooms: 0...configuration.maximumZoom)
                    if let drawnFor = overlay.drawnFor { try cache.record(drawnFor: drawnFor, key: heatmapKey) }
                }
            }
        }
        appliedPhotoVersion.withLock { $0 = version }
        metrics.increment("mapwright_photo_changes_total")
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let counts = [256, 512].map { size -> String in
            switch changes[size] ?? .all {
            case .all: return "every \(size)-point tile"
            case .tiles(let tiles): return "\(tiles.count) tiles of \(size) points"
            }
        }
        logger.info(
            "photos changed (\(oldPhotos.count) -> \(newPhotos.count)): \(counts.joined(separator: " and ")) invalidated at each scale in \(String(format: "%.0f", milliseconds)) ms"
        )
        return invalidated
    }
}
