import Foundation
public import MapCore
public import PhotoSources

/// A problem that does not stop a photo map: the map is drawn, and the problem is shown as a
/// warning, one line naming the file or folder.
public enum PhotoMapWarning: Hashable, Sendable, CustomStringConvertible {
    /// The thumbnail cache folder cannot be written; the thumbnail was made and is drawn, but
    /// is made again on the next run. Holds ``PhotoSourceError/cacheUnwritable(directory:reason:)``.
    case thumbnailNotCached(PhotoSourceError)
    /// The selected photo's thumbnail cannot be made (the JPEG cannot be read or decoded); the
    /// callout is drawn without it.
    case thumbnailUnavailable(PhotoSourceError)
    /// Of `total` photos, `outside` lie outside the map's region (`--region`, `--bbox`,
    /// `--center`, `--place`) and are not shown.
    case photosOutsideMap(outside: Int, total: Int)
    /// The selected photo lies outside the map's region, so its callout is not shown.
    case selectedPhotoOutsideMap(title: String)
    /// The selected photo's callout is larger than the image and is cut at its edges.
    case calloutDoesNotFit(title: String, size: ViewSize)
    /// The map lies wholly outside the tiles of a vector tileset the style draws (`--vector-source`),
    /// so it shows none of its streets; `bounds` is where the tileset has tiles.
    case outsideVectorTiles(file: String, bounds: BoundingBox)
    /// The map is at street scale (`zoom`, at least ``PhotoMapBuilder/streetZoomLevel``) in a
    /// style drawing the registered street-level basemaps (`basemap://streets`), and none covers
    /// it: it shows the world basemap only.
    case noStreetLevelData(zoom: Int)

    public var description: String {
        switch self {
        case .thumbnailNotCached(let error):
            return "\(error); thumbnails are made again on every run"
        case .thumbnailUnavailable(let error):
            return "\(error); the callout is drawn without a thumbnail"
        case .photosOutsideMap(let outside, let total) where outside == total:
            return total == 1
                ? "the photo lies outside the map's region and is not shown"
                : "none of the \(total) photos lies inside the map's region; none is shown"
        case .photosOutsideMap(let outside, let total):
            return "\(outside) of \(total) photos lie outside the map's region and are not shown"
        case .selectedPhotoOutsideMap(let title):
            return "the selected photo '\(title)' lies outside the map's region; its callout is not shown"
        case .calloutDoesNotFit(let title, let size):
            let width = size.width.decimalText(maximumFractionDigits: 1)
            let height = size.height.decimalText(maximumFractionDigits: 1)
            return
                "the callout of '\(title)' does not fit in a \(width)x\(height)-point map and is cut; try a larger --size"
        case .outsideVectorTiles(let file, let bounds):
            let corners = [bounds.west, bounds.south, bounds.east, bounds.north].map {
                $0.decimalText(maximumFractionDigits: 4)
            }
            return
                "\(file): the map lies outside its tiles, which cover \(corners.joined(separator: ",")) (west,south,east,north); it shows none of their streets"
        case .noStreetLevelData(let zoom):
            return
                "no street-level data covers this map (zoom \(zoom)): it shows the world basemap only; register your region's with `mapwright basemap build EXTRACT.osm.pbf` (an OpenStreetMap extract from Geofabrik or BBBike) or `mapwright basemap add FILE.mbtiles`"
        }
    }
}
