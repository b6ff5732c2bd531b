public import ArgumentParser
import Foundation
public import MapAssembly
import MapCore

/// `mapwright terrain`: the elevation tilesets (DEMs) that shade the standard looks.
struct TerrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terrain",
        abstract:
            "Register elevation tilesets (DEMs: Terrarium or Mapbox Terrain-RGB PNG tiles) that shade the standard looks with relief.",
        discussion:
            "Registered DEMs shade the standard, muted and dark looks wherever they cover the view: full strength to render zoom 11, fading out by zoom 14, as city maps need no relief; render, flyover, tiles export and serve use them with no option. They are kept in terrain.json in the user's data folder ($XDG_DATA_HOME/mapwright, ~/.local/share/mapwright), newest first: where two overlap, the newer wins. Build one from a GeoTIFF with `mapwright terrain build`.",
        subcommands: [
            TerrainBuildCommand.self, TerrainAddCommand.self, TerrainListCommand.self, TerrainRemoveCommand.self,
        ]
    )
}

extension TerrainBasemaps.Encoding: ExpressibleByArgument {}

/// `mapwright terrain build`.
struct TerrainBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Turn an elevation GeoTIFF into a DEM tileset (Terrarium PNG tiles) with GDAL, and register it.",
        discussion:
            "Any single-band raster of metres that GDAL reads, in any coordinate system it names (SRTM, Copernicus DEM, national lidar DEMs). The tiles (256 pixels, Web Mercator) go to terrain/NAME.mbtiles in the user's data folder."
    )

    @Argument(help: "The elevation raster: a GeoTIFF of metres.")
    var dem: String

    @Option(
        parsing: .unconditional,
        help: "Its name in the list and its file's. The default is the file's name without its extension.")
    var name: String?

    @Option(parsing: .unconditional, help: "The lowest zoom to write. The default is 0.")
    var minZoom: Int?

    @Option(
        parsing: .unconditional,
        help: "The deepest zoom to write. The default is the zoom nearest the raster's own resolution, at most 14.")
    var maxZoom: Int?

    @Option(parsing: .unconditional, help: "How the tiles carry metres: terrarium or mapbox. The default is terrarium.")
    var encoding: TerrainBasemaps.Encoding = .terrarium

    @Option(
        parsing: .unconditional, help: "Who made the elevations, shown on maps they shade (such as '© Copernicus DEM')."
    )
    var attribution: String?

    func run() throws {
        let request = TerrainBasemaps.BuildRequest(
            dem: URL(fileURLWithPath: dem), name: name, minZoom: minZoom, maxZoom: maxZoom, encoding: encoding,
            attribution: attribution)
        let entry = try TerrainBasemaps().build(request, progress: { Mapwright.progress($0) })
        print("built and registered \(entry.name): \(TerrainListCommand.describe(entry))")
    }
}

/// `mapwright terrain add`.
struct TerrainAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract:
            "Register a DEM tileset, .mbtiles or .pmtiles of Terrarium or Mapbox Terrain-RGB PNG tiles (it stays where it is)."
    )

    @Argument(help: "The tileset: a .mbtiles or .pmtiles file of elevation PNG tiles.")
    var file: String

    @Option(
        parsing: .unconditional, help: "Its name in the list. The default is the file's name without its extension.")
    var name: String?

    @Option(
        parsing: .unconditional,
        help:
            "How its pixels give metres: terrarium or mapbox. The default is what its metadata says (its 'encoding'; Mapterhorn and Protomaps tiles are terrarium)."
    )
    var encoding: TerrainBasemaps.Encoding?

    func run() throws {
        let entry = try TerrainBasemaps().add(path: file, name: name, encoding: encoding)
        print("registered \(entry.name): \(TerrainListCommand.describe(entry))")
    }
}

/// `mapwright terrain list`.
struct TerrainListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the registered DEMs, in the order they are drawn from.")

    func run() throws {
        let entries = try TerrainBasemaps().registered()
        guard !entries.isEmpty else {
            print(
                "no DEM: register one with `mapwright terrain add FILE.mbtiles`, or make one from a GeoTIFF with `mapwright terrain build DEM.tif`"
            )
            return
        }
        for entry in entries {
            let missing = FileManager.default.fileExists(atPath: entry.path) ? "" : " (the file is missing: not drawn)"
            print("\(entry.name): \(Self.describe(entry))\(missing)")
        }
    }

    /// `PATH, terrarium, 256-pixel tiles, zooms 0-12, bounds W,S,E,N`.
    static func describe(_ entry: TerrainBasemaps.Entry) -> String {
        var parts = [entry.path, entry.encoding.rawValue, "\(entry.tileSizePixels)-pixel tiles"]
        parts += BasemapListCommand.coverage(minZoom: entry.minZoom, maxZoom: entry.maxZoom, bounds: entry.bounds)
        return parts.joined(separator: ", ")
    }
}

/// `mapwright terrain remove`.
struct TerrainRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Unregister a DEM by name; the file itself is left where it is.")

    @Argument(help: "The DEM's name, as `mapwright terrain list` shows it.")
    var name: String

    func run() throws {
        let entry = try TerrainBasemaps().remove(name: name)
        print("removed \(entry.name) (\(entry.path))")
    }
}
