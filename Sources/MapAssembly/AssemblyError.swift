public import Foundation
public import ImageCodec
public import ImageCompare
public import MapComposer
public import MapRenderer
public import MapServer
public import MapStyle
public import MapUtilities
public import PhotoLibrary
public import PhotoSources
public import Tilesets

/// An input of the assembly, named as the command line names it, for messages.
public enum AssemblyInput: String, Hashable, Sendable, CaseIterable {
    case style = "--style"
    case rasterSource = "--raster-source"
    case vectorSource = "--vector-source"
    case stylesDirectory = "--styles-directory"
    case basemapDirectory = "--basemap-directory"
    case markerImage = "--marker-image"
    case tiles = "--tiles"
    /// `serve --fonts`: a folder of SDF glyph fonts.
    case fonts = "--fonts"
    case zoom = "--zoom"
    /// A street-level basemap: `basemap add`'s file, `remove`'s name, `build`'s extract.
    case basemap = "basemap"
    /// An elevation tileset: `terrain add`'s file, `remove`'s name, `build`'s GeoTIFF.
    case terrain = "terrain"
    /// `flyover --from` and `--to`: where a fly-over starts and ends.
    case from = "--from"
    case to = "--to"
    /// `flyover --cameras`: where the frames' cameras go.
    case cameras = "--cameras"
}

/// Why a map's inputs could not be assembled: the one error of MapAssembly, wrapping the
/// modules' own errors as they are. ``description`` is one line for a person, naming the input.
public enum AssemblyError: Error, Sendable {
    /// An input that cannot be used; `reason` says why (`--vector-source: 'x' does not exist`).
    case invalid(AssemblyInput, reason: String)
    /// The style could not be loaded.
    case style(StyleError)
    /// The style needs the input given (a raster or vector source): `<problem>, with --raster-source`.
    case needs(AssemblyInput, StyleError)
    /// A photo source could not be read, or names no photo of the photographer asked for.
    case photos(PhotoSourceError)
    /// A photo folder's file that cannot be read as a photo, when every file must be (`--strict`).
    case skippedFile(PhotoLoadReport.SkippedFile)
    /// The photo library could not be read.
    case library(PhotoLibraryError)
    /// The photo map could not be made (nothing located, a place or selection that matches nothing).
    case photoMap(PhotoMapError)
    /// A tileset to serve could not be opened.
    case tileset(TilesetsError)
    /// A server could not listen on `host`:`port`.
    case listen(ListenProblem, host: String, port: Int)
    /// The tiles or the map cannot be rendered as asked (tile options out of range, a raster
    /// source without tiles), or a map's file written.
    case render(RendererError)
    /// A drawn map could not be encoded as an image.
    case image(ImageCodecError)
    /// Two images could not be compared.
    case comparison(ImageCompareError)
    /// A failure said in one line as it is: a file that cannot be read or written (naming it),
    /// two images of different sizes.
    case message(String)
    /// A cluster query found no photo with a location (status 1).
    case nothingToCluster
    /// Data Mapwright needs (``DataLocations/Item``) is missing: a folder named explicitly that
    /// does not exist, or an item no data folder holds; `searched` lists the folders looked in,
    /// in order, each with where it came from (empty for an explicit folder).
    case dataNotFound(item: DataLocations.Item, explicit: URL?, searched: [DataLocations.Root])
}

extension AssemblyError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .invalid(let input, let reason): "\(input.rawValue): \(reason)"
        case .style(let error): error.description
        case .needs(let input, let error): "\(error.description), with \(input.rawValue)"
        case .photos(let error): error.description
        case .skippedFile(let skipped): skipped.description
        case .library(let error): error.description
        case .photoMap(let error): error.description
        case .tileset(let error): error.description
        case .render(let error): error.description
        case .image(let error): error.description
        case .comparison(let error): error.description
        case .message(let line): line
        case .nothingToCluster: "no photo has a location: nothing to cluster"
        case .listen(let problem, let host, let port): Self.listenDescription(problem, host: host, port: port)
        case .dataNotFound(let item, let explicit, let searched):
            Self.notFoundDescription(item: item, explicit: explicit, searched: searched)
        }
    }

    public var errorDescription: String? { description }

    /// The one line of a server that could not listen, naming the option to change.
    private static func listenDescription(_ problem: ListenProblem, host: String, port: Int) -> String {
        switch problem {
        case .addressInUse: "--port \(port): the address \(host):\(port) is already in use"
        case .addressNotOnThisMachine: "--host \(host): \(host) is not an address of this machine"
        case .permissionDenied:
            "--port \(port): listening on port \(port) is not permitted (ports below 1024 need privileges)"
        case .unknownHost: "--host \(host): no address has that name"
        case .other(let reason): "--host \(host) --port \(port): cannot listen on \(host):\(port): \(reason)"
        }
    }

    /// `PATH: no such folder`, or `no styles found: looked in A (MAPWRIGHT_DATA), B (user data);
    /// set MAPWRIGHT_DATA to a folder holding Styles/`.
    private static func notFoundDescription(item: DataLocations.Item, explicit: URL?, searched: [DataLocations.Root])
        -> String
    {
        if let explicit { return "\(explicit.path): no such folder" }
        let what: String
        switch item {
        case .styles: what = "no styles found"
        case .basemap: what = "the basemap (world_map.gpkg) is missing"
        case .fonts: what = "no fonts folder found"
        case .tilemakerProfile: what = "tilemaker's OpenMapTiles profile (Tiles/tilemaker/) is missing"
        case .maplibre: what = "MapLibre GL JS (Tiles/maplibre-gl/maplibre-gl.js) is missing"
        }
        let places = searched.map { "\($0.directory.path) (\($0.origin.rawValue))" }.joined(separator: ", ")
        let hint =
            item == .basemap || item == .maplibre
            ? "run scripts/setup.sh or set MAPWRIGHT_DATA to a folder holding \(item.relativePath)/"
            : "set MAPWRIGHT_DATA to a folder holding \(item.relativePath)/"
        return "\(what): looked in \(places.isEmpty ? "no place" : places); \(hint)"
    }
}

extension AssemblyError: ExitStatusError {
    /// The wrapped error's status (1 for no located photo or a folder without JPEGs), 1 for
    /// nothing to cluster, else 2.
    public var exitStatus: Int32 {
        switch self {
        case .photos(let error): error.exitStatus
        case .photoMap(let error): error.exitStatus
        case .library(let error): error.exitStatus
        case .tileset(let error): error.exitStatus
        case .style(let error): error.exitStatus
        case .render(let error): error.exitStatus
        case .image(let error): error.exitStatus
        case .comparison(let error): error.exitStatus
        case .nothingToCluster: 1
        case .invalid, .needs, .skippedFile, .dataNotFound, .listen, .message: 2
        }
    }
}

extension AssemblyError {
    /// Why `path` does not name a file that can be read, in words that follow its name
    /// (`'PATH' does not exist`); nil when it does.
    public static func unreadableFileReason(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return "'\(path)' does not exist"
        }
        guard !isFolder.boolValue else { return "'\(path)': it is a folder, not a file" }
        guard FileManager.default.isReadableFile(atPath: path) else {
            return "'\(path)' cannot be read (permission denied)"
        }
        return nil
    }

    /// Why `path` does not name a folder that can be listed, in words that follow its name
    /// (`'PATH' is a file, not a folder`); nil when it does.
    public static func unreadableFolderReason(_ path: String) -> String? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return "'\(path)' does not exist"
        }
        guard isFolder.boolValue else { return "'\(path)' is a file, not a folder" }
        guard FileManager.default.isReadableFile(atPath: path), FileManager.default.isExecutableFile(atPath: path)
        else {
            return "'\(path)' cannot be read (permission denied)"
        }
        return nil
    }

    /// Checks that `path` names a file that can be read.
    static func checkReadableFile(_ path: String, input: AssemblyInput) throws(AssemblyError) {
        if let reason = unreadableFileReason(path) { throw .invalid(input, reason: reason) }
    }
}
