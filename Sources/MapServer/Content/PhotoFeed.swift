import Foundation
import MapCore
public import PhotoSources

/// Photos that change while the server runs: a photo library that `mapwright photos add`,
/// `remove` and `set-location` edit from another process.
///
/// Every ``ServerConfiguration/photoCheckIntervalSeconds`` the server's
/// ``PhotoLibraryWatchService`` asks ``version`` whether anything changed; when it did, the
/// server reads ``photos``, makes the served overlay and photos again with ``content``, and
/// removes from its caches exactly the overlay tiles the change touches, at every zoom
/// (`MapTileRenderer.changedTiles(comparedWith:around:zooms:)`); then it serves the change.
/// Requests never wait for a check.
public struct PhotoFeed: Sendable {
    /// A number that changes whenever the photos may have changed (a library's
    /// `PRAGMA data_version`); called often, so it must be cheap.
    public var version: @Sendable () throws -> Int64
    /// The photos now.
    public var photos: @Sendable () throws -> [Photo]
    /// The served overlay and photos for a set of photos. The overlay's content hash must not
    /// depend on the photos (the cache file stays; its changed tiles are removed instead).
    public var content: @Sendable ([Photo]) throws -> (overlay: ServedOverlay, photos: ServedPhotos)
    /// The ``version`` the photos served at start-up were read at.
    public var loadedVersion: Int64

    public init(
        version: @escaping @Sendable () throws -> Int64, photos: @escaping @Sendable () throws -> [Photo],
        content: @escaping @Sendable ([Photo]) throws -> (overlay: ServedOverlay, photos: ServedPhotos),
        loadedVersion: Int64
    ) {
        self.version = version
        self.photos = photos
        self.content = content
        self.loadedVersion = loadedVersion
    }

    /// The places a change of photos touches: where each added or removed photo is, and where
    /// each changed one was and is. Empty when nothing changed.
    static func changedPlaces(from old: [Photo], to new: [Photo]) -> [Coordinate] {
        var oldByID: [String: Photo] = [:]
        for photo in old where oldByID[photo.id] == nil { oldByID[photo.id] = photo }
        var places: [Coordinate] = []
        var seen = Set<String>()
        for photo in new where seen.insert(photo.id).inserted {
            if let before = oldByID.removeValue(forKey: photo.id) {
                if before != photo { places += [before.coordinate, photo.coordinate] }
            } else {
                places.append(photo.coordinate)
            }
        }
        places += oldByID.values.map(\.coordinate)
        return places
    }
}
