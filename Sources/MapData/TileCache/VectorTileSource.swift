import Foundation
package import GeoData
package import MapCore
import MapJSON
import MapStyle
import MapUtilities
import Synchronization
package import TileSources
package import Tilesets
import VectorTiles

/// A vector tileset (an MBTiles or PMTiles file of Mapbox Vector Tiles) as a style layer draws
/// it: the tiles covering a view, at the zoom MapLibre would read for it, decoded once, placed
/// on the map and cut to their own tile's bounds, so that neighbouring tiles, which both carry
/// the features near their common edge (the tile buffer), never draw them twice.
///
/// **Zooms.** A view at viewport zoom z (256-point tiles, as ``Viewport`` counts) shows the
/// tiles MapLibre reads for it, whose tiles are 512 points: zoom ⌊z⌋ − 1. Deeper views than the
/// tileset's deepest zoom draw its deepest tiles scaled up (overzoom): a tileset made to zoom 14
/// draws streets at zoom 18 from its zoom-14 tiles. Views shallower than its shallowest zoom
/// draw nothing of it, as MapLibre does.
///
/// **Bad data is skipped, never a failed map.** A feature whose tags or geometry cannot be read
/// is left out of its tile, and a tile that cannot be read or decoded at all is drawn as absent;
/// both are counted (``skippedData``), for one warning line per tileset (see
/// ``MapData/skippedDataWarnings()``). Only a file with nothing drawable in view, every tile
/// there broken, is an error: bad input, not bad data in a good file. Rings are classified as
/// MapLibre classifies them, so a polygon whose first ring winds as a hole draws as MapLibre
/// draws it.
///
/// Decoded tiles are kept in memory, the most recently used 2,048, shared by every render and
/// thread of the process. Immutable but for that cache and the count, behind locks.
package final class VectorTileSource: Sendable {
    /// The tiles: an MBTiles or PMTiles file, tile templates, or any other tile source.
    package let source: any TileSource
    /// The source as messages name it: the file's path.
    package let path: String
    /// The zooms its tiles are at.
    package let minZoom: Int, maxZoom: Int
    /// Where it has tiles; nil when its metadata does not say.
    package let bounds: MapRect?
    /// Its credit line (its metadata's `attribution`), for the map's attribution.
    package let attribution: String?
    private let tiles = Mutex(DecodedTiles())
    private let skipped = Mutex(SkippedVectorData())
    /// The tiles being read and decoded, each by one thread, with a gate the others asking for
    /// the same tile wait at (see ``decoded(_:)``).
    private let decoding = Mutex<[TileID: TileDecoding]>([:])

    /// Decoded tiles kept: at most this many.
    static let keptTileCount = 2_048

    /// Opens vector tiles: a tileset file, MBTiles or PMTiles (told apart by its first bytes),
    /// or tile templates.
    ///
    /// - Parameters:
    ///   - minZoom, maxZoom: The style source's own zooms; nil takes the tiles' metadata's.
    ///   - bounds: The style source's own `bounds`; nil takes the tiles' metadata's.
    /// - Throws: ``MapDataError`` when the file is not a tileset, or not of vector tiles.
    package convenience init(
        location: TileSourceLocation, minZoom: Int? = nil, maxZoom: Int? = nil, bounds: BoundingBox? = nil
    ) throws(MapDataError) {
        let source: any TileSource
        do throws(TilesetsError) { source = try location.open() } catch {
            let path = if case .file(let url) = location { url.displayPath } else { location.description }
            throw .vectorTiles(path: path, reason: error.description)
        }
        try self.init(source: source, minZoom: minZoom, maxZoom: maxZoom, bounds: bounds)
    }

    /// Draws the vector tiles of any tile source.
    ///
    /// - Parameters:
    ///   - minZoom, maxZoom: The style source's own zooms; nil takes the source's metadata's.
    ///   - bounds: The style source's own `bounds`; nil takes the source's metadata's.
    /// - Throws: ``MapDataError`` when the metadata cannot be read, or names tiles other than vector tiles.
    package init(source: any TileSource, minZoom: Int? = nil, maxZoom: Int? = nil, bounds: BoundingBox? = nil)
        throws(MapDataError)
    {
        let path = source.fileURL?.displayPath ?? source.sourceDescription
        let metadata: TileMetadata
        do { metadata = try source.metadata() } catch {
            throw .vectorTiles(path: path, reason: "\(error)")
        }
        guard metadata.format == nil || metadata.format == .pbf else {
            throw .vectorTiles(
                path: path,
                reason:
                    "it holds \(metadata.format?.rawValue ?? "") tiles, not vector tiles (pbf): use it as a raster source"
            )
        }
        self.source = source
        self.path = path
        let low = min(30, max(0, minZoom ?? metadata.minZoom ?? 0))
        self.minZoom = low
        self.maxZoom = max(low, min(30, maxZoom ?? metadata.maxZoom ?? 14))
        self.bounds = (bounds ?? metadata.bounds).flatMap { box in
            try? CoordinateRegion(west: box.west, south: box.south, east: box.east, north: box.north).mapRect
        }
        attribution = metadata.attribution
    }

    /// The zoom of the tiles drawn at a viewport zoom: ⌊z⌋ − 1, the deepest zoom beyond the
    /// tileset's; nil below its shallowest, where MapLibre reads no tiles of a source either.
    package func tileZoom(forViewportZoom zoom: Double) -> Int? {
        guard zoom.isFinite else { return nil }
        let wanted = Int((zoom + 1e-9).rounded(.down)) - 1
        guard wanted >= minZoom else { return nil }
        return min(maxZoom, wanted)
    }

    /// The features of the tiles' layer `layer` that meet `rect` (map points; it may reach past
    /// the antimeridian), from the tiles at `zoom`, each cut to its own tile: in tile order, then
    /// the tile's feature order. Features found in a world copy east or west are moved there.
    ///
    /// Tiles that cannot be decoded, and features that cannot be read, are left out (and
    /// counted): one broken tile or feature among good ones costs only itself. When every tile
    /// the view reads is broken, though, the file holds nothing drawable there: that is bad input,
    /// an error.
    ///
    /// - Throws: ``MapDataError`` when the file cannot be read, or when every tile in view is
    ///   broken (undecodable, or all its features unreadable); the message names the file and
    ///   the first tile's problem.
    /// - Parameter filter: When given, only the features it passes, each tile's verdicts kept
    ///   with the tile (see ``TileFeatureFilter``); the result is what filtering the features
    ///   afterwards would give, in the same order.
    package func features(
        layer: String, in rect: MapRect, zoom: Int, meetingRectOnly: Bool = false, filter: TileFeatureFilter? = nil
    ) throws(MapDataError) -> [PreparedFeature] {
        let key = filter?.key(layer: layer)
        var result: [PreparedFeature] = []
        var anyDrawable = false
        var firstProblem: String?
        for copy in rect.worldCopies {
            var area = copy.rect
            if let bounds {
                area = area.intersection(bounds.insetBy(dx: -1, dy: -1))
                if area.isNull { continue }
            }
            let cover: [TileID]
            do { cover = try TileID.tiles(covering: area, zoom: zoom, maximumCount: 4_096) } catch {
                throw .vectorTiles(path: path, reason: "the view needs \(error.description) at zoom \(zoom)")
            }
            for tile in cover {
                guard let decoded = try decoded(tile) else { continue }
                if let problem = decoded.problem {
                    if firstProblem == nil { firstProblem = problem }
                    continue
                }
                anyDrawable = true
                guard let features = decoded.layers[layer] else { continue }
                let tileRect = tile.mapRect
                let testsBounds =
                    meetingRectOnly
                    && !(tileRect.minX >= area.minX && tileRect.maxX <= area.maxX
                        && tileRect.minY >= area.minY && tileRect.maxY <= area.maxY)
                let bounds = testsBounds ? decoded.bounds[layer] ?? [] : []
                if let filter, let key {
                    let meeting =
                        testsBounds ? features.indices.filter { bounds[$0].meets(area) } : Array(features.indices)
                    for index in decoded.passing(key, of: features, among: meeting, includes: filter.includes) {
                        var feature = features[index]
                        if copy.offsetX != 0 { feature.geometry = feature.geometry.offsetBy(dx: copy.offsetX) }
                        result.append(feature)
                    }
                    continue
                }
                for (index, var feature) in features.enumerated() {
                    if testsBounds, !bounds[index].meets(area) { continue }
                    if copy.offsetX != 0 { feature.geometry = feature.geometry.offsetBy(dx: copy.offsetX) }
                    result.append(feature)
                }
            }
        }
        if !anyDrawable, let firstProblem { throw .vectorTiles(path: path, reason: firstProblem) }
        return result
    }

    /// Reads and decodes the tiles at `zoom` that meet `rect` and are not kept yet, up to the
    /// number kept, on every core (a render's first reads otherwise decode them one by one).
    ///
    /// The work is spread in three flat steps, each over every core: the tiles uncompressed, then
    /// every layer of every tile decoded, then every tile's features prepared in pieces of at most
    /// ``DecodedTile/pieceFeatures``. A decode nested inside another `concurrentPerform` gets one
    /// thread (libdispatch shares its width), so decoding tile by tile would leave a dense city
    /// tile's layers to one core while the others wait. One missing tile is decoded here too: a
    /// static map inside one tile otherwise decoded it in the first band to ask, on one core,
    /// while the other waited for it (2-10 ms of a whole `render` of the public styles).
    ///
    /// - Throws: ``MapDataError`` when the source cannot be read, as ``features(layer:in:zoom:meetingRectOnly:)``.
    package func prefetch(_ rect: MapRect, zoom: Int) throws(MapDataError) {
        var wanted: [TileID] = []
        for copy in rect.worldCopies {
            var area = copy.rect
            if let bounds {
                area = area.intersection(bounds.insetBy(dx: -1, dy: -1))
                if area.isNull { continue }
            }
            guard
                let cover = try? TileID.tiles(
                    covering: area, zoom: zoom, maximumCount: VectorTileSource.keptTileCount / 2)
            else { return }
            wanted += cover
        }
        let missing = tiles.withLock { kept in
            wanted.filter {
                if case .missing = kept.peek($0) { return true }
                return false
            }
        }
        guard !missing.isEmpty else { return }
        // Read on every core too: a remote tileset's reads wait on the network.
        let reads = [Result<Data?, MapDataError>](concurrentlyComputing: missing.count) { index in
            do throws(MapDataError) { return .success(try read(missing[index])) } catch { return .failure(error) }
        }
        var present: [(tile: TileID, data: Data)] = []
        for (tile, result) in zip(missing, reads) {
            if let data = try result.get() { present.append((tile, data)) } else { finish(tile, nil) }
        }
        // Each tile's slot holds its decoded layers and then its prepared pieces, until the core
        // that finishes the tile moves them out: they are let go there, on every core, rather
        // than all on this thread at the end (a static map's other core waited ~5 ms for it).
        let slots = UnsafeMutableBufferPointer<DecodingSlot>.allocate(capacity: present.count)
        defer { slots.deallocate() }
        Self.decode(present, into: slots)
        let shared = UnsafeTransfer(slots)
        let pieces = slots.map {
            (try? $0.vectorTile.get()).map { DecodedTile.pieces(of: $0, size: DecodedTile.pieceFeatures) } ?? []
        }
        let made = [[[PreparedFeature]]](concurrentlyComputing: pieces.map(\.count)) { tile, piece in
            guard case .success(let vectorTile) = shared.wrappedValue[tile].vectorTile else {
                preconditionFailure("only decoded tiles have pieces")
            }
            return DecodedTile.prepare(pieces[tile][piece], of: vectorTile, tile: present[tile].tile)
        }
        for (index, prepared) in made.enumerated() { slots[index].prepared = prepared }
        _ = consume made
        let finished = [(tile: DecodedTile, skipped: Skipped?)](concurrentlyComputing: present.count) { index in
            let slot = (shared.wrappedValue.baseAddress! + index).move()
            return Self.made(slot.vectorTile.map { ($0, pieces[index], slot.prepared) })
        }
        // Kept and counted in the tiles' order, so that the first problem named is the same
        // in every run.
        for (index, made) in finished.enumerated() { _ = keep(present[index].tile, made) }
    }

    /// One tile's work in ``prefetch(_:zoom:)``: the tile decoded, then its features prepared in
    /// pieces (empty until they are).
    private struct DecodingSlot {
        var vectorTile: Result<VectorTile, VectorTileError>
        var prepared: [[PreparedFeature]] = []
    }

    /// Decodes the tiles' bytes into `slots` (uninitialized, one per tile): each tile's layers on
    /// every core at once. What the decoding made on the way is let go when this returns.
    private static func decode(
        _ present: [(tile: TileID, data: Data)], into slots: UnsafeMutableBufferPointer<DecodingSlot>
    ) {
        let undecoded = [Result<UndecodedVectorTile, VectorTileError>](concurrentlyComputing: present.count) { index in
            Result { () throws(VectorTileError) in
                try UndecodedVectorTile(data: present[index].data, tile: present[index].tile)
            }
        }
        let layers = [[Result<VectorTileLayer, VectorTileError>]](
            concurrentlyComputing: undecoded.map { (try? $0.get())?.layerCount ?? 0 }
        ) { tile, layer in
            guard case .success(let undecodedTile) = undecoded[tile] else {
                preconditionFailure("only decoded tiles have layers")
            }
            return undecodedTile.layer(layer, skippingBadFeatures: true)
        }
        for (index, (undecodedTile, layers)) in zip(undecoded, layers).enumerated() {
            let vectorTile = undecodedTile.flatMap { tile in
                Result { () throws(VectorTileError) in try VectorTile(tile, layers: layers) }
            }
            (slots.baseAddress! + index).initialize(to: DecodingSlot(vectorTile: vectorTile))
        }
    }

    /// What was skipped so far: broken features and unreadable tiles, each tile counted once.
    var skippedData: SkippedVectorData { skipped.withLock { $0 } }

    /// A tile decoded and cut to its bounds, from memory or the file; nil when the file has none,
    /// or when its bytes cannot be decoded (counted in ``skippedData``). Broken features are left
    /// out of it and counted.
    ///
    /// - Throws: ``MapDataError`` when the source cannot be read (a file gone, a server that
    ///   does not answer): the tileset, not its data, is at fault.
    /// A tile read and decoded once however many threads ask at once: the first decodes it,
    /// the others wait for it and take it (the layout and the lower layers of a static map,
    /// drawn side by side, both began by decoding the same tiles).
    private func decoded(_ tile: TileID) throws(MapDataError) -> DecodedTile? {
        if case .kept(let kept) = tiles.withLock({ $0.get(tile) }) { return kept }
        let gate = decoding.withLock { decoding in
            if let gate = decoding[tile] { return gate }
            let gate = TileDecoding()
            decoding[tile] = gate
            return gate
        }
        return try gate.turn.withLock { _ throws(MapDataError) -> DecodedTile? in
            if case .kept(let kept) = tiles.withLock({ $0.peek(tile) }) { return kept }
            defer { decoding.withLock { $0[tile] = nil } }
            return decode(tile, data: try read(tile))
        }
    }

    /// The tile's bytes as the source stores them; nil when it has none.
    ///
    /// - Throws: ``MapDataError`` when the source cannot be read.
    private func read(_ tile: TileID) throws(MapDataError) -> Data? {
        do { return try source.tile(at: tile) } catch { throw .vectorTiles(path: path, reason: "\(error)") }
    }

    /// The tile decoded from `data` and kept; nil (kept too) when there is no data. Undecodable
    /// bytes and broken features are counted in ``skippedData``.
    private func decode(_ tile: TileID, data: Data?) -> DecodedTile? {
        guard let data else { return finish(tile, nil) }
        let decoded = Result { () throws(VectorTileError) in
            try VectorTile(data: data, tile: tile, skippingBadFeatures: true)
        }
        return finish(
            tile,
            decoded.map { vectorTile in
                let pieces = DecodedTile.pieces(of: vectorTile, size: DecodedTile.pieceSize(of: vectorTile))
                let made =
                    pieces.count > 1
                    ? [[PreparedFeature]](concurrentlyComputing: pieces.count) {
                        DecodedTile.prepare(pieces[$0], of: vectorTile, tile: tile)
                    }
                    : pieces.map { DecodedTile.prepare($0, of: vectorTile, tile: tile) }
                return (vectorTile, pieces, made)
            })
    }

    /// Keeps the tile made from its decoded layers and prepared pieces (nil: the source has no
    /// such tile), counting its broken features or its undecodable bytes in ``skippedData``.
    @discardableResult
    private func finish(
        _ tile: TileID, _ decodedTile: Result<(VectorTile, [DecodedTile.Piece], [[PreparedFeature]]), VectorTileError>?
    ) -> DecodedTile? {
        keep(tile, decodedTile.map(Self.made))
    }

    /// What a tile's decoding left out, counted in ``skippedData`` when the tile is kept.
    private enum Skipped {
        case features(count: Int, reason: String)
        case tile(reason: String)
    }

    /// The tile made from its decoded layers and prepared pieces, and what of it was left out.
    private static func made(
        _ decodedTile: Result<(VectorTile, [DecodedTile.Piece], [[PreparedFeature]]), VectorTileError>
    ) -> (tile: DecodedTile, skipped: Skipped?) {
        switch decodedTile {
        case .success(let (vectorTile, pieces, made)):
            let broken = vectorTile.layers.flatMap(\.skippedFeatures)
            guard let first = broken.first else {
                return (DecodedTile(vectorTile, pieces: pieces, prepared: made), nil)
            }
            let allBroken = vectorTile.layers.allSatisfy(\.features.isEmpty)
            return (
                DecodedTile(vectorTile, pieces: pieces, prepared: made, problem: allBroken ? first.description : nil),
                .features(count: broken.count, reason: first.description)
            )
        case .failure(let error):
            return (DecodedTile(problem: error.description), .tile(reason: error.description))
        }
    }

    /// Keeps a tile made by ``made(_:)`` (nil: the source has no such tile) and counts what it
    /// left out.
    private func keep(_ tile: TileID, _ made: (tile: DecodedTile, skipped: Skipped?)?) -> DecodedTile? {
        switch made?.skipped {
        case .features(let count, let reason)?: skipped.withLock { $0.add(features: count, in: tile, reason: reason) }
        case .tile(let reason)?: skipped.withLock { $0.add(unreadableTile: tile, reason: reason) }
        case nil: break
        }
        tiles.withLock { $0.put(tile, made?.tile) }
        return made?.tile
    }
}

/// One vector tile's features by layer name, on the map, cut to the tile's bounds.
final class DecodedTile: Sendable {
    let layers: [String: [PreparedFeature]]
    /// Each layer's features' bounds, in the order of ``layers``' features.
    let bounds: [String: [MapRect]]
    /// Why nothing of the tile can be drawn: its bytes do not decode, or every feature it has is
    /// broken; nil for a tile that draws (even with some features left out).
    let problem: String?
    /// Each filter's verdicts on a layer's features, by ``TileFeatureFilter/Key``: one byte per
    /// feature of the key's layer, 0 not judged yet, 1 passes, 2 does not (see
    /// ``passing(_:of:among:includes:)``).
    private let verdicts = Mutex<[TileFeatureFilter.Key: [UInt8]]>([:])
    /// The most filters' verdicts a tile keeps: a filter that reads the zoom is kept per zoom,
    /// and a server's fractional zooms would otherwise add to a tile without end.
    static let maximumKeptVerdicts = 1_024

    /// A tile that cannot be drawn at all, and why.
    init(problem: String) {
        layers = [:]
        bounds = [:]
        self.problem = problem
    }

    /// A tile from its layers' features, prepared in `pieces` (``pieces(of:size:)``, each made by
    /// ``prepare(_:of:tile:)`` into the matching element of `prepared`).
    init(_ vectorTile: VectorTile, pieces: [Piece], prepared: consuming [[PreparedFeature]], problem: String? = nil) {
        self.problem = problem
        var layers: [String: [PreparedFeature]] = [:]
        for (index, piece) in pieces.enumerated() {
            let features = prepared[index]
            prepared[index] = []
            let name = vectorTile.layers[piece.layer].name
            // A layer's first piece becomes its array as it is (its features not copied).
            if layers[name] == nil { layers[name] = features } else { layers[name]!.append(contentsOf: features) }
        }
        self.layers = layers
        bounds = layers.mapValues { features in features.map(\.geometry.bounds) }
    }

    /// The indices of `indices` (ascending, into `features`: this tile's features of the key's
    /// layer) whose features `includes` passes, in order. Verdicts given before under the same key
    /// are kept and reused; the others are found now and kept (the keys up to
    /// ``maximumKeptVerdicts``), so a feature is judged once however many renders ask, and only
    /// when one asks (a view meets part of a tile). Threads asking at once may judge a feature
    /// twice; they find the same verdict.
    func passing(
        _ key: TileFeatureFilter.Key, of features: [PreparedFeature], among indices: [Int],
        includes: (PreparedFeature) -> Bool
    ) -> [Int] {
        var known = verdicts.withLock { $0[key] } ?? [UInt8](repeating: 0, count: features.count)
        var judged = false
        var passing: [Int] = []
        for index in indices {
            if known[index] == 0 {
                known[index] = includes(features[index]) ? 1 : 2
                judged = true
            }
            if known[index] == 1 { passing.append(index) }
        }
        if judged {
            verdicts.withLock { kept in
                if var current = kept[key] {
                    for index in indices where current[index] == 0 { current[index] = known[index] }
                    kept[key] = current
                } else if kept.count < DecodedTile.maximumKeptVerdicts {
                    kept[key] = known
                }
            }
        }
        return passing
    }

    /// Some of one layer's features: a piece of work when a tile's are prepared on every core.
    struct Piece: Sendable {
        /// The layer's index in the tile.
        var layer: Int
        /// The features' indices in the layer.
        var features: Range<Int>
    }

    /// The tile's layers in pieces of at most `size` features, in order. A layer without features
    /// is one empty piece: its name stays among the tile's layers.
    static func pieces(of vectorTile: VectorTile, size: Int) -> [Piece] {
        vectorTile.layers.indices.flatMap { layer in
            let count = vectorTile.layers[layer].features.count
            return stride(from: 0, to: max(count, 1), by: size).map { start in
                Piece(layer: layer, features: start..<min(count, start + size))
            }
        }
    }

    /// The piece size for a tile decoded alone: ``pieceFeatures`` for a tile of at least
    /// ``concurrentFeatureCount`` features (prepared on every core), else the whole of each layer.
    static func pieceSize(of vectorTile: VectorTile) -> Int {
        let featureCount = vectorTile.layers.reduce(0) { $0 + $1.features.count }
        return featureCount >= concurrentFeatureCount ? pieceFeatures : Int.max
    }

    /// The piece's features placed on the map and cut to the tile `tile`; those left with no
    /// geometry are left out. Properties gain `$id` (the feature's id) and `$type` (its geometry
    /// type's legacy name), once here rather than for every layer's filter (see
    /// PreparedFeature.styleValues).
    static func prepare(_ piece: Piece, of vectorTile: VectorTile, tile: TileID) -> [PreparedFeature] {
        let rect = tile.mapRect
        let layer = vectorTile.layers[piece.layer]
        var features: [PreparedFeature] = []
        features.reserveCapacity(piece.features.count)
        for index in piece.features {
            let feature = layer.features[index]
            let geometry = DecodedTile.geometry(feature.geometry.mapPoints(in: tile, extent: layer.extent), cutTo: rect)
            guard !geometry.isEmpty else { continue }
            // The decoded table as it is (no key hashed again); the decoder leaves room for two more.
            var properties = feature.properties.mapValues(FeatureValue.init)
            if let id = feature.id { properties["$id"] = .number(Double(id)) }
            if let type = geometry.legacyTypeName { properties["$type"] = .string(type) }
            features.append(PreparedFeature(sourceIndex: index, properties: properties, geometry: geometry))
        }
        return features
    }

    /// The number of features from which a tile decoded alone has its features prepared on every
    /// core at once: 2,000.
    static let concurrentFeatureCount = 2_000
    /// The most features of one layer prepared as one piece of work on every core: 256.
    static let pieceFeatures = 256

    /// The geometry cut to the tile: points on its west and north edges belong to it, those on
    /// its east and south edges to the neighbours (tiles are half-open), so a point in two
    /// tiles' buffers is drawn once; lines and rings are cut exactly at its edges.
    static func geometry(_ geometry: MapGeometry, cutTo rect: MapRect) -> PreparedGeometry {
        switch geometry {
        case .points(let points):
            return PreparedGeometry(
                points: points.filter { $0.x >= rect.minX && $0.x < rect.maxX && $0.y >= rect.minY && $0.y < rect.maxY }
            )
        case .lines(let lines):
            return PreparedGeometry(lines: lines).clipped(to: rect)
        case .polygons(let polygons):
            // Rings come open; PreparedGeometry's are closed.
            let closed = polygons.map { rings in rings.map { ring in ring.first.map { ring + [$0] } ?? ring } }
            return PreparedGeometry(polygons: closed).clipped(to: rect)
        case .none:
            return PreparedGeometry()
        }
    }
}

/// What a vector tileset's renders left out: broken features and unreadable tiles.
struct SkippedVectorData: Sendable, Hashable {
    /// Features left out because their tags or geometry cannot be read.
    private(set) var featureCount = 0
    /// Tiles left out because their bytes cannot be decoded.
    private(set) var tileCount = 0
    /// The first problem met, in words (it names the tile, layer and feature).
    private(set) var firstReason: String?
    /// The tiles counted, so a tile decoded again (after leaving the cache) is not counted twice.
    private var tiles: Set<TileID> = []

    var isEmpty: Bool { featureCount == 0 && tileCount == 0 }

    mutating func add(features count: Int, in tile: TileID, reason: String) {
        guard tiles.insert(tile).inserted else { return }
        featureCount += count
        if firstReason == nil { firstReason = reason }
    }

    mutating func add(unreadableTile tile: TileID, reason: String) {
        guard tiles.insert(tile).inserted else { return }
        tileCount += 1
        if firstReason == nil { firstReason = reason }
    }

    /// One warning line naming the tileset: what was left out, and the first reason.
    func warning(path: String) -> String? {
        guard !isEmpty else { return nil }
        var parts: [String] = []
        if featureCount > 0 {
            parts.append(featureCount == 1 ? "1 broken feature is" : "\(featureCount.groupedText) broken features are")
        }
        if tileCount > 0 {
            parts.append(tileCount == 1 ? "1 unreadable tile is" : "\(tileCount.groupedText) unreadable tiles are")
        }
        return "\(path): \(parts.joined(separator: " and ")) not drawn (the first: \(firstReason ?? "unknown"))"
    }
}

/// One tile being decoded: the thread decoding it holds ``turn`` until the tile is kept.
private final class TileDecoding: Sendable {
    let turn = Mutex(())
}

/// The decoded tiles kept, least recently used first out.
private struct DecodedTiles {
    private var entries: [TileID: (tile: DecodedTile?, use: UInt64)] = [:]
    private var clock: UInt64 = 0

    /// A lookup's answer: a tile was looked for before (and may be absent from the file), or not.
    enum Lookup {
        case kept(DecodedTile?)
        case missing
    }

    /// Whether a tile was looked for before, without counting a use.
    func peek(_ id: TileID) -> Lookup {
        entries[id].map { .kept($0.tile) } ?? .missing
    }

    mutating func get(_ id: TileID) -> Lookup {
        guard let entry = entries[id] else { return .missing }
        clock += 1
        entries[id] = (entry.tile, clock)
        return .kept(entry.tile)
    }

    mutating func put(_ id: TileID, _ tile: DecodedTile?) {
        clock += 1
        entries[id] = (tile, clock)
        if entries.count > VectorTileSource.keptTileCount {
            // Let the oldest quarter go at once, so the sweep is rare.
            let cut = entries.values.map(\.use).sorted()[entries.count / 4]
            entries = entries.filter { $0.value.use > cut }
        }
    }
}

extension FeatureValue {
    /// A vector tile's property value: numbers of every width as numbers.
    init(_ value: VectorTileValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .double(let number): self = .number(number)
        case .int(let number): self = .number(Double(number))
        case .uint(let number): self = .number(Double(number))
        case .bool(let flag): self = .bool(flag)
        }
    }
}
