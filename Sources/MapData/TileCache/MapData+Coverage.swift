public import Foundation
public import MapCore
public import MapStyle

extension MapData {
    /// The vector tilesets `style` reads whose tiles (their metadata's bounds) lie wholly outside
    /// `rect`, in world copies too: a map there draws none of their data. Tilesets without
    /// bounds, or that cannot be opened, are not listed.
    public func vectorTilesets(of style: Style, outside rect: MapRect) -> [(url: URL, bounds: BoundingBox)] {
        var outside: [(url: URL, bounds: BoundingBox)] = []
        for id in style.sources.keys.sorted() {
            guard case .vector(let vector)? = style.sources[id], case .tileset(let url) = vector.location,
                let bounds = (try? vectorTileSource(vector))??.bounds, !outside.contains(where: { $0.url == url })
            else { continue }
            let world = WebMercator.worldSize
            guard ![-world, 0, world].contains(where: { rect.offsetBy(dx: $0, dy: 0).intersects(bounds) }) else {
                continue
            }
            outside.append((url, BoundingBox(bounds)))
        }
        return outside
    }

    /// Whether the street-level basemaps `style` draws (its `basemap://streets` sources, resolved
    /// to tilesets by the assembly) have tiles in `rect`: nil for a style without such a resolved
    /// source (or one never resolved: nothing is known of the user's data), false when none is
    /// registered or none of their tilesets' bounds meets the rect (in any world copy). A tileset
    /// without bounds covers everywhere.
    public func streetBasemapsCover(_ rect: MapRect, in style: Style) -> Bool? {
        var found = false
        for source in style.sources.values {
            guard case .vector(let vector) = source else { continue }
            switch vector.location {
            case .tilesets(let urls):
                found = true
                for url in urls {
                    guard let tileset = (try? vectorTileSource(VectorSource(location: .tileset(url)))) ?? nil else {
                        continue
                    }
                    guard let bounds = tileset.bounds else { return true }
                    let world = WebMercator.worldSize
                    if [-world, 0, world].contains(where: { rect.offsetBy(dx: $0, dy: 0).intersects(bounds) }) {
                        return true
                    }
                }
            default: continue
            }
        }
        return found ? false : nil
    }
}
