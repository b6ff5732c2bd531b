import Foundation
import MapAssembly
import MapUtilities
import Testing

/// The data lookup's order, its error line and the cache folder, with environments and
/// executables made up by each test (the process's own are never read or changed).
struct DataLocationsTests {
    /// A fresh folder, with `Styles/x.json`, `Tiles/basemap/world_map.gpkg` and `Fonts/` when asked.
    private func dataFolder(at path: String? = nil, styles: Bool = false, basemap: Bool = false, fonts: Bool = false)
        throws -> URL
    {
        let root =
            path.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "mapwright-data-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if styles {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("Styles"), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: root.appendingPathComponent("Styles/x.json"))
        }
        if basemap {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("Tiles/basemap"), withIntermediateDirectories: true)
            try Data().write(to: root.appendingPathComponent("Tiles/basemap/world_map.gpkg"))
        }
        if fonts {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("Fonts"), withIntermediateDirectories: true)
        }
        return root
    }

    private func remove(_ urls: URL...) {
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }

    @Test func theOrderIsEnvironmentInstalledUserThenCheckout() throws {
        let prefix = try dataFolder()
        let checkout = try dataFolder(styles: true)
        defer { remove(prefix, checkout) }
        let locations = DataLocations(
            environment: ["MAPWRIGHT_DATA": "/data", "XDG_DATA_HOME": "/xdg", "HOME": "/home/ada"],
            executableURL: prefix.appendingPathComponent("bin/mapwright"),
            checkoutDirectory: checkout)
        #expect(locations.roots.map(\.origin) == [.environment, .installed, .user, .checkout])
        #expect(
            locations.roots.map(\.directory.path) == [
                "/data", prefix.appendingPathComponent("share/mapwright").path, "/xdg/mapwright", checkout.path,
            ])
    }

    @Test func theFirstFolderHoldingAnItemWinsItemByItem() throws {
        let environment = try dataFolder(basemap: true)
        let user = try dataFolder()
        _ = try dataFolder(at: user.appendingPathComponent("mapwright").path, styles: true, basemap: true)
        defer { remove(environment, user) }
        let locations = DataLocations(
            environment: [
                "MAPWRIGHT_DATA": environment.path, "XDG_DATA_HOME": user.path, "MAPWRIGHT_NO_CHECKOUT": "1",
            ],
            executableURL: nil)
        #expect(try locations.directory(for: .basemap).path == environment.appendingPathComponent("Tiles/basemap").path)
        // MAPWRIGHT_DATA has no styles: the user's are used.
        #expect(try locations.directory(for: .styles).path == user.appendingPathComponent("mapwright/Styles").path)
        #expect(locations.existingDirectory(for: .fonts) == nil)
    }

    /// MapLibre GL JS as scripts/install.sh installs it, found beside the executable whatever
    /// the working directory; an empty `Tiles/maplibre-gl/` (no `maplibre-gl.js`) does not count.
    @Test func mapLibreGLJSIsFoundInTheInstalledData() throws {
        let prefix = try dataFolder()
        let user = try dataFolder()
        defer { remove(prefix, user) }
        let installed = prefix.appendingPathComponent("share/mapwright/Tiles/maplibre-gl")
        try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: user.appendingPathComponent("mapwright/Tiles/maplibre-gl"), withIntermediateDirectories: true)
        let locations = DataLocations(
            environment: ["XDG_DATA_HOME": user.path, "MAPWRIGHT_NO_CHECKOUT": "1"],
            executableURL: prefix.appendingPathComponent("bin/mapwright"))
        #expect(locations.existingDirectory(for: .maplibre) == nil)
        let error = #expect(throws: AssemblyError.self) { try locations.directory(for: .maplibre) }
        let userFolder = user.appendingPathComponent("mapwright/Tiles/maplibre-gl").path
        #expect(
            error?.description
                == "MapLibre GL JS (Tiles/maplibre-gl/maplibre-gl.js) is missing: looked in \(installed.path) (installed), \(userFolder) (user data); run scripts/setup.sh or set MAPWRIGHT_DATA to a folder holding Tiles/maplibre-gl/"
        )
        try Data("maplibregl".utf8).write(to: installed.appendingPathComponent("maplibre-gl.js"))
        #expect(locations.existingDirectory(for: .maplibre)?.path == installed.path)
    }

    @Test func anExplicitFolderIsTakenAsItIsAndMustExist() throws {
        let folder = try dataFolder()
        defer { remove(folder) }
        let locations = DataLocations(environment: ["MAPWRIGHT_NO_CHECKOUT": "1"], executableURL: nil)
        #expect(try locations.directory(for: .styles, explicit: folder) == folder)
        let missing = folder.appendingPathComponent("nowhere")
        #expect(throws: AssemblyError.self) { try locations.directory(for: .styles, explicit: missing) }
        #expect(
            AssemblyError.dataNotFound(item: .styles, explicit: missing, searched: []).description
                == "\(missing.path): no such folder")
    }

    @Test func nothingFoundListsEveryPlaceLookedInOnOneLine() throws {
        let empty = try dataFolder()
        defer { remove(empty) }
        let locations = DataLocations(
            environment: [
                "MAPWRIGHT_DATA": empty.path, "XDG_DATA_HOME": "/nonexistent/xdg", "MAPWRIGHT_NO_CHECKOUT": "1",
            ],
            executableURL: URL(fileURLWithPath: "/nonexistent/prefix/bin/mapwright"))
        do {
            _ = try locations.directory(for: .basemap)
            Issue.record("found a basemap in empty folders")
        } catch {
            guard case .dataNotFound(_, _, let searched) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(searched.map(\.origin) == [.environment, .installed, .user])
            #expect(
                error.description == """
                    the basemap (world_map.gpkg) is missing: looked in \(empty.path)/Tiles/basemap (MAPWRIGHT_DATA), \
                    /nonexistent/prefix/share/mapwright/Tiles/basemap (installed), \
                    /nonexistent/xdg/mapwright/Tiles/basemap (user data); \
                    run scripts/setup.sh or set MAPWRIGHT_DATA to a folder holding Tiles/basemap/
                    """)
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func aCheckoutIsFoundAboveTheExecutableAndCanBeSkipped() throws {
        let checkout = try dataFolder(styles: true)
        defer { remove(checkout) }
        try Data().write(to: checkout.appendingPathComponent("Package.swift"))
        let executable = checkout.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug/mapwright")
        let found = DataLocations(environment: ["XDG_DATA_HOME": "/nonexistent"], executableURL: executable)
        #expect(try found.directory(for: .styles).path == checkout.appendingPathComponent("Styles").path)
        // The same checkout given twice (found and baked in) is searched once.
        let both = DataLocations(
            environment: ["XDG_DATA_HOME": "/nonexistent"], executableURL: executable, checkoutDirectory: checkout)
        #expect(both.roots.filter { $0.origin == .checkout }.count == 1)
        let skipped = DataLocations(
            environment: ["XDG_DATA_HOME": "/nonexistent", "MAPWRIGHT_NO_CHECKOUT": "1"], executableURL: executable,
            checkoutDirectory: checkout)
        #expect(!skipped.roots.contains { $0.origin == .checkout })
        #expect(throws: AssemblyError.self) { try skipped.directory(for: .styles) }
    }

    @Test func userFoldersFollowXDGAndIgnoreARelativeValue() {
        #expect(
            UserDirectories(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]).cacheDirectory.path == "/c/mapwright")
        #expect(
            UserDirectories(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]).cacheDirectory.path
                == "/h/.cache/mapwright")
        #expect(UserDirectories(environment: ["HOME": "/h"]).tileCacheDirectory.path == "/h/.cache/mapwright/tiles")
        #expect(UserDirectories(environment: ["HOME": "/h"]).userDataDirectory.path == "/h/.local/share/mapwright")
        #expect(DataLocations(environment: ["XDG_DATA_HOME": "/d"]).userDataDirectory.path == "/d/mapwright")
    }
}
