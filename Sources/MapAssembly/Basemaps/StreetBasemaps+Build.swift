public import Foundation
import MBTiles
public import MapCore
import MapUtilities
import TileSources

extension StreetBasemaps {
    /// What `mapwright basemap build` is asked to do.
    public struct BuildRequest: Sendable {
        /// The OpenStreetMap extract: an `.osm.pbf` file (Geofabrik's and BBBike's per country,
        /// region and city, referentially complete; or a cut by bounding box, whose ways are cut
        /// at its edge).
        public var extract: URL
        /// The basemap's name. The default is the extract's name without `.osm.pbf`.
        public var name: String?
        /// OpenStreetMap's water polygons (`water_polygons.shp` from osmdata.openstreetmap.de,
        /// as tilemaker's profile reads them) for the sea; nil builds without the sea, with a warning.
        public var waterPolygons: URL?
        /// The area, when the extract's header has none and the water polygons are given
        /// (tilemaker needs one to cut them); nil takes the header's.
        public var bounds: BoundingBox?

        public init(extract: URL, name: String? = nil, waterPolygons: URL? = nil, bounds: BoundingBox? = nil) {
            self.extract = extract
            self.name = name
            self.waterPolygons = waterPolygons
            self.bounds = bounds
        }
    }

    /// Where `basemap build` writes tilesets: `basemaps/` in the user's data folder.
    public var buildsDirectory: URL {
        locations.userDataDirectory.appendingPathComponent("basemaps", isDirectory: true)
    }

    /// Builds an OpenMapTiles-schema vector MBTiles file (zooms 0 to 14) from an OpenStreetMap
    /// extract with Debian's tilemaker and its OpenMapTiles profile (the data folders'
    /// `Tiles/tilemaker/`), into ``buildsDirectory`` as `NAME.mbtiles`, and registers it first.
    ///
    /// tilemaker runs in a temporary folder; its file is completed (the attribution tilemaker
    /// 2.2 leaves out, and the bounds and centre of the tiles it wrote when the extract's header
    /// gave none) and then moved into place, so a failed build leaves nothing behind and an
    /// earlier build of the same name stays until the new one is whole.
    ///
    /// An extract that is not referentially complete (a cut by bounding box, as JOSM's and
    /// Overpass's exports are: its ways name nodes outside the box that it lacks), at which
    /// tilemaker stops, is built from what it holds: a copy with its ways cut at its edge
    /// (``OSMExtract/writeComplete(_:to:)``) is read instead, and the ways cut and left out are
    /// counted in one warning.
    ///
    /// - Parameters:
    ///   - progress: Called with each step, in words ("reading the extract", "writing tiles at
    ///     zoom 12"), from the calling thread.
    ///   - warning: Called with one line for each thing the basemap will lack: the sea without
    ///     water polygons; the ways an extract cut by bounding box has only in part.
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming the extract (missing, not an
    ///   `.osm.pbf`, damaged), tilemaker missing or failing (its last line), or the profile missing.
    @discardableResult
    public func build(
        _ request: BuildRequest, progress: (String) -> Void = { _ in }, warning: (String) -> Void = { _ in }
    ) throws(AssemblyError) -> Entry {
        let extract = request.extract.standardizedFileURL
        try AssemblyError.checkReadableFile(extract.path, input: .basemap)
        guard extract.lastPathComponent.lowercased().hasSuffix(".pbf") else {
            throw .invalid(
                .basemap,
                reason:
                    "'\(extract.path)' is not an OpenStreetMap extract (.osm.pbf): Geofabrik and BBBike publish them per country, region and city"
            )
        }
        let name = request.name ?? Self.defaultName(for: extract)
        let destination = buildsDirectory.appendingPathComponent("\(name).mbtiles")
        try registry.checkBuildName(name, destination: destination)
        if let water = request.waterPolygons { try AssemblyError.checkReadableFile(water.path, input: .basemap) }
        guard
            let tilemaker = URL.executable(
                named: "tilemaker", searchPath: locations.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        else {
            throw .invalid(
                .basemap,
                reason:
                    "tilemaker is not installed: run scripts/setup.sh (it installs Debian's tilemaker), or apt-get install tilemaker"
            )
        }
        let profile = try locations.directory(for: .tilemakerProfile)

        try registry.building(into: destination, prefix: "mapwright-basemap-") { work throws(AssemblyError) in
            let config = work.appendingPathComponent("config.json")
            try writeConfig(from: profile, to: config, name: name, waterPolygons: request.waterPolygons)
            if request.waterPolygons == nil {
                warning(
                    "the sea is not drawn: tilemaker takes it from OpenStreetMap's water polygons; give them with --water-polygons water_polygons.shp (osmdata.openstreetmap.de) for a coastal region"
                )
            }
            let built = work.appendingPathComponent("\(name).mbtiles")
            var arguments = [
                "--input", extract.path, "--output", built.path, "--config", config.path,
                "--process", profile.appendingPathComponent("process-openmaptiles.lua").path,
            ]
            if let bounds = request.bounds {
                arguments += ["--bbox", "\(bounds.west),\(bounds.south),\(bounds.east),\(bounds.north)"]
            }
            progress("reading \(extract.lastPathComponent) with tilemaker")
            var (status, output) = Self.run(tilemaker, arguments: arguments, in: work, progress: progress)
            if status != 0, Self.lacksNodes(output) {
                // A cut by bounding box: built from what it holds, its ways cut at its edge.
                progress("leaving out the nodes \(extract.lastPathComponent) names but lacks")
                let complete = work.appendingPathComponent("complete.osm.pbf")
                let completion = try OSMExtract.writeComplete(extract, to: complete)
                if !completion.isComplete { warning(completion.warningLine) }
                arguments[1] = complete.path
                progress("reading the completed \(extract.lastPathComponent) with tilemaker")
                (status, output) = Self.run(tilemaker, arguments: arguments, in: work, progress: progress)
            }
            guard status == 0, FileManager.default.fileExists(atPath: built.path) else {
                throw .invalid(
                    .basemap, reason: "tilemaker could not build '\(extract.path)': \(Self.problem(in: output))")
            }
            progress("completing the metadata")
            try complete(built, bounds: request.bounds)
            return built
        }
        return try add(path: destination.path, name: name)
    }

    /// `finland` for `finland-latest.osm.pbf`, `helsinki` for `Helsinki.osm.pbf`.
    static func defaultName(for extract: URL) -> String {
        var name = extract.lastPathComponent
        for suffix in [".pbf", ".osm"] where name.lowercased().hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
        }
        if name.hasSuffix("-latest") { name = String(name.dropLast("-latest".count)) }
        let cleaned = String(
            name.lowercased().unicodeScalars.map {
                CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) ? Character($0) : "-"
            })
        return cleaned.isEmpty ? "basemap" : cleaned
    }

    /// The profile's config with the build's name, and the sea's layer reading `waterPolygons`
    /// (left out without them).
    private func writeConfig(from profile: URL, to url: URL, name: String, waterPolygons: URL?) throws(AssemblyError) {
        let source = profile.appendingPathComponent("config-openmaptiles.json")
        do {
            guard var config = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any],
                var layers = config["layers"] as? [String: Any], var settings = config["settings"] as? [String: Any]
            else {
                throw CocoaError(.fileReadCorruptFile)
            }
            if let waterPolygons, var ocean = layers["ocean"] as? [String: Any] {
                ocean["source"] = waterPolygons.standardizedFileURL.path
                layers["ocean"] = ocean
            } else {
                layers["ocean"] = nil
            }
            settings["name"] = name
            settings["description"] =
                "\(name), from OpenStreetMap by tilemaker with its OpenMapTiles profile (mapwright basemap build)"
            config["layers"] = layers
            config["settings"] = settings
            try JSONSerialization.data(withJSONObject: config, options: [.sortedKeys]).write(to: url)
        } catch {
            throw .invalid(
                .basemap, reason: "\(source.path) cannot be read as tilemaker's config: \(error.localizedDescription)")
        }
    }

    /// Adds the attribution, and bounds and a centre from the deepest zoom's tiles when tilemaker
    /// wrote none (an extract without a header box: it writes 0,0,0,0).
    private func complete(_ url: URL, bounds: BoundingBox?) throws(AssemblyError) {
        do throws(MBTilesError) {
            let store = try MBTilesStore(url: url, mode: .readWrite)
            var metadata = try store.metadata()
            let update = TileMetadata(attribution: "© OpenStreetMap contributors")
            try store.writeMetadata(update)
            let written = metadata.bounds
            if bounds == nil, written == nil || written == BoundingBox(west: 0, south: 0, east: 0, north: 0) {
                let zoom = metadata.maxZoom ?? 14
                let tiles = try store.existingTiles(zoom: zoom)
                guard let first = tiles.first else { return }
                func box(_ tile: TileID) -> BoundingBox {
                    let region = tile.region
                    return BoundingBox(west: region.west, south: region.south, east: region.east, north: region.north)
                }
                let box = tiles.reduce(box(first)) { $0.union(box($1)) }
                metadata = TileMetadata(
                    bounds: box,
                    center: TileMetadata.Center(
                        longitude: (box.west + box.east) / 2, latitude: (box.south + box.north) / 2, zoom: zoom))
                try store.writeMetadata(metadata)
            }
            // A rollback journal, as tilemaker left it: a file in WAL mode makes every reader
            // write -wal and -shm files beside it (and fail in a folder it cannot write).
            try store.checkpoint(switchingToRollbackJournal: true)
        } catch {
            throw .invalid(.basemap, reason: "tilemaker's file cannot be completed: \(error.description)")
        }
    }

    /// Runs `executable`, reporting tilemaker's zoom as it writes tiles; its status and output.
    private static func run(_ executable: URL, arguments: [String], in folder: URL, progress: (String) -> Void) -> (
        Int32, String
    ) {
        var reported = ""
        let run = ExternalProgram.runTool(executable, arguments, in: folder, mergingErrors: true) { output in
            // tilemaker rewrites one line ("Zoom level 12, writing tile 7 of 19") with \r.
            let recent = String(decoding: output.suffix(200), as: UTF8.self)
            if let range = recent.range(of: "Zoom level ", options: .backwards),
                let zoom = recent[range.upperBound...].split(separator: ",").first, "zoom \(zoom)" != reported
            {
                reported = "zoom \(zoom)"
                progress("writing tiles at zoom \(zoom)")
            }
        }
        return (run.status, run.status == -1 ? run.errorText : run.outputText)
    }

    /// Whether tilemaker stopped at a way naming a node the extract lacks.
    private static func lacksNodes(_ output: String) -> Bool {
        output.contains("Could not find node with id")
    }

    /// The last line of tilemaker's output worth reading, in words a person can act on.
    static func problem(in output: String) -> String {
        let lines = output.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        if let missing = lines.last(where: { $0.contains("Could not find node") || $0.contains("Could not find way") })
        {
            return
                "\(missing): the extract is not referentially complete (a cut by bounding box?); Geofabrik's and BBBike's extracts are, as is `osmium extract --strategy smart`'s output"
        }
        if lines.contains(where: { $0.contains("Can't read shapefiles unless a bounding box is provided") }) {
            return
                "the extract's header gives no area, which the water polygons need: give it with --bbox WEST,SOUTH,EAST,NORTH"
        }
        // An uncaught C++ exception ends with "terminate called after throwing an instance of
        // 'std::runtime_error'" and "what():  the message": the message is what a person reads.
        let readable = lines.filter { !$0.hasPrefix("terminate called after throwing") }
        guard var last = readable.last else { return "it wrote nothing" }
        if last.hasPrefix("what():") { last = last.dropFirst("what():".count).trimmingCharacters(in: .whitespaces) }
        if last.contains("zlib decompression") || last.contains("size too big") {
            last += " (the extract is damaged or cut short: download it again)"
        }
        return last.isEmpty ? "it stopped without saying why" : last
    }
}
