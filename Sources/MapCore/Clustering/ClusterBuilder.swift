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

        var level = inputs
        for zoom in (options.minimumZoom...options.maximumZoom + 1).reversed() {
            let grid = grids[zoom - options.minimumZoom]
            let (sorted, keys) = level.sorted(by: grid)
            levels[zoom - options.minimumZoom] = sorted.ids
            guard zoom > options.minimumZoom else { break }
            level = cluster(sorted, keys: keys, grid: grid, zoom: zoom - 1)
        }
        self.positions.shrinkToFit()
        children.shrinkToFit()
    }

    /// Clusters a level's items, sorted by `grid` with their `keys`, at `zoom`: one sweep.
    private mutating func cluster(_ level: ClusterLevel, keys: [UInt64], grid: ClusterGrid, zoom: Int) -> ClusterLevel {
        var next = ClusterLevel(reservingCapacity: level.count)
        level.withBuffers { items in
            keys.withUnsafeBufferPointer { keys in
                let taken = UnsafeMutableBufferPointer<Bool>.allocate(capacity: keys.count)
                taken.initialize(repeating: false)
                defer { taken.deallocate() }
                sweep(items, keys: keys, taken: taken, grid: grid, zoom: zoom, into: &next)
            }
        }
        return next
    }

    /// The sweep of ``cluster(_:keys:grid:zoom:)``: visits the items in key order, appending to
    /// `next` the items that stay and the clusters made.
    private mutating func sweep(
        _ items: ClusterLevel.Buffers,
        keys: UnsafeBufferPointer<UInt64>,
        taken: UnsafeMutableBufferPointer<Bool>,
        grid: ClusterGrid,
        zoom: Int,
        into next: inout ClusterLevel
    ) {
        let count = keys.count
        let radius = options.radiusWorldFraction(atZoom: zoom)
        let radiusSquared = radius * radius
        let side = grid.cellsPerSide
        var candidates: [Int] = []
        // For the rows above, at and below the current item: the first item at or after the
        // column west of it. They only move forward, as the sweep does.
        var rowStarts = (above: 0, at: 0, below: 0)

        for index in 0..<count where !taken[index] {
            taken[index] = true
            let identifier = items.identifiers[index]
            guard identifier >= 0 else {
                next.append(items, at: index)
                continue
            }
            let x = items.x[index], y = items.y[index]
            let row = grid.row(ofKey: keys[index]), column = grid.column(ofKey: keys[index])
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
            if !candidates.isEmpty, total >= options.minimumPoints {
                let id = Int32(inputCount + clusterCounts.count)
                var weight = Double(items.weights[index])
                var sumX = x * weight, sumY = y * weight
                children.append(items.ids[index])
                for other in candidates {
                    taken[other] = true
                    weight = Double(items.weights[other])
                    // Measured from this item the short way round, across the antimeridian if need be.
                    var otherX = items.x[other]
                    if otherX - x > 0.5 { otherX -= 1 } else if otherX - x < -0.5 { otherX += 1 }
                    sumX += otherX * weight
                    sumY += items.y[other] * weight
                    children.append(items.ids[other])
                }
                let centerX = wrappedUnit(sumX / Double(total)), centerY = sumY / Double(total)
                positions.append(centerX)
                positions.append(centerY)
                clusterCounts.append(Int32(total))
                clusterZooms.append(UInt8(zoom))
                clusterIdentifiers.append(identifier)
                childStarts.append(Int32(children.count))
                next.append(id: id, x: centerX, y: centerY, weight: Int32(total), identifier: identifier)
            } else {
                next.append(items, at: index)
                for other in candidates {
                    taken[other] = true
                    next.append(items, at: other)
                }
            }
        }
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
        var low = 0, high = count
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
