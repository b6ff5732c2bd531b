public import Foundation
public import MapStyle

extension DataLocations {
    /// The folder for `item`: `value` (a folder named by `input`) when given, else the first data
    /// folder holding it.
    ///
    /// - Throws: ``AssemblyError/invalid(_:reason:)`` naming the input and listing where the item
    ///   was looked for.
    public func directory(for item: Item, given value: String?, input: AssemblyInput) throws(AssemblyError) -> URL {
        do {
            return try directory(for: item, explicit: value.map { URL(fileURLWithPath: $0, isDirectory: true) })
        } catch {
            throw .invalid(input, reason: error.description)
        }
    }

    /// The basemap folder: `value` when given, else the first data folder holding the basemap.
    /// When `needed` is false a missing basemap is no error: the first folder looked in is
    /// returned, and a style that does need it reports its path when it draws.
    public func basemapDirectory(given value: String?, needed: Bool) throws(AssemblyError) -> URL {
        guard value == nil, !needed else { return try directory(for: .basemap, given: value, input: .basemapDirectory) }
        return existingDirectory(for: .basemap)
            ?? roots.first.map { $0.directory.appendingPathComponent(Item.basemap.relativePath, isDirectory: true) }
            ?? URL(fileURLWithPath: Item.basemap.relativePath, isDirectory: true)
    }
}

extension Style {
    /// Whether a source of the style is a bundled basemap (`basemap://NAME`).
    public var usesBundledBasemap: Bool {
        sources.values.contains { source in
            guard case .vector(let vector) = source, case .basemap = vector.location else { return false }
            return true
        }
    }
}
