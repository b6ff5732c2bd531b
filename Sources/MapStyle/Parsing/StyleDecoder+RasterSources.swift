import Foundation
import MapCore
import MapJSON

extension StyleDecoder {
    /// Reads a `raster-dem` source: a raster source's tiles and `encoding` (`mapbox`, the
    /// default; `terrarium`; or `custom` with `redFactor`, `greenFactor`, `blueFactor`, `baseShift`).
    /// Its `url` may be `basemap://terrain`, the DEMs the user registered
    /// (``RasterTileLocation/terrainBasemaps``), whose encoding and tile size come from them.
    mutating func decodeRasterDEMSource(
        _ members: [String: JSONValue],
        attribution: String?,
        at path: StylePath
    ) throws(StyleError) -> RasterDEMSource {
        let encodingKeys: Set<String> = ["encoding", "redFactor", "greenFactor", "blueFactor", "baseShift"]
        reportUnknownKeys(members, known: StyleDecoder.rasterSourceKeys.union(encodingKeys), at: path) {
            "unknown or unsupported key '\($0)' of a raster-dem source (ignored)"
        }
        var members = members
        // The TileJSON may name the encoding; the source's own wins.
        if members["encoding"] == nil, case .string(let url)? = members["url"],
            let tileJSON = try tileJSON(url, anyLocalFile: true, at: path.appending("url")),
            let encoding = tileJSON.members["encoding"]
        {
            members["encoding"] = encoding
        }
        // `basemap://terrain`: the DEMs the user registered, resolved by whoever loads the style.
        let isTerrain = members["url"] == .string("basemap://terrain")
        if isTerrain { members["url"] = nil }
        var tiles = try decodeRasterSource(members, attribution: attribution, at: path)
        if isTerrain {
            guard tiles.tiles == nil else {
                throw error(.invalidValue("give either 'tiles' or 'url', not both"), at: path.appending("url"))
            }
            tiles.tiles = .terrainBasemaps
        }
        var encoding = DEMEncoding.mapbox
        if let value = members["encoding"] {
            switch try string(value, at: path.appending("encoding")) {
            case "mapbox": encoding = .mapbox
            case "terrarium": encoding = .terrarium
            case "custom":
                func factor(_ key: String, _ fallback: Double) throws(StyleError) -> Double {
                    guard let value = members[key] else { return fallback }
                    return try number(value, at: path.appending(key))
                }
                encoding = DEMEncoding(
                    redFactor: try factor("redFactor", 1), greenFactor: try factor("greenFactor", 1),
                    blueFactor: try factor("blueFactor", 1), baseShift: try factor("baseShift", 0))
            case let other:
                throw error(
                    .invalidValue("'\(other)' is not a DEM encoding: expected mapbox, terrarium or custom"),
                    at: path.appending("encoding"))
            }
        }
        return RasterDEMSource(tiles: tiles, encoding: encoding)
    }

    /// Reads an `image` source: `url` (a local PNG or JPEG) and its four corners' `coordinates`.
    mutating func decodeImageSource(_ members: [String: JSONValue], at path: StylePath) throws(StyleError)
        -> ImageSource
    {
        reportUnknownKeys(members, known: ["type", "url", "coordinates"], at: path) {
            "unknown or unsupported key '\($0)' of an image source (ignored)"
        }
        guard let urlJSON = members["url"] else { throw error(.missingKey("url"), at: path) }
        let url = try string(urlJSON, at: path.appending("url"))
        guard !Self.isRemote(url) else {
            throw error(
                .invalidValue("'\(url)' is not a local file: Mapwright reads images from disk"),
                at: path.appending("url"))
        }
        guard let coordinatesJSON = members["coordinates"] else { throw error(.missingKey("coordinates"), at: path) }
        let coordinatesPath = path.appending("coordinates")
        let items = try array(coordinatesJSON, at: coordinatesPath)
        guard items.count == 4 else {
            throw error(
                .invalidValue("an image source has four corners: top left, top right, bottom right, bottom left"),
                at: coordinatesPath)
        }
        var corners: [Coordinate] = []
        var longitudes: [Double] = []
        for (index, item) in items.enumerated() {
            let cornerPath = coordinatesPath.appending(index: index)
            let pair = try array(item, at: cornerPath)
            guard pair.count == 2 else {
                throw error(.invalidValue("a corner is [longitude, latitude]"), at: cornerPath)
            }
            let longitude = try number(pair[0], at: cornerPath.appending(index: 0))
            let latitude = try number(pair[1], at: cornerPath.appending(index: 1))
            do { corners.append(try Coordinate(latitude: latitude, wrappingLongitude: longitude)) } catch {
                throw self.error(
                    .invalidValue("[\(longitude), \(latitude)] is not a longitude and latitude"), at: cornerPath)
            }
            longitudes.append(longitude)
        }
        return ImageSource(
            url: StyleLocation.fileURL(url, relativeTo: baseURL), corners: corners, longitudes: longitudes)
    }
}
