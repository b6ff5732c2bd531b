import Foundation
public import MapComposer
import MapCore
public import PhotoSources

/// The photos behind static maps, `/maps/photos.png` and `/photos/ID/…`: the loaded photos and
/// how `mapwright serve` was asked to draw them, as a request whose style, framing, size,
/// scale and selection each static map replaces.
public struct ServedPhotos: Sendable {
    /// The photos (possibly none), the overlays (tracks, shapes) and the drawing options (pin
    /// colour, marker image, accuracy circles, clustering) every map of the server draws.
    public var request: PhotoMapRequest
    /// Where callout and `/photos/ID/thumbnail.jpg` thumbnails are made and kept. The default is
    /// the user's thumbnail cache.
    public var thumbnails: ThumbnailCache
    /// The photos by id; the first photo of an id wins.
    let byID: [String: Photo]
    /// West, south, east, north around the photos; nil without photos.
    let bounds: [Double]?

    public init(request: PhotoMapRequest, thumbnails: ThumbnailCache = ThumbnailCache()) {
        self.request = request
        self.thumbnails = thumbnails
        byID = Dictionary(request.photos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let coordinates = request.photos.map(\.coordinate)
        // Rounded outwards to a millionth of a degree: no binary noise in the TileJSON.
        let down = { (value: Double) in (value * 1e6).rounded(.down) / 1e6 }
        let up = { (value: Double) in (value * 1e6).rounded(.up) / 1e6 }
        bounds =
            coordinates.isEmpty
            ? nil
            : [
                down(coordinates.map(\.longitude).min()!), down(coordinates.map(\.latitude).min()!),
                up(coordinates.map(\.longitude).max()!), up(coordinates.map(\.latitude).max()!),
            ]
    }

    /// The photo with an id.
    func photo(id: String) -> Photo? { byID[id] }
}
