public import Foundation

/// The user's own folders for Mapwright, after the XDG Base Directory specification: where the
/// photo library lives and where caches go, whatever the working directory.
///
/// ```text
/// $XDG_DATA_HOME/mapwright    (~/.local/share/mapwright)   the library, the user's data folder
/// $XDG_CACHE_HOME/mapwright   (~/.cache/mapwright)         tiles/, fontconfig/, thumbnails
/// ```
///
/// The folders are read from the values given, never the process's environment behind its back,
/// and never created here. Where Mapwright's *data* (styles, the basemap, fonts) is looked up is
/// the assembly's concern (`MapAssembly.DataLocations`).
public struct UserDirectories: Hashable, Sendable {
    /// The environment variables read: `XDG_DATA_HOME`, `XDG_CACHE_HOME` and `HOME`. The default
    /// is the process's environment.
    public var environment: [String: String]

    /// Creates the folders' lookup; see ``environment`` for its default.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The user's data folder for Mapwright: `$XDG_DATA_HOME/mapwright` when that variable holds
    /// an absolute path, else `$HOME/.local/share/mapwright`.
    public var userDataDirectory: URL {
        baseDirectory(variable: "XDG_DATA_HOME", underHome: ".local/share").appendingPathComponent(
            "mapwright", isDirectory: true)
    }

    /// The user's cache folder for Mapwright: `$XDG_CACHE_HOME/mapwright` when that variable
    /// holds an absolute path, else `$HOME/.cache/mapwright`. Raster tiles go to its `tiles/`,
    /// fontconfig's cache to its `fontconfig/`.
    public var cacheDirectory: URL {
        baseDirectory(variable: "XDG_CACHE_HOME", underHome: ".cache").appendingPathComponent(
            "mapwright", isDirectory: true)
    }

    /// Where raster tiles fetched over HTTP are cached: `tiles/` in ``cacheDirectory``
    /// (`~/.cache/mapwright/tiles` by default).
    public var tileCacheDirectory: URL {
        cacheDirectory.appendingPathComponent("tiles", isDirectory: true)
    }

    /// `$variable` when it is absolute (relative values are ignored, as the XDG specification
    /// asks), else `underHome` in `$HOME`, else in the user's home folder from the password database.
    private func baseDirectory(variable: String, underHome: String) -> URL {
        if let value = environment[variable], value.hasPrefix("/") {
            return URL(fileURLWithPath: value, isDirectory: true)
        }
        let home =
            environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(underHome, isDirectory: true)
    }
}
