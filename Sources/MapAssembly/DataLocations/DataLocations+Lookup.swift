public import Foundation

extension DataLocations {
    /// The folder holding `item`: `explicit` when given, else the first data folder of ``roots``
    /// that holds it (see ``Item/isHeld(in:)``).
    ///
    /// - Parameter explicit: A folder the user named (a command-line option); it must exist, and
    ///   is taken as it is. The default is nil.
    /// - Throws: ``AssemblyError/dataNotFound(item:explicit:searched:)`` when `explicit` is not a
    ///   folder, or no data folder holds the item; its one-line description lists every place looked in.
    public func directory(for item: Item, explicit: URL? = nil) throws(AssemblyError) -> URL {
        if let explicit {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: explicit.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw .dataNotFound(item: item, explicit: explicit, searched: [])
            }
            return explicit
        }
        let searched = roots.map {
            Root(
                directory: $0.directory.appendingPathComponent(item.relativePath, isDirectory: true), origin: $0.origin)
        }
        guard let found = searched.first(where: { item.isHeld(in: $0.directory) }) else {
            throw .dataNotFound(item: item, explicit: nil, searched: searched)
        }
        return found.directory
    }

    /// The folder holding `item` from ``roots``, or nil when none does.
    public func existingDirectory(for item: Item) -> URL? {
        try? directory(for: item)
    }
}
