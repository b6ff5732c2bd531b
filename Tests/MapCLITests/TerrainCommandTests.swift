import Foundation
import ImageCodec
import MapCore
import MapTestSupport
import Testing
import TileSources
import TilesetTools
import Tilesets

/// `mapwright terrain` and the relief it draws: DEM tilesets written here with known slopes,
/// GeoTIFFs made by GDAL and converted, checked against GDAL's own gdallocationinfo, and a real
/// DEM that a Debian package ships (USGS's Jacksboro fault elevations, in matplotlib's sample data).
struct TerrainCommandTests {
    /// A user with nothing registered, the checkout's styles, basemap and Helsinki streets.
    private func environment(_ directory: TemporaryDirectory, userData: String = "user data") -> [String: String?] {
        [
            "XDG_DATA_HOME": directory.path(userData), "MAPWRIGHT_DATA": MapwrightProcess.repository.path,
            "MAPWRIGHT_NO_CHECKOUT": "1",
        ]
    }

    /// A square pyramid `heightMeters` high whose base is `halfSide` (in Web Mercator's unit
    /// square) each way from `center`, on flat ground at 0 m.
    struct Pyramid {
        var center: (x: Double, y: Double)
        var halfSide: Double
        var heightMeters: Double

        func elevation(x: Double, y: Double) -> Double {
            heightMeters * max(0, 1 - max(abs(x - center.x), abs(y - center.y)) / halfSide)
        }
    }

    /// Web Mercator's unit square position of a coordinate.
    static func unit(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let radians = latitude * .pi / 180
        return ((longitude + 180) / 360, (1 - log(tan(radians) + 1 / cos(radians)) / .pi) / 2)
    }

    /// Writes the pyramid as Terrarium PNG tiles of 256 pixels at `zooms`, every tile its base
    /// touches and one more around, into an MBTiles file whose metadata says `terrarium`.
    static func writeTerrarium(_ pyramid: Pyramid, zooms: ClosedRange<Int>, to url: URL, encodingRow: Bool = true)
        throws
    {
        let writer = try TilesetWriter(output: url)
        for zoom in zooms {
            let perSide = Double(1 << zoom)
            let low = (
                x: Int(((pyramid.center.x - pyramid.halfSide) * perSide).rounded(.down)) - 1,
                y: Int(((pyramid.center.y - pyramid.halfSide) * perSide).rounded(.down)) - 1
            )
            let high = (
                x: Int(((pyramid.center.x + pyramid.halfSide) * perSide).rounded(.down)) + 1,
                y: Int(((pyramid.center.y + pyramid.halfSide) * perSide).rounded(.down)) + 1
            )
            for ty in low.y...high.y {
                for tx in low.x...high.x {
                    var pixels = [UInt8](repeating: 255, count: 256 * 256 * 4)
                    for py in 0..<256 {
                        for px in 0..<256 {
                            let x = (Double(tx) + (Double(px) + 0.5) / 256) / perSide
                            let y = (Double(ty) + (Double(py) + 0.5) / 256) / perSide
                            // Terrarium: R × 256 + G + B / 256 − 32768 metres.
                            let steps = Int(((pyramid.elevation(x: x, y: y) + 32_768) * 256).rounded())
                            let offset = (py * 256 + px) * 4
                            pixels[offset] = UInt8(steps >> 16)
                            pixels[offset + 1] = UInt8((steps >> 8) & 0xFF)
                            pixels[offset + 2] = UInt8(steps & 0xFF)
                        }
                    }
                    try writer.add(
                        RGBAImage(width: 256, height: 256, pixels: pixels).pngData(), at: TileID(z: zoom, x: tx, y: ty))
                }
            }
        }
        var metadata = TileMetadata(name: "pyramid", format: .png, minZoom: zooms.lowerBound, maxZoom: zooms.upperBound)
        if encodingRow { metadata.otherValues["encoding"] = "terrarium" }
        try writer.finish(metadata: metadata)
    }

    /// The mean brightness (R + G + B) / 3 of the 5 × 5 pixels around (x, y).
    static func brightness(_ image: RGBAImage, x: Int, y: Int) -> Double {
        var sum = 0.0
        for dy in -2...2 {
            for dx in -2...2 {
                let offset = ((y + dy) * image.width + x + dx) * 4
                sum +=
                    (Double(image.pixels[offset]) + Double(image.pixels[offset + 1]) + Double(image.pixels[offset + 2]))
                    / 3
            }
        }
        return sum / 25
    }

    @Test func slopesFacingTheLightAreLighterThanFlatGroundAndThoseFacingAwayDarker() throws {
        let directory = try TemporaryDirectory()
        let environment = environment(directory)
        // A pyramid 1,500 m high, 200 pixels of zoom 12 each way from the equator's meridian 0
        // (its faces slope about 11°), and flat ground around it.
        let pyramid = Pyramid(center: (0.5, 0.5), halfSide: 200.0 / 256 / 4096, heightMeters: 1_500)
        let dem = directory.file("pyramid.mbtiles")
        try Self.writeTerrarium(pyramid, zooms: 10...12, to: dem)
        let added = try MapwrightProcess.run(["terrain", "add", dem.path], environment: environment)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(
            added.standardOutput.contains("registered pyramid: \(dem.path), terrarium, 256-pixel tiles, zooms 10-12"))

        // Grey ground, black shadows, white highlights, no accent; the light from the
        // north-west (335°, MapLibre's default) fixed to the map.
        let style = directory.file("relief.json")
        try Data(
            #"""
            {"version": 8, "sources": {"terrain": {"type": "raster-dem", "url": "basemap://terrain"}},
             "layers": [
               {"id": "ground", "type": "background", "paint": {"background-color": "#808080"}},
               {"id": "relief", "type": "hillshade", "source": "terrain",
                "paint": {"hillshade-exaggeration": 1, "hillshade-shadow-color": "#000000", "hillshade-highlight-color": "#ffffff",
                          "hillshade-accent-color": "rgba(0, 0, 0, 0)", "hillshade-illumination-anchor": "map"}}]}
            """#.utf8
        ).write(to: style)
        let output = directory.file("relief.png")
        let rendered = try MapwrightProcess.run(
            [
                "render", "--style", style.path, "--center", "0,0", "--zoom", "12", "--size", "512x512", "-o",
                output.path,
            ], environment: environment)
        try #require(rendered.status == 0, "\(rendered.standardError)")
        let image = try RGBAImage(contentsOf: output)
        // The pyramid's faces: west and north face the light (335°), east and south face away.
        let west = Self.brightness(image, x: 156, y: 256)
        let east = Self.brightness(image, x: 356, y: 256)
        let north = Self.brightness(image, x: 256, y: 156)
        let south = Self.brightness(image, x: 256, y: 356)
        let flat = Self.brightness(image, x: 30, y: 30)
        // Flat ground is the hillshade's flat value: MapLibre keeps slopes in an 8-bit texture,
        // where 0 is stored as 128/255, a slope of 1/255 eastwards, a shade lighter than the grey.
        #expect(
            abs(flat - 128) <= 3 && Self.brightness(image, x: 480, y: 480) == flat
                && Self.brightness(image, x: 30, y: 480) == flat,
            "flat ground is one value, the ground's grey within a shade: \(flat)")
        #expect(
            west > flat + 8 && north > flat + 25, "faces towards the light: west \(west), north \(north), flat \(flat)")
        #expect(east < flat - 8 && south < flat - 25, "faces away: east \(east), south \(south), flat \(flat)")
        // 335° is nearer north than west: the north face is the lighter, the south the darker.
        #expect(north > west && south < east, "north \(north) west \(west) south \(south) east \(east)")

        // Light from the east (90°) turns it round.
        let eastern = directory.file("relief east.json")
        try Data(
            String(decoding: try Data(contentsOf: style), as: UTF8.self)
                .replacingOccurrences(
                    of: #""hillshade-illumination-anchor": "map""#,
                    with: #""hillshade-illumination-anchor": "map", "hillshade-illumination-direction": 90"#
                ).utf8
        )
        .write(to: eastern)
        let turned = try MapwrightProcess.run(
            [
                "render", "--style", eastern.path, "--center", "0,0", "--zoom", "12", "--size", "512x512", "-o",
                output.path,
            ], environment: environment)
        try #require(turned.status == 0, "\(turned.standardError)")
        let lit = try RGBAImage(contentsOf: output)
        #expect(
            Self.brightness(lit, x: 356, y: 256) > flat + 25 && Self.brightness(lit, x: 156, y: 256) < flat - 25,
            "light from the east lights the east face")

        let removed = try MapwrightProcess.run(["terrain", "remove", "pyramid"], environment: environment)
        #expect(
            removed.status == 0 && removed.standardOutput == "removed pyramid (\(dem.path))\n",
            "\(removed.standardError)")
        // Without a DEM the layer draws nothing, and says nothing.
        let bare = try MapwrightProcess.run(
            [
                "render", "--style", style.path, "--center", "0,0", "--zoom", "12", "--size", "512x512", "-o",
                output.path,
            ], environment: environment)
        #expect(bare.status == 0 && bare.standardError.isEmpty, "\(bare.standardError)")
        let plain = try RGBAImage(contentsOf: output)
        #expect(
            stride(from: 0, to: plain.pixels.count, by: 4).allSatisfy { plain.pixels[$0] == 128 }, "grey ground only")
    }

    @Test func theStandardLookOverHelsinkiChangesOnlyWhereTheGroundSlopes() throws {
        let directory = try TemporaryDirectory()
        let environment = environment(directory)
        // A hill 400 m high on the Helsinki sample's streets, 60 pixels of zoom 11 each way.
        let center = Self.unit(latitude: 60.17, longitude: 24.94)
        let pyramid = Pyramid(center: center, halfSide: 60.0 / 256 / 2048, heightMeters: 400)
        let dem = directory.file("hill.mbtiles")
        try Self.writeTerrarium(pyramid, zooms: 9...12, to: dem)
        let arguments = ["render", "--center", "60.17,24.94", "--zoom", "11", "--size", "400x300"]
        let added = try MapwrightProcess.run(["terrain", "add", dem.path], environment: environment)
        try #require(added.status == 0, "\(added.standardError)")
        for look in ["standard", "muted", "dark"] {
            let plain = try MapwrightProcess.run(
                arguments + ["--style", look, "-o", directory.path("\(look) without.png")],
                environment: self.environment(directory, userData: "nobody"))
            let shaded = try MapwrightProcess.run(
                arguments + ["--style", look, "-o", directory.path("\(look).png")], environment: environment)
            try #require(plain.status == 0 && shaded.status == 0, "\(plain.standardError) \(shaded.standardError)")
            let before = try RGBAImage(contentsOf: directory.file("\(look) without.png"))
            let after = try RGBAImage(contentsOf: directory.file("\(look).png"))
            try #require(before.width == after.width && before.height == after.height)
            var changed = 0
            var outside = 0
            for y in 0..<after.height {
                for x in 0..<after.width {
                    let offset = (y * after.width + x) * 4
                    guard before.pixels[offset..<offset + 3] != after.pixels[offset..<offset + 3] else { continue }
                    changed += 1
                    // The hill's base spans 60 points each way from the centre (200, 150).
                    if abs(x - 200) > 62 || abs(y - 150) > 62 { outside += 1 }
                }
            }
            #expect(changed > 2_000, "\(look): the hill is shaded (\(changed) pixels changed)")
            #expect(outside == 0, "\(look): \(outside) pixels changed away from the hill")
        }
        // render --zoom 14 is a city map: the relief has faded out.
        let city = ["render", "--center", "60.17,24.94", "--zoom", "14", "--size", "300x200"]
        let cityShaded = try MapwrightProcess.run(city + ["-o", directory.path("city.png")], environment: environment)
        let cityPlain = try MapwrightProcess.run(
            city + ["-o", directory.path("city plain.png")],
            environment: self.environment(directory, userData: "nobody"))
        try #require(cityShaded.status == 0 && cityPlain.status == 0)
        #expect(
            try RGBAImage(contentsOf: directory.file("city.png")).pixels
                == RGBAImage(contentsOf: directory.file("city plain.png")).pixels)
    }

    /// The elevations of a DEM tileset at a position, decoded as Terrarium from the tile of
    /// `zoom` holding it (the nearest pixel).
    static func terrariumElevation(in url: URL, latitude: Double, longitude: Double, zoom: Int) throws -> Double? {
        let source = try TileSourceLocation.file(url).open()
        let point = unit(latitude: latitude, longitude: longitude)
        let perSide = Double(1 << zoom)
        let tx = Int(point.x * perSide)
        let ty = Int(point.y * perSide)
        guard let data = try source.tile(at: TileID(z: zoom, x: tx, y: ty)) else { return nil }
        let image = try RGBAImage(pngData: data)
        let px = min(255, Int((point.x * perSide - Double(tx)) * 256))
        let py = min(255, Int((point.y * perSide - Double(ty)) * 256))
        let offset = (py * 256 + px) * 4
        guard image.pixels[offset + 3] == 255 else { return nil }
        return Double(image.pixels[offset]) * 256 + Double(image.pixels[offset + 1]) + Double(image.pixels[offset + 2])
            / 256 - 32_768
    }

    /// What GDAL's gdallocationinfo reads of `tif` at a longitude and latitude.
    static func gdalElevation(_ tif: URL, latitude: Double, longitude: Double) throws -> Double? {
        let run = try ExternalCommand.run(
            "gdallocationinfo", ["-valonly", "-wgs84", tif.path, "\(longitude)", "\(latitude)"])
        return Double(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aGeoTIFFMadeByGDALIsTurnedIntoTheElevationsGDALReads() throws {
        let directory = try TemporaryDirectory()
        let environment = environment(directory)
        // A slope in ETRS-TM35FIN (EPSG:3067) by Helsinki, 400 × 300 pixels of 50 m (eastings
        // 375 to 395 km, northings 6,665 to 6,680 km), rising 10 m per kilometre east and 30 m
        // per kilometre north from 20 m, with a corner without data.
        let tif = directory.file("slope.tif")
        let script = """
            from osgeo import gdal, osr
            import numpy as np
            rows, cols = np.mgrid[0:300, 0:400]
            elevation = 20 + 0.01 * (cols * 50 + 25) + 0.03 * ((299 - rows) * 50 + 25)
            elevation[0:20, 0:20] = -9999
            ds = gdal.GetDriverByName('GTiff').Create('\(tif.path)', 400, 300, 1, gdal.GDT_Float32)
            ds.SetGeoTransform((375000, 50, 0, 6680000, 0, -50))
            srs = osr.SpatialReference(); srs.ImportFromEPSG(3067); ds.SetProjection(srs.ExportToWkt())
            band = ds.GetRasterBand(1); band.SetNoDataValue(-9999); band.WriteArray(elevation.astype('float32')); ds = None
            """
        let made = try ExternalCommand.run("/usr/bin/python3", ["-c", script])
        try #require(made.status == 0, "\(made.transcript)")
        let built = try MapwrightProcess.run(
            ["terrain", "build", tif.path, "--max-zoom", "13", "--attribution", "test slope"], environment: environment)
        try #require(built.status == 0, "\(built.standardError)")
        let tiles = directory.file("user data/mapwright/terrain/slope.mbtiles")
        #expect(
            built.standardOutput.hasPrefix(
                "built and registered slope: \(tiles.path), terrarium, 256-pixel tiles, zooms 0-13"))
        #expect(built.standardError.contains("writing tiles at zoom 13"))
        // The tileset says what it is, as gdalinfo reads it.
        let info = try ExternalCommand.run("gdalinfo", [tiles.path])
        #expect(
            info.standardOutput.contains("encoding=terrarium")
                && info.standardOutput.contains("attribution=test slope"), "\(info.transcript)")

        var compared = 0
        for (latitude, longitude) in [(60.12, 24.80), (60.15, 24.90), (60.20, 24.95), (60.17, 25.05), (60.22, 24.85)] {
            guard let gdal = try Self.gdalElevation(tif, latitude: latitude, longitude: longitude) else { continue }
            let ours = try #require(
                try Self.terrariumElevation(in: tiles, latitude: latitude, longitude: longitude, zoom: 13),
                "\(latitude), \(longitude)")
            // gdallocationinfo gives the pixel holding the point (its centre's value); the tiles
            // are resampled bilinearly: at most half a 50 m pixel of a 3.2 % slope apart, and
            // about 0.16 m of the tiles' own pixel.
            #expect(abs(ours - gdal) < 1.0, "\(latitude), \(longitude): ours \(ours), GDAL's \(gdal)")
            compared += 1
        }
        #expect(compared == 5)
        // The corner without data (cs2cs puts its middle, 375.5 km E 6,679.5 km N, at 60.233170°
        // N 24.751795° E) has no elevation: its pixels are transparent.
        #expect(try Self.gdalElevation(tif, latitude: 60.233170, longitude: 24.751795) == -9999)
        #expect(try Self.terrariumElevation(in: tiles, latitude: 60.233170, longitude: 24.751795, zoom: 13) == nil)
    }

    /// A real DEM from a Debian package: the USGS National Elevation Dataset's Jacksboro fault
    /// (Tennessee and Kentucky, 3 arc-seconds; public domain), as matplotlib's sample data
    /// ships it (python-matplotlib-data), made a GeoTIFF by GDAL's Python bindings.
    @Test func theJacksboroFaultDEMIsShadedWhereItsRidgesAre() throws {
        let sample = "/usr/share/matplotlib/mpl-data/sample_data/jacksboro_fault_dem.npz"
        try #require(FileManager.default.fileExists(atPath: sample), "setup installs python-matplotlib-data")
        let directory = try TemporaryDirectory()
        let environment = environment(directory)
        let tif = directory.file("jacksboro.tif")
        let script = """
            import numpy as np
            from osgeo import gdal, osr
            d = np.load('\(sample)')
            e = d['elevation']
            ds = gdal.GetDriverByName('GTiff').Create('\(tif.path)', e.shape[1], e.shape[0], 1, gdal.GDT_Int16)
            # The file's ymin is its northern edge, as matplotlib's example draws it.
            ds.SetGeoTransform((float(d['xmin']), float(d['dx']), 0, float(d['ymin']), 0, -float(d['dy'])))
            srs = osr.SpatialReference(); srs.ImportFromEPSG(4326); ds.SetProjection(srs.ExportToWkt())
            ds.GetRasterBand(1).WriteArray(e); ds = None
            """
        let made = try ExternalCommand.run("/usr/bin/python3", ["-c", script])
        try #require(made.status == 0, "\(made.transcript)")
        let built = try MapwrightProcess.run(
            ["terrain", "build", tif.path, "--attribution", "USGS"], environment: environment)
        try #require(built.status == 0, "\(built.standardError)")
        #expect(
            built.standardOutput.contains("zooms 0-11"),
            "3 arc-seconds is nearest zoom 11's pixels: \(built.standardOutput)")
        let tiles = directory.file("user data/mapwright/terrain/jacksboro.mbtiles")
        for (latitude, longitude) in [(36.60, -84.30), (36.52, -84.15), (36.68, -84.38), (36.47, -84.10)] {
            let gdal = try #require(try Self.gdalElevation(tif, latitude: latitude, longitude: longitude))
            let ours = try #require(
                try Self.terrariumElevation(in: tiles, latitude: latitude, longitude: longitude, zoom: 11))
            // Rugged ground: the tiles' bilinear samples and GDAL's nearest pixel differ by what
            // the ground climbs in about one 74 m pixel.
            #expect(abs(ours - gdal) < 40, "\(latitude), \(longitude): ours \(ours), GDAL's \(gdal)")
        }
        // The standard look at zoom 11: relief inside the DEM, none beyond its edge.
        let arguments = [
            "render", "--center", "36.59,-84.245", "--zoom", "11", "--size", "640x480", "--style", "standard",
        ]
        let shaded = try MapwrightProcess.run(
            arguments + ["-o", directory.path("shaded.png")], environment: environment)
        let plain = try MapwrightProcess.run(
            arguments + ["-o", directory.path("plain.png")],
            environment: self.environment(directory, userData: "nobody"))
        try #require(shaded.status == 0 && plain.status == 0, "\(shaded.standardError) \(plain.standardError)")
        #expect(shaded.standardError.isEmpty || !shaded.standardError.contains("terrain"), "\(shaded.standardError)")
        let after = try RGBAImage(contentsOf: directory.file("shaded.png"))
        let before = try RGBAImage(contentsOf: directory.file("plain.png"))
        // The DEM spans x 75...564 of this view (-84.4137 to -84.0779); beyond it, nothing changes.
        var inside = 0
        var beyond = 0
        for y in 0..<440 {
            for x in 0..<after.width {
                let offset = (y * after.width + x) * 4
                guard after.pixels[offset..<offset + 3] != before.pixels[offset..<offset + 3] else { continue }
                if x > 78 && x < 561 { inside += 1 } else if x < 72 || x > 567 { beyond += 1 }
            }
        }
        #expect(inside > 100_000, "\(inside) pixels shaded in the DEM")
        #expect(beyond == 0, "\(beyond) pixels changed beyond it")
    }

    @Test func badInputIsOneLineNamingIt() throws {
        let directory = try TemporaryDirectory()
        let environment = environment(directory)
        // A DEM whose metadata does not say its encoding.
        let silent = directory.file("silent.mbtiles")
        try Self.writeTerrarium(
            Pyramid(center: (0.5, 0.5), halfSide: 0.0001, heightMeters: 10), zooms: 10...10, to: silent,
            encodingRow: false)
        let cases: [([String], String)] = [
            (
                ["terrain", "add", silent.path],
                "terrain: \(silent.path) does not say how its pixels give elevations (no 'encoding' in its metadata): give --encoding terrarium or --encoding mapbox"
            ),
            (
                ["terrain", "add", directory.path("missing.mbtiles")],
                "terrain: '\(directory.path("missing.mbtiles"))' does not exist"
            ),
            (
                [
                    "terrain", "add",
                    MapwrightProcess.repository.appendingPathComponent("Tiles/streets/helsinki.mbtiles").path,
                ], "holds pbf tiles, not PNG elevations"
            ),
            (["terrain", "remove", "alps"], "terrain: no registered DEM is named 'alps' (none is registered)"),
            (
                ["terrain", "build", MapwrightProcess.repository.appendingPathComponent("README.md").path],
                "README.md is not a raster GDAL reads: `\(MapwrightProcess.repository.appendingPathComponent("README.md").path)' not recognized as a supported file format."
            ),
            (["terrain", "add", silent.path, "--encoding", "rgb"], "--encoding"),
        ]
        for (arguments, fragment) in cases {
            let result = try MapwrightProcess.run(arguments, environment: environment)
            #expect(result.status != 0, "\(arguments)")
            let lines = result.standardError.split(separator: "\n").filter {
                !$0.hasPrefix("Usage") && !$0.hasPrefix("  See") && !$0.hasPrefix("mapwright: reading") && !$0.isEmpty
            }
            #expect(result.standardError.contains(fragment), "\(arguments): \(result.standardError)")
            #expect(lines.count == 1 || arguments.contains("--encoding"), "\(arguments): \(result.standardError)")
        }
        // Given the encoding, it is registered and listed.
        let added = try MapwrightProcess.run(
            ["terrain", "add", silent.path, "--encoding", "terrarium"], environment: environment)
        #expect(added.status == 0, "\(added.standardError)")
        let listed = try MapwrightProcess.run(["terrain", "list"], environment: environment)
        #expect(
            listed.standardOutput.hasPrefix("silent: \(silent.path), terrarium, 256-pixel tiles, zooms 10-10"),
            "\(listed.standardOutput)")
        // A Mapbox-encoded DEM does not join Terrarium ones.
        let other = directory.file("other.mbtiles")
        try FileManager.default.copyItem(at: silent, to: other)
        let mixed = try MapwrightProcess.run(
            ["terrain", "add", other.path, "--encoding", "mapbox"], environment: environment)
        #expect(
            mixed.status == 2 && mixed.standardError.contains("the DEMs drawn together share one encoding"),
            "\(mixed.standardError)")
    }
}
