import Foundation

/// Builds the levels of a ``ClusterIndex``, from the inputs at `maximumZoom + 1` up to
/// `minimumZoom`, by supercluster's hierarchical greedy clustering.
///
/// At each zoom the previous (deeper) level's items are sorted by the cells of a grid at least one
/// cluster radius wide, then swept in that order: an item not yet taken gathers every untaken item
/// of its identifier within the radius (across the antimeridian too) from its cell and the eight
/// around it. When their annotations number at least `minimumPoints` they become one cluster at
/// their weighted centre; otherwise they all stay as they are. Untaken items pass up unchanged,
/// keeping their ids.
///
/// Large levels (``ClusterStripes``) are swept in horizontal stripes of grid rows on every core:
/// the even stripes first, then the odd ones, so that no two threads touch the same items. The
/// stripes depend only on the level and the grid, never on the number of cores, so the clusters
/// and their ids are the same on every machine.
struct ClusterBuilder {
    let options: ClusterOptions
    let inputCount: Int
    /// Unit Web Mercator x, y of every item, interleaved: inputs first, then clusters by id.
    var positions: [Double]
    var clusterCounts: [Int32] = []
    var clusterZooms: [UInt8] = []
    var clusterIdentifiers: [Int32] = []
    /// Where each cluster's children start in `children`; one more entry than clusters.
    var childStarts: [Int32] = [0]
    var children: [Int32] = []
    /// Each zoom's item ids sorted by cell, from `minimumZoom` to `maximumZoom + 1`.
    var levels: [[Int32]]
    /// The grid each level is sorted by.
    var grids: [ClusterGrid]

    /// Builds every level from the inputs' level.
    init(inputs: ClusterLevel, positions: [Double], options: ClusterOptions) {
        self.options = options
        inputCount = inputs.count
        self.positions = positions
        let levelCount = options.maximumZoom + 2 - options.minimumZoom
        levels = Array(repeating: [], count: levelCount)
        grids = (options.minimumZoom...options.maximumZoom + 1).map { zoom in
            // Cells at least the cluster radius one zoom out wide.
            ClusterGrid(cellWidthAtLeast: options.radiusWorldFraction(atZoom: zoom - 1))
        }

        // Items without an identifier never cluster: with no others, every level holds the
        // inputs, and the sweeps are left out.
        let anyClusterable = inputs.identifiers.contains { $0 >= 0 }
        // The level being built, in segments (one per stripe of the sweep that made it).
        var segments = [inputs]
        var scratch = RadixSortScratch()
        for zoom in (options.minimumZoom...options.maximumZoom + 1).reversed() {
            let grid = grids[zoom - options.minimumZoom]
            let (sorted, keys) = ClusterLevel.sorted(segments, by: grid, scratch: &scratch)
            // The unsorted level is not needed any more: let it go before the next one is made.
            segments = []
            levels[zoom - options.minimumZoom] = sorted.ids
            guard zoom > options.minimumZoom else { break }
            segments = anyClusterable ? cluster(sorted, keys: keys, grid: grid, zoom: zoom - 1) : [sorted]
        }
        self.positions.shrinkToFit()
        children.shrinkToFit()
    }

    /// Clusters a level's items, sorted by `grid` with their `keys`, at `zoom`: one sweep per
    /// stripe. Returns the next level as the stripes' parts, in stripe order.
    private mutating func cluster(_ level: ClusterLevel, keys: [UInt64], grid: ClusterGrid, zoom: Int) -> [ClusterLevel]
    {
        let stripes = ClusterStripes(keys: keys, grid: grid)
        let radius = options.radiusWorldFraction(atZoom: zoom)
        let minimumPoints = options.minimumPoints
        var results = [ClusterSweep.Result?](repeating: nil, count: stripes.count)
        level.withBuffers { items in
            keys.withUnsafeBufferPointer { keys in
                let taken = UnsafeMutableBufferPointer<Bool>.allocate(capacity: keys.count)
                taken.initialize(repeating: false)
                defer { taken.deallocate() }
                let sweep = ClusterSweep(
                    items: items, keys: keys, taken: SharedBuffer(taken), grid: grid,
                    radius: radius, minimumPoints: minimumPoints
                )
                results.withUnsafeMutableBufferPointer { buffer in
                    let results = SharedBuffer(buffer)
                    // Even stripes, then odd: a stripe touches only its own rows and the row on
                    // either side, and stripes are at least two rows tall.
                    for parity in 0..<min(2, stripes.count) {
                        let numbers = Array(stride(from: parity, to: stripes.count, by: 2))
                        performChunks(numbers.count) { chunk in
                            let stripe = numbers[chunk]
                            results[stripe] = sweep.run(
                                items: stripes.itemRanges[stripe], rows: stripes.rowRanges[stripe])
                        }
                    }
                }
            }
        }
        return record(results.map { $0! }, zoom: zoom)
    }

    /// Records the clusters the stripes made, giving them ids in stripe order, and returns the
    /// stripes' parts of the next level with those ids.
    private mutating func record(_ results: [ClusterSweep.Result], zoom: Int) -> [ClusterLevel] {
        var firstIDs: [Int32] = []
        for result in results {
            firstIDs.append(Int32(inputCount + clusterCounts.count))
            positions.append(contentsOf: result.positions)
            clusterCounts.append(contentsOf: result.counts)
            clusterZooms.append(contentsOf: repeatElement(UInt8(zoom), count: result.counts.count))
            clusterIdentifiers.append(contentsOf: result.identifiers)
            for end in result.childEnds { childStarts.append(Int32(children.count) + end) }
            children.append(contentsOf: result.children)
        }
        // A new cluster is -(its number in the stripe + 1) until now.
        let firstIDsOfStripes = firstIDs
        var parts = results.map(\.next)
        parts.withUnsafeMutableBufferPointer { parts in
            let shared = SharedBuffer(parts)
            performChunks(min(parts.count, processorCount)) { chunk in
                for stripe in stride(from: chunk, to: firstIDsOfStripes.count, by: processorCount) {
                    let firstID = firstIDsOfStripes[stripe]
                    shared.base[stripe].ids.withUnsafeMutableBufferPointer { ids in
                        for index in ids.indices where ids[index] < 0 { ids[index] = firstID - ids[index] - 1 }
                    }
                }
            }
        }
        return parts
    }
}

/// The horizontal stripes of grid rows a level is swept in: one for levels of fewer than
/// 65,536 items or grids of fewer than 64 rows (the sweep is then exactly sequential), else 64
/// (or fewer when the grid is shorter) of equal height, at least two rows each.
struct ClusterStripes {
    /// Each stripe's rows of the grid, north first.
    var rowRanges: [Range<Int>]
    /// Each stripe's items: a run of the sorted level.
    var itemRanges: [Range<Int>]

    var count: Int { rowRanges.count }

    /// Whether a level of `itemCount` items sorted by `grid` is swept in stripes (64 of them)
    /// rather than in one sequential sweep.
    static func isStriped(itemCount: Int, grid: ClusterGrid) -> Bool {
        itemCount >= 65_536 && grid.cellsPerSide >= 64
    }

    init(keys: [UInt64], grid: ClusterGrid) {
        let side = grid.cellsPerSide
        guard ClusterStripes.isStriped(itemCount: keys.count, grid: grid) else {
            rowRanges = [0..<side]
            itemRanges = [0..<keys.count]
            return
        }
        let stripeCount = 64
        let rowsPerStripe = side / stripeCount
        let rowRanges = (0..<stripeCount).map { stripe in
            (stripe * rowsPerStripe)..<(stripe == stripeCount - 1 ? side : (stripe + 1) * rowsPerStripe)
        }
        self.rowRanges = rowRanges
        itemRanges = keys.withUnsafeBufferPointer { keys in
            let starts = rowRanges.map { keys.lowerBound(of: grid.key(row: $0.lowerBound, column: 0)) } + [keys.count]
            return (0..<stripeCount).map { starts[$0]..<starts[$0 + 1] }
        }
    }
}

/// One zoom's sweep over a sorted level (see ``ClusterBuilder``), run stripe by stripe.
///
/// It is `@unchecked Sendable` because stripes run concurrently over the shared `taken` flags:
/// ``ClusterBuilder`` runs at once only stripes two or more rows apart, and a stripe reads and
/// writes the flags of its own rows and the row on either side only.
struct ClusterSweep: @unchecked Sendable {
    let items: ClusterLevel.Buffers
    let keys: UnsafeBufferPointer<UInt64>
    let taken: SharedBuffer<Bool>
    let grid: ClusterGrid
    let radius: Double
    let minimumPoints: Int

    /// What a stripe's sweep makes: the items it passes up and the clusters it makes, in sweep
    /// order. A new cluster's id in `next` is -(its number here + 1).
    struct Result {
        var next = ClusterLevel(reservingCapacity: 0)
        /// Per new cluster: x, y interleaved; annotation count; identifier; where its children
        /// end in `children`.
        var positions: [Double] = []
        var counts: [Int32] = []
        var identifiers: [Int32] = []
        var childEnds: [Int32] = []
        var children: [Int32] = []
    }

    /// Sweeps the items in `itemRanges` (the items of grid rows `rows`) in key order.
    func run(items range: Range<Int>, rows: Range<Int>) -> Result {
        var result = Result()
        result.next = ClusterLevel(reservingCapacity: range.count)
        let count = keys.count
        let radiusSquared = radius * radius
        let side = grid.cellsPerSide
        var candidates: [Int] = []
        // For the rows above, at and below the current item: the first item at or after the
        // column west of it. They only move forward, as the sweep does.
        let firstAbove = keys.lowerBound(of: grid.key(row: max(0, rows.lowerBound - 1), column: 0))
        var rowStarts = (above: firstAbove, at: firstAbove, below: firstAbove)

        for index in range where !taken[index] {
            taken[index] = true
            let identifier = items.identifiers[index]
            guard identifier >= 0 else {
                result.next.append(items, at: index)
                continue
            }
            let x = items.x[index]
            let y = items.y[index]
            let row = grid.row(ofKey: keys[index])
            let column = grid.column(ofKey: keys[index])
            var total = Int(items.weights[index])
            candidates.removeAll(keepingCapacity: true)

            /// Adds the untaken items of this identifier within the radius, from `start` through
            /// the last item with key `lastKey`.
            func gather(from start: Int, through lastKey: UInt64) {
                var other = start
                while other < count, keys[other] <= lastKey {
                    if !taken[other], items.identifiers[other] == identifier {
                        var dx = abs(items.x[other] - x)
                        if dx > 0.5 { dx = 1 - dx }
                        let dy = items.y[other] - y
                        if dx * dx + dy * dy <= radiusSquared {
                            candidates.append(other)
                            total += Int(items.weights[other])
                        }
                    }
                    other += 1
                }
            }

            /// Gathers from one row of cells, `rowStart` being its forward-only pointer.
            func gather(row neighbourRow: Int, rowStart: inout Int) {
                guard neighbourRow >= 0, neighbourRow < side else { return }
                if side <= 3 {
                    // So few columns that the whole row neighbours the item, across the antimeridian.
                    let first = grid.key(row: neighbourRow, column: 0)
                    gather(from: keys.lowerBound(of: first), through: grid.key(row: neighbourRow, column: side - 1))
                    return
                }
                let first = grid.key(row: neighbourRow, column: max(0, column - 1))
                while rowStart < count, keys[rowStart] < first { rowStart += 1 }
                gather(from: rowStart, through: grid.key(row: neighbourRow, column: min(side - 1, column + 1)))
                // The column on the other side of the antimeridian.
                if column == 0 || column == side - 1 {
                    let wrapped = grid.key(row: neighbourRow, column: column == 0 ? side - 1 : 0)
                    gather(from: keys.lowerBound(of: wrapped), through: wrapped)
                }
            }

            gather(row: row - 1, rowStart: &rowStarts.above)
            gather(row: row, rowStart: &rowStarts.at)
            gather(row: row + 1, rowStart: &rowStarts.below)

            // A cluster that gathers nothing stays itself, keeping its id (supercluster would wrap
            // it in a new cluster of one child).
            if !candidates.isEmpty, total >= minimumPoints {
                var weight = Double(items.weights[index])
                var sumX = x * weight
                var sumY = y * weight
                result.children.append(items.ids[index])
                for other in candidates {
                    taken[other] = true
                    weight = Double(items.weights[other])
                    // Measured from this item the short way round, across the antimeridian if need be.
                    var otherX = items.x[other]
                    if otherX - x > 0.5 { otherX -= 1 } else if otherX - x < -0.5 { otherX += 1 }
                    sumX += otherX * weight
                    sumY += items.y[other] * weight
                    result.children.append(items.ids[other])
                }
                let centerX = wrappedUnit(sumX / Double(total))
                let centerY = sumY / Double(total)
                let placeholderID = -Int32(result.counts.count) - 1
                result.positions.append(centerX)
                result.positions.append(centerY)
                result.counts.append(Int32(total))
                result.identifiers.append(identifier)
                result.childEnds.append(Int32(result.children.count))
                result.next.append(
                    id: placeholderID, x: centerX, y: centerY, weight: Int32(total), identifier: identifier)
            } else {
                result.next.append(items, at: index)
                for other in candidates {
                    taken[other] = true
                    result.next.append(items, at: other)
                }
            }
        }
        return result
    }
}

/// A unit x wrapped into [0, 1).
func wrappedUnit(_ x: Double) -> Double {
    let wrapped = x - x.rounded(.down)
    return wrapped < 1 ? wrapped : 0
}

extension UnsafeBufferPointer where Element == UInt64 {
    /// The index of the first element not less than `key`, in this sorted buffer.
    func lowerBound(of key: UInt64) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension Array {
    /// Drops spare capacity left by appending, copying the elements into a buffer of their size.
    mutating func shrinkToFit() {
        guard capacity > count else { return }
        self = withUnsafeBufferPointer { Array($0) }
    }
}
