public import Foundation
public import MapUtilities

/// Where Mapwright finds its data (styles, the basemap, extra fonts) and keeps its caches,
/// whatever the working directory.
///
/// A *data folder* holds the data in one layout, the source checkout's:
///
/// ```text
/// DATA/Styles/          named styles (standard.json, dark.json, ...)
/// DATA/Tiles/basemap/   the bundled basemap (world_map.gpkg)
/// DATA/Fonts/           optional: font files used before the pinned system fonts
/// DATA/Tiles/maplibre-gl/ MapLibre GL JS for serve's GL viewer (scripts/setup.sh puts it there)
/// ```
///
/// Each item is looked up on its own, in this order; the first folder that holds it wins:
///
/// 1. the explicit folder (a command's `--styles-directory` or `--basemap-directory`);
/// 2. `$MAPWRIGHT_DATA`, a data folder;
/// 3. the data installed beside the executable: `PREFIX/share/mapwright` for
///    `PREFIX/bin/mapwright` (the executable's real path, through `/proc/self/exe`);
/// 4. the user's data folder: `$XDG_DATA_HOME/mapwright`, by default `~/.local/share/mapwright`;
/// 5. the source checkout the executable was built in: the first folder above the executable
///    holding `Package.swift` and `Styles/` (`.build/<config>/mapwright`), then
///    ``checkoutDirectory`` when a program names one (none by default: no build machine's path
///    is recorded in a binary). `MAPWRIGHT_NO_CHECKOUT=1` skips this step.
///
/// Caches go to ``cacheDirectory``: `$XDG_CACHE_HOME/mapwright`, by default `~/.cache/mapwright`.
///
/// The lookup reads only the values it is given, never the process's environment behind its
/// back, so tests pass their own:
///
/// ```swift
/// let locations = DataLocations(environment: ["MAPWRIGHT_DATA": "/opt/maps", "HOME": "/home/ada"])
/// let styles = try locations.directory(for: .styles)   // /opt/maps/Styles when it holds styles
/// ```
public struct DataLocations: Hashable, Sendable {
    /// The environment variables read: `MAPWRIGHT_DATA`, `MAPWRIGHT_NO_CHECKOUT`, `XDG_DATA_HOME`,
    /// `XDG_CACHE_HOME` and `HOME`. The default is the process's environment.
    public var environment: [String: String]
    /// The running executable's real path, for the installed data and the checkout above it;
    /// nil skips both. The default is ``runningExecutableURL()``.
    public var executableURL: URL?
    /// A source checkout to fall back on last (the folder holding `Package.swift`), such as the
    /// one the executable was built from; nil for none. The default is nil.
    public var checkoutDirectory: URL?

    /// Creates a lookup; see each property for its default.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executableURL: URL? = DataLocations.runningExecutableURL(),
        checkoutDirectory: URL? = nil
    ) {
        self.environment = environment
        self.executableURL = executableURL
        self.checkoutDirectory = checkoutDirectory
    }

    /// The running executable with symbolic links resolved (`/proc/self/exe` on Linux), or nil
    /// when it cannot be read.
    public static func runningExecutableURL() -> URL? {
        let link = URL(fileURLWithPath: "/proc/self/exe")
        if FileManager.default.fileExists(atPath: link.path) { return link.resolvingSymlinksInPath() }
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
    }
}

extension DataLocations {
    /// One kind of data, and how a folder is recognised as holding it.
    public enum Item: String, CaseIterable, Hashable, Sendable {
        /// `Styles/`: holds at least one `.json` style.
        case styles
        /// `Tiles/basemap/`: holds `world_map.gpkg`.
        case basemap
        /// `Fonts/`: any folder of that name.
        case fonts
        /// `Tiles/tilemaker/`: tilemaker's OpenMapTiles profile (`config-openmaptiles.json`,
        /// `process-openmaptiles.lua`), which `mapwright basemap build` runs.
        case tilemakerProfile
        /// `Tiles/maplibre-gl/`: MapLibre GL JS (`maplibre-gl.js`, `maplibre-gl.css`, `LICENSE.txt`),
        /// which `mapwright serve`'s viewer loads in its GL mode.
        case maplibre

        /// The item's folder inside a data folder.
        public var relativePath: String {
            switch self {
            case .styles: return "Styles"
            case .basemap: return "Tiles/basemap"
            case .fonts: return "Fonts"
            case .tilemakerProfile: return "Tiles/tilemaker"
            case .maplibre: return "Tiles/maplibre-gl"
            }
        }

        /// Whether `directory` holds the item: a style, the basemap's file, or anything.
        public func isHeld(in directory: URL) -> Bool {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                return false
            }
            switch self {
            case .styles:
                let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                return files.contains { $0.hasSuffix(".json") }
            case .basemap:
                return FileManager.default.fileExists(atPath: directory.appendingPathComponent("world_map.gpkg").path)
            case .fonts:
                return true
            case .tilemakerProfile:
                return FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent("config-openmaptiles.json").path)
            case .maplibre:
                return FileManager.default.fileExists(atPath: directory.appendingPathComponent("maplibre-gl.js").path)
            }
        }
    }

    /// A data folder the lookup searches, and where it came from.
    public struct Root: Hashable, Sendable {
        /// Which step of the order found it.
        public enum Origin: String, Hashable, Sendable {
            /// `$MAPWRIGHT_DATA`.
            case environment = "MAPWRIGHT_DATA"
            /// `PREFIX/share/mapwright` beside `PREFIX/bin/mapwright`.
            case installed
            /// `$XDG_DATA_HOME/mapwright` or `~/.local/share/mapwright`.
            case user = "user data"
            /// The source checkout.
            case checkout
        }

        /// The data folder.
        public var directory: URL
        /// Where it came from.
        public var origin: Origin

        public init(directory: URL, origin: Origin) {
            self.directory = directory
            self.origin = origin
        }
    }

    /// The data folders searched, in order: `$MAPWRIGHT_DATA`, the installed data (when the
    /// executable sits in a `bin` folder), the user's data folder, then the checkouts (unless
    /// `MAPWRIGHT_NO_CHECKOUT=1`). Folders need not exist.
    public var roots: [Root] {
        var roots: [Root] = []
        if let data = environment["MAPWRIGHT_DATA"], !data.isEmpty {
            roots.append(
                Root(directory: URL(fileURLWithPath: data, isDirectory: true).standardizedFileURL, origin: .environment)
            )
        }
        if let bin = executableURL?.deletingLastPathComponent(), bin.lastPathComponent == "bin" {
            let share = bin.deletingLastPathComponent().appendingPathComponent("share/mapwright", isDirectory: true)
            roots.append(Root(directory: share, origin: .installed))
        }
        roots.append(Root(directory: userDataDirectory, origin: .user))
        if environment["MAPWRIGHT_NO_CHECKOUT"] != "1" {
            var checkouts: [URL] = []
            if let found = executableURL.flatMap(DataLocations.checkout(above:)) { checkouts.append(found) }
            if let checkoutDirectory { checkouts.append(checkoutDirectory.standardizedFileURL) }
            for checkout in checkouts where !roots.contains(where: { $0.directory.path == checkout.path }) {
                roots.append(Root(directory: checkout, origin: .checkout))
            }
        }
        return roots
    }

    /// The user's own folders (``MapUtilities/UserDirectories``) read from ``environment``.
    public var user: UserDirectories { UserDirectories(environment: environment) }

    /// The user's data folder: `$XDG_DATA_HOME/mapwright`, by default `~/.local/share/mapwright`.
    public var userDataDirectory: URL { user.userDataDirectory }

    /// The user's cache folder: `$XDG_CACHE_HOME/mapwright`, by default `~/.cache/mapwright`.
    public var cacheDirectory: URL { user.cacheDirectory }

    /// The nearest folder above `executable` holding `Package.swift` and `Styles/`: the checkout
    /// a `swift build` product (`.build/debug/mapwright`) was built in.
    static func checkout(above executable: URL) -> URL? {
        var directory = executable.standardizedFileURL.deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path),
                Item.styles.isHeld(in: directory.appendingPathComponent("Styles"))
            {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}
