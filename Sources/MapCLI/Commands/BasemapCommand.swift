import ArgumentParser
import Foundation
import MapAssembly
import MapCore
import MapStyle

/// `mapwright basemap`: the street-level basemaps every command draws where they cover the view.
struct BasemapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "basemap",
        abstract:
            "Register street-level vector tilesets (OpenMapTiles schema) that every command draws wherever they cover the view.",
        discussion:
            "Registered basemaps feed the standard, muted and dark looks from street zooms on, and the streets styles without --vector-source; render, flyover, tiles export and serve use them with no option. They are kept in basemaps.json in the user's data folder ($XDG_DATA_HOME/mapwright, ~/.local/share/mapwright), newest first: where two overlap, the newer wins. Tilesets in a data folder's Tiles/streets/ (setup puts the Helsinki sample there) are drawn too, after the registered ones.",
        subcommands: [
            BasemapBuildCommand.self, BasemapAddCommand.self, BasemapListCommand.self, BasemapRemoveCommand.self,
        ]
    )
}

/// `mapwright basemap build`.
struct BasemapBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract:
            "Build a street-level basemap from an OpenStreetMap extract (.osm.pbf) with tilemaker, and register it.",
        discussion:
            "Geofabrik and BBBike publish extracts per country, region and city. The tiles (OpenMapTiles schema, zooms 0 to 14) go to basemaps/NAME.mbtiles in the user's data folder. The sea comes from OpenStreetMap's water polygons (water_polygons.shp from osmdata.openstreetmap.de), given with --water-polygons; without them a coastal region is drawn without its sea."
    )

    @Argument(help: "The OpenStreetMap extract: an .osm.pbf file.")
    var extract: String

    @Option(
        parsing: .unconditional,
        help: "Its name in the list and its file's. The default is the extract's name without .osm.pbf (and -latest).")
    var name: String?

    @Option(parsing: .unconditional, help: "OpenStreetMap's water polygons (water_polygons.shp) for the sea.")
    var waterPolygons: String?

    @Option(
        parsing: .unconditional,
        help:
            "The area as WEST,SOUTH,EAST,NORTH in degrees, when the extract's header has none and --water-polygons is given."
    )
    var bbox: String?

    func run() throws {
        let bounds = try bbox.map { text in
            let region = try ArgumentValues.boundingBox(text)
            guard !region.crossesAntimeridian else {
                throw ValidationError(
                    "--bbox: '\(text)': WEST is east of EAST; an extract's area does not cross the antimeridian (the order is WEST,SOUTH,EAST,NORTH)"
                )
            }
            return BoundingBox(west: region.west, south: region.south, east: region.east, north: region.north)
        }
        let request = StreetBasemaps.BuildRequest(
            extract: URL(fileURLWithPath: extract), name: name,
            waterPolygons: waterPolygons.map { URL(fileURLWithPath: $0) }, bounds: bounds)
        let entry = try StreetBasemaps().build(
            request, progress: { Mapwright.progress($0) }, warning: { Mapwright.warn($0) })
        print("built and registered \(entry.name): \(BasemapListCommand.describe(entry))")
    }
}

/// `mapwright basemap add`.
struct BasemapAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract:
            "Register an OpenMapTiles- or Protomaps-schema .mbtiles or .pmtiles file (it stays where it is), or a .pmtiles URL, as a street-level basemap.",
        discussion:
            "A .pmtiles http(s) URL (an archive on a web server or object storage) is read with range requests when drawn, its ranges kept in the user's cache folder (at most 256 MiB)."
    )

    @Argument(
        help:
            "The tileset: a vector .mbtiles or .pmtiles file of the OpenMapTiles schema (tilemaker's or Planetiler's output, OpenMapTiles' downloads) or of Protomaps' (a Protomaps build), or the http(s) URL of a .pmtiles archive."
    )
    var file: String

    @Option(
        parsing: .unconditional, help: "Its name in the list. The default is the file's name without its extension.")
    var name: String?

    func run() throws {
        let entry = try StreetBasemaps().add(path: file, name: name)
        print("registered \(entry.name): \(BasemapListCommand.describe(entry))")
    }
}

/// `mapwright basemap list`.
struct BasemapListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the street-level basemaps, in the order they are drawn from.")

    func run() throws {
        let basemaps = StreetBasemaps()
        let entries = try basemaps.all()
        guard !entries.isEmpty else {
            print(
                "no street-level basemap: register one with `mapwright basemap add FILE.mbtiles` (an OpenMapTiles- or Protomaps-schema tileset)"
            )
            return
        }
        for entry in entries {
            let remote = entry.path.hasPrefix("http://") || entry.path.hasPrefix("https://")
            let missing =
                remote || FileManager.default.fileExists(atPath: entry.path) ? "" : " (the file is missing: not drawn)"
            print("\(entry.name)\(entry.isBundled ? " (data folder)" : ""): \(Self.describe(entry))\(missing)")
        }
    }

    /// `PATH, zooms 0-14, bounds W,S,E,N`, with `Protomaps schema` after the path for such tiles.
    static func describe(_ entry: StreetBasemaps.Entry) -> String {
        var parts = [entry.path]
        if entry.schema == .protomaps { parts.append("Protomaps schema") }
        parts += BasemapListCommand.coverage(minZoom: entry.minZoom, maxZoom: entry.maxZoom, bounds: entry.bounds)
        return parts.joined(separator: ", ")
    }

    /// What `basemap list` and `terrain list` show of a tileset's coverage, each when known:
    /// `zooms 0-14`, `bounds W,S,E,N` (degrees to 4 places).
    static func coverage(minZoom: Int?, maxZoom: Int?, bounds: BoundingBox?) -> [String] {
        var parts: [String] = []
        if let minZoom, let maxZoom { parts.append("zooms \(minZoom)-\(maxZoom)") }
        if let box = bounds {
            parts.append(
                "bounds "
                    + [box.west, box.south, box.east, box.north].map { String(format: "%.4f", $0) }.joined(
                        separator: ","))
        }
        return parts
    }
}

/// `mapwright basemap remove`.
struct BasemapRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Unregister a street-level basemap by name; the file itself is left where it is.")

    @Argument(help: "The basemap's name, as `mapwright basemap list` shows it.")
    var name: String

    func run() throws {
        let entry = try StreetBasemaps().remove(name: name)
        print("removed \(entry.name) (\(entry.path))")
    }
}
