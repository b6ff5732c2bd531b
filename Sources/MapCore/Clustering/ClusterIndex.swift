import Foundation

/// A hierarchical clustering of annotations at every zoom level: what a map shows instead of
/// sixteen pins stacked on one spot (MapKit's clustering, supercluster on the web).
///
/// The index is built once and then only answers questions, from any number of threads: which
/// clusters and lone annotations to draw in a region or map rect at a zoom level, what a cluster
/// holds, and at which zoom it breaks apart. For example:
///
/// ```swift
/// let inputs = photos.map { ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.photographer) }
/// let index = ClusterIndex(inputs)
/// for item in index.items(in: region, zoomLevel: 5.4) {
///     switch item {
///     case .point(let index, _): drawPin(photos[index])
///     case .cluster(let cluster): drawBubble(cluster.abbreviatedCount, at: cluster.coordinate)
///     }
/// }
/// ```
///
/// The clustering is supercluster's (<https://github.com/mapbox/supercluster>): points projected to
/// Web Mercator, clustered greedily at `maximumZoom`, the result clustered again one zoom out, and
/// so on to `minimumZoom`, with the radius doubling in world terms at each step; see
/// ``ClusterOptions``. Mapwright adds clustering identifiers (annotations cluster only with their
/// own kind) and clusters across the antimeridian. The same inputs in the same order with the same
/// options give the same clusters and the same ids.
///
/// Every zoom level's items are kept sorted by the cells of a grid (see `ClusterGrid`), in flat
/// arrays: a query reads one run of the array per row of cells.
public final class ClusterIndex: Sendable {
    /// The options the index was built with.
    public let options: ClusterOptions
    /// The inputs' coordinates, by input index.
    let coordinates: [Coordinate]
    /// The clustering identifiers, by interned number.
    let identifiers: [String]
    /// Unit Web Mercator x, y of every item, interleaved: inputs by index, then clusters by id.
    let positions: [Double]
    /// Per cluster: annotations held, zoom made at, interned identifier, and where its children
    /// (item ids) start in `children` (one more entry, the end).
    let clusterCounts: [Int32]
    let clusterZooms: [UInt8]
    let clusterIdentifiers: [Int32]
    let childStarts: [Int32]
    let children: [Int32]
    /// Each zoom level's item ids, `minimumZoom` first, sorted by the cells of its grid.
    let levels: [[Int32]]
    let grids: [ClusterGrid]

    /// Builds the index over all zoom levels.
    ///
    /// Large inputs use every core for projecting, sorting and clustering (levels of 65,536 items
    /// or more are swept in stripes of rows); the result does not depend on the number of cores.
    ///
    /// - Parameters:
    ///   - inputs: The annotations, fewer than 2^30; the index refers to them by their position here
    ///     (their offset from `startIndex`). A lazy collection
    ///     (`photos.lazy.map { ClusterInput(...) }`) saves making an array of them.
    ///   - options: How to cluster. The default is ``ClusterOptions/init()``.
    @inlinable
    public convenience init<Inputs: Collection<ClusterInput>>(
        _ inputs: Inputs, options: ClusterOptions = ClusterOptions()
    ) {
        precondition(inputs.count < 1 << 30, "ClusterIndex takes fewer than 2^30 inputs")
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(inputs.count)
        var identifierNumbers: [String: Int32] = [:]
        var identifiers: [String] = []
        var inputIdentifiers: [Int32] = []
        inputIdentifiers.reserveCapacity(inputs.count)
        var previous: (identifier: String, number: Int32)?
        for input in inputs {
            coordinates.append(input.coordinate)
            guard let identifier = input.clusteringIdentifier else {
                inputIdentifiers.append(-1)
                continue
            }
            // Annotations of one photographer tend to come together: skip the hashing then.
            if let previous, previous.identifier == identifier {
                inputIdentifiers.append(previous.number)
                continue
            }
            let number =
                identifierNumbers[identifier]
                ?? {
                    identifiers.append(identifier)
                    identifierNumbers[identifier] = Int32(identifiers.count - 1)
                    return Int32(identifiers.count - 1)
                }()
            inputIdentifiers.append(number)
            previous = (identifier, number)
        }
        self.init(
            coordinates: coordinates, inputIdentifiers: inputIdentifiers, identifiers: identifiers, options: options)
    }

    /// Builds the index over inputs given as coordinates and interned identifiers: the number of
    /// each input's identifier in `identifiers`, or -1 for none.
    @usableFromInline
    init(coordinates: [Coordinate], inputIdentifiers: [Int32], identifiers: [String], options: ClusterOptions) {
        let count = coordinates.count
        self.options = options
        self.coordinates = coordinates
        self.identifiers = identifiers

        let coordinates = coordinates
        let projected = [Double](unsafeUninitializedCapacity: 2 * count) { buffer, initialized in
            let positions = SharedBuffer(buffer)
            forEachChunk(count: count) { _, range in
                for index in range {
                    let (x, y) = ClusterIndex.unitPosition(of: coordinates[index])
                    positions[2 * index] = x
                    positions[2 * index + 1] = y
                }
            }
            initialized = 2 * count
        }
        let inputLevel = ClusterLevel(
            ids: Array(0..<Int32(count)),
            x: stride(from: 0, to: 2 * count, by: 2).map { projected[$0] },
            y: stride(from: 1, to: 2 * count, by: 2).map { projected[$0] },
            weights: [Int32](repeating: 1, count: count),
            identifiers: inputIdentifiers
        )
        let builder = ClusterBuilder(inputs: inputLevel, positions: projected, options: options)
        positions = builder.positions
        clusterCounts = builder.clusterCounts
        clusterZooms = builder.clusterZooms
        clusterIdentifiers = builder.clusterIdentifiers
        childStarts = builder.childStarts
        children = builder.children
        levels = builder.levels
        grids = builder.grids
    }

    /// How many inputs the index was built over.
    public var inputCount: Int { coordinates.count }

    /// The bytes the index's arrays hold, counted from their capacities: what keeping the index
    /// costs, give or take the allocator's rounding.
    public var storageBytes: Int {
        func bytes<T>(_ array: [T]) -> Int { array.capacity * MemoryLayout<T>.stride }
        return bytes(coordinates) + bytes(identifiers) + bytes(positions) + bytes(clusterCounts)
            + bytes(clusterZooms) + bytes(clusterIdentifiers) + bytes(childStarts) + bytes(children)
            + bytes(levels) + levels.reduce(0) { $0 + bytes($1) } + bytes(grids)
    }

    /// A coordinate's unit Web Mercator position: x east from the antimeridian in [0, 1), y south
    /// from latitude ``WebMercator/maximumLatitude`` in [0, 1]; its `MapPoint` divided by the world
    /// size, which is a power of two, so exactly.
    ///
    /// y is clamped into [0, 1], as supercluster clamps it: ``WebMercator/maximumLatitude``
    /// (85.05112878) lies a little north of the world's true edge (85.0511287798...), so a
    /// coordinate clamped to it has a `MapPoint` y of -0.0017, outside `MapRect.world`, and
    /// annotations that far north were in no query's rect.
    static func unitPosition(of coordinate: Coordinate) -> (x: Double, y: Double) {
        let point = MapPoint(coordinate)
        let x = point.x / WebMercator.worldSize
        return (x < 1 ? x : 0, min(1, max(0, point.y / WebMercator.worldSize)))
    }

    /// The coordinate of a unit Web Mercator position, x in [0, 1) and y in [0, 1].
    static func coordinate(x: Double, y: Double) -> Coordinate {
        MapPoint(x: x * WebMercator.worldSize, y: y * WebMercator.worldSize).coordinate
    }
}

// MARK: - Queries

extension ClusterIndex {
    /// The clusters and lone annotations to draw in a region at a zoom level.
    ///
    /// A region crossing the antimeridian gets the items on both sides of it.
    ///
    /// - Parameters:
    ///   - region: The region shown; latitudes beyond ±``WebMercator/maximumLatitude`` are clamped.
    ///   - zoomLevel: The view's zoom level; ``ClusterOptions/zoomLevel(forQuery:)`` picks the
    ///     level of clusters.
    /// - Returns: Each item once, in an order fixed by the index.
    public func items(in region: CoordinateRegion, zoomLevel: Double) -> [ClusterItem] {
        items(in: region.mapRect, zoomLevel: zoomLevel).map(\.item)
    }

    /// The clusters and lone annotations to draw in a map rect at a zoom level, placed in the copy
    /// of the world the rect shows them in.
    ///
    /// A rect crossing the antimeridian or reaching beyond either side of the world gets the items
    /// of every world copy it touches, each copy's with that copy's map points (so an item shows
    /// once per copy). An item is in the rect when it lies on its west or north edge or inside it,
    /// not on its east or south edge (as ``MapRect/contains(_:)-(MapPoint)``), except that the
    /// world's south edge belongs to it: the items of rects that tile an area are the items of the
    /// area, each once. A rect more than 1,024 worlds wide is cut to its first 1,024.
    ///
    /// - Parameters:
    ///   - mapRect: The rect shown; an empty or non-finite rect shows nothing.
    ///   - zoomLevel: The view's zoom level; ``ClusterOptions/zoomLevel(forQuery:)`` picks the
    ///     level of clusters.
    /// - Returns: The items copy by copy from the west, in an order fixed by the index.
    public func items(in mapRect: MapRect, zoomLevel: Double) -> [PlacedClusterItem] {
        guard !mapRect.isEmpty, mapRect.maxX.isFinite, mapRect.maxY.isFinite else { return [] }
        let level = options.zoomLevel(forQuery: zoomLevel) - options.minimumZoom
        let worldSize = WebMercator.worldSize
        let west = mapRect.minX / worldSize
        let east = min(mapRect.maxX / worldSize, west + 1024)
        let north = mapRect.minY / worldSize
        let south = mapRect.maxY >= worldSize ? Double.infinity : mapRect.maxY / worldSize

        var result: [PlacedClusterItem] = []
        // Copies are counted from the first as Doubles: a rect far out (1e300) must not trap in
        // Int(_:). There are at most 1,025 of them.
        let firstCopy = west.rounded(.down)
        for copy in 0..<Int(east.rounded(.up) - firstCopy) {
            let offset = firstCopy + Double(copy)
            let copyWest = max(0, west - offset)
            let copyEast = min(1, east - offset)
            guard copyWest < copyEast else { continue }
            forEachItem(atLevel: level, west: copyWest, east: copyEast, north: north, south: south) { id, x, y in
                result.append(
                    PlacedClusterItem(item: item(id), mapPoint: MapPoint(x: (x + offset) * worldSize, y: y * worldSize))
                )
            }
        }
        return result
    }

    /// The items a cluster breaks into at its ``Cluster/expansionZoom``: clusters and lone
    /// annotations whose counts add up to its own.
    ///
    /// A cluster stays the same, with the same id, at every zoom from `expansionZoom - 1` down to
    /// where it joins a larger cluster, so these are its children one zoom down from the deepest
    /// zoom that shows it.
    ///
    /// - Throws: ``MapCoreError/unknownCluster(id:)`` for an id this index did not make.
    public func children(of id: ClusterID) throws(MapCoreError) -> [ClusterItem] {
        let number = try clusterNumber(id)
        return (Int(childStarts[number])..<Int(childStarts[number + 1])).map { item(children[$0]) }
    }

    /// The input indices a cluster holds, a page at a time, in an order fixed by the index
    /// (depth first through its children).
    ///
    /// For example, `leaves(of: id, limit: .max)` gives all of them, and pages of 10 are
    /// `leaves(of: id, limit: 10, offset: 10 * page)`.
    ///
    /// - Parameters:
    ///   - limit: The most to return; the default is 10. None for `limit` <= 0.
    ///   - offset: How many to skip first; the default is 0. Negative offsets count as 0.
    /// - Throws: ``MapCoreError/unknownCluster(id:)`` for an id this index did not make.
    public func leaves(of id: ClusterID, limit: Int = 10, offset: Int = 0) throws(MapCoreError) -> [Int] {
        let number = try clusterNumber(id)
        var leaves: [Int] = []
        guard limit > 0 else { return leaves }
        var skipped = 0
        appendLeaves(ofCluster: number, limit: limit, offset: max(0, offset), skipped: &skipped, into: &leaves)
        return leaves
    }

    /// The zoom level at which a cluster breaks apart into its ``children(of:)``; the cluster's
    /// ``Cluster/expansionZoom``.
    ///
    /// - Throws: ``MapCoreError/unknownCluster(id:)`` for an id this index did not make.
    public func expansionZoom(of id: ClusterID) throws(MapCoreError) -> Int {
        Int(clusterZooms[try clusterNumber(id)]) + 1
    }

    /// Whether `other` clusters as this index does wherever their inputs agree: the same options,
    /// and every zoom level swept the same way (in one sequential sweep, or in the same stripes
    /// of grid rows, see `ClusterBuilder`).
    ///
    /// Between two such indices over inputs in the same relative order, a change of inputs (one
    /// added, removed or moved) changes clusters only as far from it as chains of items within
    /// the cluster radius of one another lead, zoom by zoom: what lets a tile cache invalidate
    /// only the tiles near a change. Indices swept differently may differ along every stripe edge
    /// of the world. Levels of 65,536 items or more are swept in stripes, so indices with the same
    /// options over fewer inputs always sweep alike.
    public func sweepsAlike(_ other: ClusterIndex) -> Bool {
        guard options == other.options, levels.count == other.levels.count else { return false }
        return levels.indices.allSatisfy { level in
            ClusterStripes.isStriped(itemCount: levels[level].count, grid: grids[level])
                == ClusterStripes.isStriped(itemCount: other.levels[level].count, grid: other.grids[level])
        }
    }

    // MARK: - Reading the arrays

    private func clusterNumber(_ id: ClusterID) throws(MapCoreError) -> Int {
        guard (0..<clusterCounts.count).contains(id.rawValue) else { throw .unknownCluster(id: id.rawValue) }
        return id.rawValue
    }

    /// The item with an item id: inputs first, then clusters.
    private func item(_ id: Int32) -> ClusterItem {
        let id = Int(id)
        guard id >= coordinates.count else { return .point(index: id, coordinate: coordinates[id]) }
        let number = id - coordinates.count
        return .cluster(
            Cluster(
                id: ClusterID(rawValue: number),
                coordinate: ClusterIndex.coordinate(x: positions[2 * id], y: positions[2 * id + 1]),
                count: Int(clusterCounts[number]),
                expansionZoom: Int(clusterZooms[number]) + 1,
                clusteringIdentifier: identifiers[Int(clusterIdentifiers[number])]
            ))
    }

    private func appendLeaves(
        ofCluster number: Int, limit: Int, offset: Int, skipped: inout Int, into leaves: inout [Int]
    ) {
        for child in children[Int(childStarts[number])..<Int(childStarts[number + 1])] {
            guard leaves.count < limit else { return }
            let id = Int(child)
            if id < coordinates.count {
                if skipped < offset { skipped += 1 } else { leaves.append(id) }
            } else {
                let childNumber = id - coordinates.count
                let count = Int(clusterCounts[childNumber])
                if skipped + count <= offset {
                    skipped += count
                } else {
                    appendLeaves(ofCluster: childNumber, limit: limit, offset: offset, skipped: &skipped, into: &leaves)
                }
            }
        }
    }

    /// Calls `body` with the id and unit position of every item of a level in a unit rect,
    /// west and north edges in, east and south edges out; `east` is at most 1.
    ///
    /// The level is sorted by cell, row by row, so each row of cells the rect covers is one run of
    /// it, found by binary search; rows with no items in the rect's columns are skipped at once.
    private func forEachItem(
        atLevel level: Int,
        west: Double,
        east: Double,
        north: Double,
        south: Double,
        _ body: (_ id: Int32, _ x: Double, _ y: Double) -> Void
    ) {
        let grid = grids[level]
        let firstColumn = grid.column(west)
        let lastColumn = grid.column(east)
        var row = grid.row(north)
        let lastRow = grid.row(min(south, 1))
        levels[level].withUnsafeBufferPointer { ids in
            positions.withUnsafeBufferPointer { positions in
                let count = ids.count
                func key(at index: Int) -> UInt64 {
                    let id = Int(ids[index])
                    return grid.key(x: positions[2 * id], y: positions[2 * id + 1])
                }
                var start = 0
                while row <= lastRow {
                    let firstKey = grid.key(row: row, column: firstColumn)
                    let lastKey = grid.key(row: row, column: lastColumn)
                    var low = start
                    var high = count
                    while low < high {
                        let middle = (low + high) / 2
                        if key(at: middle) < firstKey { low = middle + 1 } else { high = middle }
                    }
                    var index = low
                    var nextKey: UInt64 = 0
                    while index < count {
                        nextKey = key(at: index)
                        guard nextKey <= lastKey else { break }
                        let id = ids[index]
                        let x = positions[2 * Int(id)]
                        let y = positions[2 * Int(id) + 1]
                        if x >= west, x < east, y >= north, y < south { body(id, x, y) }
                        index += 1
                    }
                    guard index < count else { return }
                    start = index
                    row = max(row + 1, grid.row(ofKey: nextKey))
                }
            }
        }
    }
}
