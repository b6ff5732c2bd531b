public import Foundation
public import MapCore
public import TileSources

/// Several tile sources read as one, as the street-level basemaps a user registered are: a tile
/// comes from the first source whose zooms and bounds (its metadata's) hold the tile's address
/// and that has it, so a detailed city listed before its country wins where both have tiles, and
/// each region's tiles show where only it has data. A ``TileSources/TileSource`` opened through
/// ``TileSourceLocation/layered(_:)``.
///
/// Its metadata is the sources' together: the lowest and highest zooms, the box around every
/// bounds (none when one source has none), the attributions once each, the format when all agree.
/// A source never has tiles beyond its own zooms here: a view deeper than a region's deepest zoom
/// draws that region from the deepest tiles by the renderer's own overzooming of the whole set.
public struct LayeredTileSource: TileSource {
    /// The sources, first wins.
    public let sources: [any TileSource]
    private let coverage: [(zooms: ClosedRange<Int>?, area: MapRect?)]
    private let combined: TileMetadata

    /// - Throws: ``TilesetsError/invalidSource(reason:)`` for no sources; what a source's
    ///   metadata throws.
    public init(_ sources: [any TileSource]) throws(TilesetsError) {
        guard !sources.isEmpty else { throw .invalidSource(reason: "a layered source needs at least one tileset") }
        self.sources = sources
        var coverage: [(zooms: ClosedRange<Int>?, area: MapRect?)] = []
        var metadata: [TileMetadata] = []
        for source in sources {
            let own: TileMetadata
            do { own = try source.metadata() } catch let error as TilesetsError { throw error } catch {
                throw .invalidSource(reason: "\(source.sourceDescription): \(error)")
            }
            metadata.append(own)
            let zooms = (try? source.zoomRange()) ?? nil
            let area = own.bounds.flatMap { box in
                try? CoordinateRegion(west: box.west, south: box.south, east: box.east, north: box.north).mapRect
            }
            coverage.append((zooms, area))
        }
        self.coverage = coverage
        var combined = TileMetadata(name: sources.map(\.sourceDescription).joined(separator: " + "))
        let formats = Set(metadata.map(\.format))
        combined.format = formats.count == 1 ? metadata[0].format : nil
        combined.minZoom = metadata.compactMap(\.minZoom).min()
        combined.maxZoom = metadata.compactMap(\.maxZoom).max()
        let boxes = metadata.map(\.bounds)
        if !boxes.contains(nil) { combined.bounds = boxes.compactMap { $0 }.reduce(nil) { $0?.union($1) ?? $1 } }
        var credits: [String] = []
        for credit in metadata.compactMap(\.attribution) where !credit.isEmpty && !credits.contains(credit) {
            credits.append(credit)
        }
        combined.attribution = credits.isEmpty ? nil : credits.joined(separator: " · ")
        combined.json = metadata.compactMap(\.json).first
        self.combined = combined
    }

    public var sourceDescription: String { combined.name ?? "" }

    public var fileURL: URL? { sources.count == 1 ? sources[0].fileURL : nil }

    /// The first source's location that covers the tile.
    public func location(of id: TileID) -> String {
        covering(id).first.map { sources[$0].location(of: id) } ?? sourceDescription
    }

    /// The indices of the sources whose zooms and bounds hold `id`, in order.
    private func covering(_ id: TileID) -> [Int] {
        let rect = id.mapRect
        return coverage.indices.filter { index in
            let (zooms, area) = coverage[index]
            if let zooms, !zooms.contains(id.z) { return false }
            if let area, !area.intersects(rect) { return false }
            return true
        }
    }

    /// The tile of the first source covering it that has it; nil when none does.
    ///
    /// A source that cannot be read (a remote archive whose server does not answer) is passed
    /// over for the next: the tile comes from another that has it. Its error is thrown only when
    /// no other source gives the tile.
    public func tile(at id: TileID) throws -> Data? {
        var failure: (any Error)?
        for index in covering(id) {
            do {
                if let data = try sources[index].tile(at: id) { return data }
            } catch {
                if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
        return nil
    }

    public func metadata() throws -> TileMetadata { combined }

    public func zoomRange() throws -> ClosedRange<Int>? {
        let ranges = coverage.compactMap(\.zooms)
        guard let low = ranges.map(\.lowerBound).min(), let high = ranges.map(\.upperBound).max() else { return nil }
        return low...high
    }

    /// Every tile of every source, the first source's at an address shadowing the others'.
    public func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
        var seen = Set<TileID>()
        for source in sources {
            try source.forEachTile { id, data in
                guard seen.insert(id).inserted else { return }
                try body(id, data)
            }
        }
    }
}
