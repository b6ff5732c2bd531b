import Foundation
import MapUtilities

/// An entry of a ``TilesetRegistry``: a tileset registered by name, kept as its `Stored` form.
protocol RegisteredTileset: Sendable {
    /// How the entry is written in the registry's JSON.
    associatedtype Stored: Codable
    /// Its name, unique among the registered.
    var name: String { get }
    /// The tileset's absolute path (or a remote archive's URL).
    var path: String { get }
    init(stored: Stored)
    var stored: Stored { get }
}

/// A list of registered tilesets kept as JSON in the user's data folder, newest first
/// (`{"KEY": [entry, ...]}`): what the street-level basemaps (``StreetBasemaps``, `basemaps.json`)
/// and the DEMs (``TerrainBasemaps``, `terrain.json`) share: reading and writing the file,
/// names, adding and removing entries, and the temporary folder and install of a build.
struct TilesetRegistry<Entry: RegisteredTileset>: Sendable {
    /// The registry file.
    let url: URL
    /// The member of the file's object that holds the entries.
    let key: String
    /// What messages name (`basemap`, `terrain`).
    let input: AssemblyInput

    /// The registry `fileName` in `locations`' user data folder.
    init(_ fileName: String, key: String, input: AssemblyInput, locations: DataLocations) {
        url = locations.userDataDirectory.appendingPathComponent(fileName)
        self.key = key
        self.input = input
    }

    /// The registered entries, newest first; none when nothing was registered.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` when the file cannot be read.
    func entries() throws(AssemblyError) -> [Entry] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            let decoder = JSONDecoder()
            decoder.userInfo[File.keyInfo] = key
            return try decoder.decode(File.self, from: Data(contentsOf: url)).entries.map(Entry.init(stored:))
        } catch {
            throw .invalid(
                input, reason: "\(url.path) cannot be read: \(error.localizedDescription); remove it to start again")
        }
    }

    /// Writes `entries` as the registry, making the user's data folder when needed.
    func write(_ entries: [Entry]) throws(AssemblyError) {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try AtomicFile.write(try encoder.encode(File(key: key, entries: entries.map(\.stored))), to: url)
        } catch {
            throw .invalid(input, reason: "\(url.path) cannot be written: \(error.localizedDescription)")
        }
    }

    /// Registers `entry` first, replacing an entry of its path, once `check` (given the other
    /// entries) passes.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` for a name that is not usable or is taken by
    ///   another file, or what `check` throws.
    func add(_ entry: Entry, check: ([Entry]) throws(AssemblyError) -> Void = { _ in }) throws(AssemblyError) {
        guard Self.isValidName(entry.name) else {
            throw .invalid(input, reason: "'\(entry.name)' is not a usable name: use letters, digits, '-', '_' and '.'")
        }
        var entries = try entries().filter { $0.path != entry.path }
        if let other = entries.first(where: { $0.name == entry.name }) { throw nameTaken(entry.name, by: other) }
        try check(entries)
        entries.insert(entry, at: 0)
        try write(entries)
    }

    /// Unregisters the entry `name`; its file is left where it is.
    ///
    /// - Parameter missing: The reason given when no entry has the name, from the entries' names.
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` with that reason.
    func remove(name: String, missing: ([String]) -> String) throws(AssemblyError) -> Entry {
        var entries = try entries()
        guard let index = entries.firstIndex(where: { $0.name == name }) else {
            throw .invalid(input, reason: missing(entries.map(\.name)))
        }
        let entry = entries.remove(at: index)
        try write(entries)
        return entry
    }

    /// Checks the name a build is asked to write `destination` under: usable, and not taken by
    /// another file.
    func checkBuildName(_ name: String, destination: URL) throws(AssemblyError) {
        guard Self.isValidName(name) else {
            throw .invalid(
                input,
                reason: "'\(name)' is not a usable name: use letters, digits, '-', '_' and '.' (give one with --name)")
        }
        if let other = try entries().first(where: { $0.name == name }), other.path != destination.path {
            throw nameTaken(name, by: other)
        }
    }

    /// The error for a name another registered file has.
    private func nameTaken(_ name: String, by other: Entry) -> AssemblyError {
        .invalid(
            input, reason: "the name '\(name)' is taken by \(other.path): give another with --name, or remove it first")
    }

    /// Runs `build` in a new temporary folder (`PREFIX…` in the system's), removed afterwards,
    /// and copies the file it returns to `destination`, whole or not at all.
    func building(into destination: URL, prefix: String, _ build: (_ work: URL) throws(AssemblyError) -> URL)
        throws(AssemblyError)
    {
        let fileManager = FileManager.default
        guard let work = AtomicFile.makeUniqueDirectory(in: fileManager.temporaryDirectory, prefix: prefix) else {
            throw .invalid(input, reason: "cannot make a temporary folder in \(fileManager.temporaryDirectory.path)")
        }
        defer { try? fileManager.removeItem(at: work) }
        let built = try build(work)
        do { try AtomicFile.copy(built, to: destination) } catch {
            throw .invalid(input, reason: "\(destination.path) cannot be written: \(error.reason)")
        }
    }

    /// Whether a name can be a registered tileset's name.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 100 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)
            }
    }

    /// The file: one member, ``key``, holding the stored entries.
    private struct File: Codable {
        static var keyInfo: CodingUserInfoKey { CodingUserInfoKey(rawValue: "mapwright.registryKey")! }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        var key: String
        var entries: [Entry.Stored]

        init(key: String, entries: [Entry.Stored]) {
            self.key = key
            self.entries = entries
        }

        init(from decoder: any Decoder) throws {
            key = decoder.userInfo[Self.keyInfo] as? String ?? ""
            entries = try decoder.container(keyedBy: Key.self).decode(
                [Entry.Stored].self, forKey: Key(stringValue: key))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(entries, forKey: Key(stringValue: key))
        }
    }
}
