import Foundation

extension DataLocations {
    /// The folder holding `item`: `explicit` when given, else the first data folder of ``roots``
    /// that holds it (see ``Item/isHeld(in:)``).
    ///
    /// - Parameter explicit: A folder the user named (a command-line option); it must exist, and
    ///   is taken as it is. The default is nil.
    /// - Throws: ``DataLookupError`` when `explicit` is not a folder, or no data folder holds the
    ///   item; its one-line description lists every place looked in.
    public func directory(for item: Item, explicit: URL? = nil) throws(DataLookupError) -> URL {
        if let explicit {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: explicit.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw DataLookupError(item: item, explicit: explicit, searched: [])
            }
            return explicit
        }
        let searched = roots.map { Root(directory: $0.directory.appendingPathComponent(item.relativePath, isDirectory: true), origin: $0.origin) }
        guard let found = searched.first(where: { item.isHeld(in: $0.directory) }) else {
            throw DataLookupError(item: item, explicit: nil, searched: searched)
        }
        return found.directory
    }

    /// The folder holding `item` from ``roots``, or nil when none does.
    public func existingDirectory(for item: Item) -> URL? {
        try? directory(for: item)
    }
}

/// Data Mapwright could not find: a folder named explicitly that does not exist, or an item no
/// data folder holds.
public struct DataLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was looked for.
    public var item: DataLocations.Item
    /// The folder named explicitly, when that was the problem.
    public var explicit: URL?
    /// The folders looked in, in order, each with where it came from; empty for an explicit folder.
    public var searched: [DataLocations.Root]

    public init(item: DataLocations.Item, explicit: URL?, searched: [DataLocations.Root]) {
        self.item = item
        self.explicit = explicit
        self.searched = searched
    }

    /// One line: `PATH: no such folder`, or `no styles found: looked in A (MAPWRIGHT_DATA),
    /// B (user data); set MAPWRIGHT_DATA to a folder holding Styles/`.
    public var description: String {
        if let explicit { return "\(explicit.path): no such folder" }
        let what: String
        switch item {
        case .styles: what = "no styles found"
        case .basemap: what = "the basemap (world_map.gpkg) is missing"
        case .fonts: what = "no fonts folder found"
        }
        let places = searched.map { "\($0.directory.path) (\($0.origin.rawValue))" }.joined(separator: ", ")
        let hint = item == .basemap ? "run scripts/setup.sh or set MAPWRIGHT_DATA to a folder holding \(item.relativePath)/"
            : "set MAPWRIGHT_DATA to a folder holding \(item.relativePath)/"
        return "\(what): looked in \(places.isEmpty ? "no place" : places); \(hint)"
    }
}
