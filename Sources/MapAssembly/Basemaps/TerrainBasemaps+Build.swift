public import Foundation
import ImageCodec
import MapCore
import MapUtilities
import TileSources
import TilesetTools
import Tilesets

extension TerrainBasemaps {
    /// What `mapwright terrain build` is asked to do.
    public struct BuildRequest: Sendable {
        /// The elevation raster: a GeoTIFF (or any single-band raster GDAL reads) in metres, in
        /// any coordinate system it names.
        public var dem: URL
        /// The DEM's name. The default is the file's name without its extension.
        public var name: String?
        /// The zooms to write (256-pixel tiles). The defaults are 0 and the zoom whose pixels are
        /// nearest the raster's own, at most 14 (the hillshade has faded out beyond it).
        public var minZoom: Int?, maxZoom: Int?
        /// How the tiles carry metres. The default is Terrarium.
        public var encoding: Encoding
        /// Who made the elevations, shown on maps they shade. The default is none.
        public var attribution: String?

        public init(
            dem: URL, name: String? = nil, minZoom: Int? = nil, maxZoom: Int? = nil, encoding: Encoding = .terrarium,
            attribution: String? = nil
        ) {
            self.dem = dem
            self.name = name
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.encoding = encoding
            self.attribution = attribution
        }
    }

    /// Where `terrain build` writes tilesets: `terrain/` in the user's data folder.
    public var buildsDirectory: URL { locations.userDataDirectory.appendingPathComponent("terrain", isDirectory: true) }

    /// The deepest zoom `terrain build` writes by default, 14: the standard looks' hillshade has
    /// faded out by render zoom 14.
    public static let defaultMaximumZoom = 14

    /// Turns an elevation raster into a DEM tileset of 256-pixel PNG tiles (Terrarium, or Mapbox
    /// Terrain-RGB) in `NAME.mbtiles` in ``buildsDirectory``, with GDAL, and registers it first.
    ///
    /// For each zoom, `gdalwarp` resamples the raster to Web Mercator (EPSG:3857) on the tiles'
    /// pixel grid (averaging where the zoom is coarser than the raster, bilinear where finer), in
    /// blocks of up to 16 × 16 tiles; each tile's metres are encoded to the nearest step the
    /// encoding has (1/256 m for Terrarium, 0.1 m for Mapbox). Tiles without data are left out;
    /// pixels without data in a tile are transparent (Mapwright's hillshade draws nothing there)
    /// and carry the nearest value of their row (or column), so the slopes at the data's edge,
    /// and a reader that ignores alpha, see no cliff. The file is written in a temporary
    /// folder and moved into place: a failed build leaves nothing behind.
    ///
    /// - Parameter progress: Called with each step, in words, from the calling thread.
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming the file: missing, not a raster GDAL
    ///   reads, without a coordinate system; GDAL missing or failing; zooms out of range.
    @discardableResult
    public func build(_ request: BuildRequest, progress: (String) -> Void = { _ in }) throws(AssemblyError) -> Entry {
        let dem = request.dem.standardizedFileURL
        try AssemblyError.checkReadableFile(dem.path, input: .terrain)
        let name = request.name ?? dem.deletingPathExtension().lastPathComponent
        let destination = buildsDirectory.appendingPathComponent("\(name).mbtiles")
        try registry.checkBuildName(name, destination: destination)
        let searchPath = locations.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        guard let gdalinfo = URL.executable(named: "gdalinfo", searchPath: searchPath),
            let gdalwarp = URL.executable(named: "gdalwarp", searchPath: searchPath)
        else {
            throw .invalid(
                .terrain,
                reason:
                    "GDAL is not installed: run scripts/setup.sh (it installs Debian's gdal-bin), or apt-get install gdal-bin"
            )
        }
        progress("reading \(dem.lastPathComponent) with gdalinfo")
        let raster = try RasterFacts(dem, gdalinfo: gdalinfo)
        let minZoom = request.minZoom ?? 0
        let maxZoom = request.maxZoom ?? max(minZoom, min(Self.defaultMaximumZoom, raster.nativeZoom))
        guard (0...18).contains(minZoom), (0...18).contains(maxZoom), minZoom <= maxZoom else {
            throw .invalid(.terrain, reason: "the zooms \(minZoom) to \(maxZoom) are not a range within 0 to 18")
        }

        try registry.building(into: destination, prefix: "mapwright-terrain-") { work throws(AssemblyError) in
            let built = work.appendingPathComponent("\(name).mbtiles")
            do throws(TilesetToolsError) {
                let writer = try TilesetWriter(output: built)
                for zoom in minZoom...maxZoom {
                    progress("writing tiles at zoom \(zoom)")
                    for block in Self.blocks(covering: raster.bounds, zoom: zoom) {
                        let tiles = try warpedTiles(
                            block, zoom: zoom, of: dem, gdalwarp: gdalwarp, average: zoom < raster.nativeZoom, in: work,
                            encoding: request.encoding)
                        if !tiles.isEmpty { try writer.add(tiles) }
                    }
                }
                var metadata = TileMetadata(
                    name: name, format: .png, bounds: raster.bounds,
                    center: TileMetadata.Center(
                        longitude: (raster.bounds.west + raster.bounds.east) / 2,
                        latitude: (raster.bounds.south + raster.bounds.north) / 2, zoom: minZoom),
                    minZoom: minZoom, maxZoom: maxZoom, attribution: request.attribution,
                    description:
                        "\(name): elevations from \(dem.lastPathComponent), \(request.encoding.rawValue)-encoded (mapwright terrain build)",
                    type: .baselayer)
                metadata.otherValues["encoding"] = request.encoding.rawValue
                guard try writer.finish(metadata: metadata) > 0 else {
                    throw .tileset(
                        .invalidSource(reason: "\(dem.path) has no elevation inside Web Mercator's latitudes (±85.05°)")
                    )
                }
            } catch {
                throw .invalid(.terrain, reason: "\(dem.path) cannot be made into tiles: \(error.description)")
            }
            return built
        }
        return try add(path: destination.path, name: name, encoding: request.encoding)
    }

    /// What gdalinfo says of a raster: where it lies (in degrees, within Web Mercator's
    /// latitudes) and the zoom whose pixels are nearest its own.
    struct RasterFacts {
        var bounds: BoundingBox
        var nativeZoom: Int

        init(_ url: URL, gdalinfo: URL) throws(AssemblyError) {
            let run = ExternalProgram.runTool(gdalinfo, ["-json", url.path])
            guard run.status == 0, let object = try? JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            else {
                // GDAL's own "ERROR 4: `x' not recognized as a supported file format.", else its last line.
                let lines = run.errorText.split(separator: "\n").map(String.init)
                let error = lines.first { $0.hasPrefix("ERROR") }.map {
                    $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? $0
                }
                let said = error ?? lines.last ?? "gdalinfo failed"
                throw .invalid(.terrain, reason: "\(url.path) is not a raster GDAL reads: \(said)")
            }
            guard let size = object["size"] as? [Int], size.count == 2, size[0] > 0, size[1] > 0,
                let bands = object["bands"] as? [Any], !bands.isEmpty
            else {
                throw .invalid(.terrain, reason: "\(url.path) has no pixels GDAL reads")
            }
            guard let extent = object["wgs84Extent"] as? [String: Any],
                let rings = extent["coordinates"] as? [[[Double]]],
                let ring = rings.first, !ring.isEmpty
            else {
                throw .invalid(
                    .terrain,
                    reason:
                        "\(url.path) has no coordinate system (it is not georeferenced): give it one with gdal_edit.py -a_srs EPSG:CODE -a_ullr, or use a GeoTIFF"
                )
            }
            let longitudes = ring.compactMap(\.first)
            let latitudes = ring.compactMap { $0.count > 1 ? $0[1] : nil }
            let limit = WebMercator.maximumLatitude
            guard let west = longitudes.min(), let east = longitudes.max(), let south = latitudes.min(),
                let north = latitudes.max(),
                min(north, limit) > max(south, -limit), east > west
            else {
                throw .invalid(.terrain, reason: "\(url.path) lies outside Web Mercator's latitudes (±85.05°)")
            }
            bounds = BoundingBox(
                west: max(-180, west), south: max(-limit, south), east: min(180, east), north: min(limit, north))
            // Metres per pixel at the middle latitude against a 256-pixel tile's at each zoom.
            let middle = (bounds.south + bounds.north) / 2 * .pi / 180
            let metersPerPixel = (east - west) / Double(size[0]) * 111_319.490_793_273_6 * cos(middle)
            let zoom = log2(156_543.033_928_041 * cos(middle) / max(metersPerPixel, 0.01))
            nativeZoom = max(0, min(18, Int(zoom.rounded())))
        }
    }

    /// Up to 16 × 16 tiles of one zoom, a rectangle of columns and rows.
    struct TileBlock {
        var columns: ClosedRange<Int>, rows: ClosedRange<Int>
    }

    /// The blocks of tiles covering `bounds` at `zoom`, row by row.
    static func blocks(covering bounds: BoundingBox, zoom: Int) -> [TileBlock] {
        let perSide = 1 << zoom
        func column(_ longitude: Double) -> Int {
            min(perSide - 1, max(0, Int(floor((longitude + 180) / 360 * Double(perSide)))))
        }
        func row(_ latitude: Double) -> Int {
            let radians = latitude * .pi / 180
            let y = (1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2
            return min(perSide - 1, max(0, Int(floor(y * Double(perSide)))))
        }
        // A bound on a tile's edge belongs to the tile it starts.
        let columns = column(bounds.west)...max(column(bounds.west), column(bounds.east - 1e-9))
        let rows = row(bounds.north)...max(row(bounds.north), row(bounds.south + 1e-9))
        var blocks: [TileBlock] = []
        for top in stride(from: rows.lowerBound, through: rows.upperBound, by: 16) {
            for left in stride(from: columns.lowerBound, through: columns.upperBound, by: 16) {
                blocks.append(
                    TileBlock(
                        columns: left...min(columns.upperBound, left + 15), rows: top...min(rows.upperBound, top + 15)))
            }
        }
        return blocks
    }

    /// The encoded tiles of one block: the raster warped by gdalwarp onto their pixels.
    private func warpedTiles(
        _ block: TileBlock, zoom: Int, of dem: URL, gdalwarp: URL, average: Bool, in work: URL, encoding: Encoding
    ) throws(TilesetToolsError) -> [TileID: Data] {
        let side = 256
        let half = 20_037_508.342_789_244
        let tileMeters = 2 * half / Double(1 << zoom)
        let width = block.columns.count * side
        let height = block.rows.count * side
        let output = work.appendingPathComponent("block.bin")
        let arguments = [
            "-q", "-overwrite", "-t_srs", "EPSG:3857",
            "-te", "\(-half + Double(block.columns.lowerBound) * tileMeters)",
            "\(half - Double(block.rows.upperBound + 1) * tileMeters)",
            "\(-half + Double(block.columns.upperBound + 1) * tileMeters)",
            "\(half - Double(block.rows.lowerBound) * tileMeters)",
            "-ts", "\(width)", "\(height)", "-r", average ? "average" : "bilinear",
            "-ot", "Float32", "-dstnodata", "nan", "-of", "ENVI", dem.path, output.path,
        ]
        let run = ExternalProgram.runTool(gdalwarp, arguments)
        let bytes = try? Data(contentsOf: output)
        guard run.status == 0, let bytes, bytes.count == width * height * 4 else {
            let said = run.errorText.split(separator: "\n").last.map(String.init) ?? "it wrote no pixels"
            throw .tileset(.invalidSource(reason: "gdalwarp failed at zoom \(zoom): \(said)"))
        }
        // ENVI's raw samples, in this machine's byte order (its header's `byte order`).
        var meters = [Float](repeating: .nan, count: width * height)
        _ = meters.withUnsafeMutableBytes { bytes.copyBytes(to: $0) }
        var tiles: [TileID: Data] = [:]
        for row in block.rows {
            for column in block.columns {
                var samples = [Float](repeating: .nan, count: side * side)
                let left = (column - block.columns.lowerBound) * side
                let top = (row - block.rows.lowerBound) * side
                for y in 0..<side {
                    let start = (top + y) * width + left
                    samples.replaceSubrange(y * side..<(y + 1) * side, with: meters[start..<start + side])
                }
                let missing = samples.map(\.isNaN)
                guard Self.fillGaps(&samples, side: side) else { continue }
                var pixels = Self.encoded(samples, encoding: encoding)
                for (index, isMissing) in missing.enumerated() where isMissing { pixels[index * 4 + 3] = 0 }
                let image = RGBAImage(width: side, height: side, pixels: pixels)
                guard let id = try? TileID(z: zoom, x: column, y: row) else { continue }
                do { tiles[id] = try image.pngData() } catch {
                    throw .tileset(.invalidSource(reason: "a tile cannot be encoded: \(error)"))
                }
            }
        }
        return tiles
    }

    /// Fills a tile's pixels without data (NaN) with the nearest value of their row, then of
    /// their column in rows without any; false when the tile has no data at all.
    static func fillGaps(_ samples: inout [Float], side: Int) -> Bool {
        var rowHasData = [Bool](repeating: false, count: side)
        for y in 0..<side {
            let start = y * side
            let known = (0..<side).filter { !samples[start + $0].isNaN }
            guard let first = known.first else { continue }
            rowHasData[y] = true
            guard known.count < side else { continue }
            var previous: Int? = nil
            var next = 0
            for x in 0..<side {
                if !samples[start + x].isNaN {
                    previous = x
                    continue
                }
                while next < known.count, known[next] < x { next += 1 }
                let after = next < known.count ? known[next] : nil
                let nearest =
                    switch (previous, after) {
                    case (let before?, let after?): x - before <= after - x ? before : after
                    case (let before?, nil): before
                    default: after ?? first
                    }
                samples[start + x] = samples[start + nearest]
            }
        }
        let rows = (0..<side).filter { rowHasData[$0] }
        guard !rows.isEmpty else { return false }
        for y in 0..<side where !rowHasData[y] {
            let nearest = rows.min { abs($0 - y) < abs($1 - y) }!
            for x in 0..<side { samples[y * side + x] = samples[nearest * side + x] }
        }
        return true
    }

    /// RGBA pixels of metres, opaque: Terrarium's `R × 256 + G + B / 256 − 32768` or Mapbox's
    /// `(R × 65536 + G × 256 + B) / 10 − 10000`, each to the nearest step and clamped into range.
    static func encoded(_ meters: [Float], encoding: Encoding) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: meters.count * 4)
        for (index, value) in meters.enumerated() {
            let steps =
                switch encoding {
                case .terrarium: ((Double(value) + 32_768) * 256).rounded()
                case .mapbox: ((Double(value) + 10_000) * 10).rounded()
                }
            let clamped = UInt32(min(Double(0xFF_FFFF), max(0, steps)))
            pixels[index * 4] = UInt8(clamped >> 16)
            pixels[index * 4 + 1] = UInt8((clamped >> 8) & 0xFF)
            pixels[index * 4 + 2] = UInt8(clamped & 0xFF)
        }
        return pixels
    }
}
