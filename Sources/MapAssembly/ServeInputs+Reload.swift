public import Foundation
public import MapServer
import MapStyle
public import MapUtilities
import Tilesets

/// The files a server's content was read from, each as it was just before it was read
/// (``MapUtilities/FileIdentity``): a file replaced or rewritten at any moment after differs
/// from it, so ``changes()`` sees it, whenever it happened.
public struct ServeInputFiles: Sendable {
    /// One file or folder read.
    public struct Entry: Sendable, Equatable {
        /// What it is, for the log: `style file 'x.json'`.
        public var label: String
        /// Its path.
        public var path: String
        /// What it was when read; nil when it was not there.
        public var identity: FileIdentity?
        /// Whether only another file put at the path counts as a change: a photo library, which
        /// SQLite writes in place and whose writes the server follows by itself (its photo feed).
        public var replacementOnly: Bool
    }

    /// The files and folders, in the order they were found.
    public private(set) var entries: [Entry]

    /// Takes each path's identity now.
    init(_ paths: [(label: String, path: String, replacementOnly: Bool)]) {
        entries = paths.map {
            Entry(
                label: $0.label, path: $0.path, identity: FileIdentity(path: $0.path),
                replacementOnly: $0.replacementOnly)
        }
    }

    /// The entries whose path is now another file, or the same file written since (for
    /// ``Entry/replacementOnly`` entries, another file only), by label.
    public func changes() -> [String] {
        entries.compactMap { entry in
            let now = FileIdentity(path: entry.path)
            if entry.replacementOnly {
                switch (entry.identity, now) {
                case (nil, nil): return nil
                case (let old?, let new?): return old.isSameFile(as: new) ? nil : entry.label
                default: return entry.label
                }
            }
            return now == entry.identity ? nil : entry.label
        }
    }

    /// The same files, their identities taken again now.
    func takenAgain() -> ServeInputFiles {
        var files = self
        for index in files.entries.indices {
            files.entries[index].identity = FileIdentity(path: files.entries[index].path)
        }
        return files
    }

    /// These files and `others`'.
    mutating func append(contentsOf others: ServeInputFiles) {
        for entry in others.entries where !entries.contains(where: { $0.path == entry.path }) { entries.append(entry) }
    }
}

extension ServeInputs {
    /// What the server reads at start-up besides the tileset files it serves (which
    /// `MapServer.TilesetWatcher` follows by itself): the style files, the vector source and the
    /// registered street basemaps the styles draw, the photo sources (a folder and every folder in
    /// it, so a photo added anywhere shows), the overlay files, the photo library (replaced only),
    /// and the fonts folder with its fonts' folders. Each path's identity is taken now, before
    /// the content is read; the styles' sprite sheets, known once the styles are loaded, are
    /// ``spriteFiles(of:)``.
    public func inputFiles() -> ServeInputFiles {
        var paths: [(label: String, path: String, replacementOnly: Bool)] = []
        for name in styleNames {
            guard let url = try? map.styleFileURL(named: name) else { continue }
            paths.append(("style file '\(url.displayPath)'", url.path, false))
        }
        if let vectorSource = map.vectorSource, HTTPRangeSource.remoteURL(vectorSource) == nil {
            paths.append(("--vector-source '\(vectorSource)'", URL(fileURLWithPath: vectorSource).path, false))
        }
        for url in map.streetBasemaps.tilesetURLs() where url.isFileURL {
            paths.append(("street basemap '\(url.displayPath)'", url.path, false))
        }
        for source in photos.sources {
            let url = URL(fileURLWithPath: source)
            paths.append(("photo source '\(source)'", url.path, false))
            for folder in Self.folders(in: url) {
                paths.append(("photo folder '\(folder.displayPath)'", folder.path, false))
            }
        }
        if let library = photos.library {
            paths.append(("photo library '\(library)'", URL(fileURLWithPath: library).path, true))
        }
        for file in overlays.files {
            paths.append(("overlay '\(file)'", URL(fileURLWithPath: file).path, false))
        }
        if let fonts {
            let url = URL(fileURLWithPath: fonts)
            paths.append(("--fonts '\(fonts)'", url.path, false))
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                paths.append(("font folder '\(name)'", url.appendingPathComponent(name).path, false))
            }
        }
        return ServeInputFiles(paths)
    }

    /// The local sprite sheets of `styles` (index and image, at 1x and 2x), their identities
    /// taken now.
    public static func spriteFiles(of styles: [ServedStyle]) -> ServeInputFiles {
        var paths: [(label: String, path: String, replacementOnly: Bool)] = []
        for served in styles {
            for sprite in served.style.sprites where sprite.url.isFileURL {
                for url in sprite.sheetFiles { paths.append(("sprite '\(url.displayPath)'", url.path, false)) }
            }
        }
        return ServeInputFiles(paths)
    }

    /// The folders under `url` (not itself), hidden ones left out; none when it is not a folder.
    private static func folders(in url: URL) -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue,
            let walk = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { return [] }
        var found: [URL] = []
        for case let item as URL in walk
        where (try? item.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
            found.append(item)
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Loads everything served again, as at start-up (styles, photos, overlays, tilesets, fonts),
    /// and serves it in place of what `server` served (``MapServer/MapTileServer/reload(with:)``).
    /// What was read and when is returned with the warnings of reading it. Nothing changes on the
    /// server when loading fails (a style file saved half-way through an edit): the old content
    /// stays served.
    ///
    /// - Throws: ``AssemblyError`` naming the input at fault.
    public func reload(into server: MapTileServer) throws(AssemblyError) -> (files: ServeInputFiles, warnings: [String])
    {
        let loaded = try load()
        server.reload(with: loaded.content)
        return (loaded.files, loaded.warnings)
    }

    /// The styles (those given, loaded already, or loaded now) and the content, and the files
    /// they were read from: `files`, taken before the styles were loaded, or taken now.
    func load(
        styles loadedStyles: (styles: [ServedStyle], warnings: [String])? = nil,
        files takenFiles: ServeInputFiles? = nil
    ) throws(AssemblyError) -> (content: ServerContent, files: ServeInputFiles, warnings: [String]) {
        var files = takenFiles ?? inputFiles()
        let styles: (styles: [ServedStyle], warnings: [String])
        if let loadedStyles { styles = loadedStyles } else { styles = try loadStyles() }
        files.append(contentsOf: Self.spriteFiles(of: styles.styles))
        let content = try loadContent(styles: styles.styles)
        return (content.content, files, (loadedStyles == nil ? styles.warnings : []) + content.warnings)
    }
}
