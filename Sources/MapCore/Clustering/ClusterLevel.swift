import Foundation

/// The items of one zoom level while an index is built, in parallel arrays: item ids (inputs
/// first, then clusters), unit Web Mercator positions, weights (annotation counts) and interned
/// clustering identifiers (-1 for none).
struct ClusterLevel {
    var ids: [Int32] = []
    var x: [Double] = []
    var y: [Double] = []
    var weights: [Int32] = []
    var identifiers: [Int32] = []

    init(reservingCapacity capacity: Int) {
        ids.reserveCapacity(capacity)
        x.reserveCapacity(capacity)
        y.reserveCapacity(capacity)
        weights.reserveCapacity(capacity)
        identifiers.reserveCapacity(capacity)
    }

    init(ids: [Int32], x: [Double], y: [Double], weights: [Int32], identifiers: [Int32]) {
        self.ids = ids
        self.x = x
        self.y = y
        self.weights = weights
        self.identifiers = identifiers
    }

    var count: Int { ids.count }

    mutating func append(id: Int32, x: Double, y: Double, weight: Int32, identifier: Int32) {
        ids.append(id)
        self.x.append(x)
        self.y.append(y)
        weights.append(weight)
        identifiers.append(identifier)
    }

    /// Appends item `index` of `other`.
    mutating func append(_ other: Buffers, at index: Int) {
        append(
            id: other.ids[index], x: other.x[index], y: other.y[index], weight: other.weights[index],
            identifier: other.identifiers[index])
    }

    /// Read-only views of a level's arrays, for the sweep's inner loops.
    struct Buffers {
        let ids: UnsafeBufferPointer<Int32>
        let x: UnsafeBufferPointer<Double>
        let y: UnsafeBufferPointer<Double>
        let weights: UnsafeBufferPointer<Int32>
        let identifiers: UnsafeBufferPointer<Int32>
    }

    /// Calls `body` with views of the level's arrays, valid for the call.
    func withBuffers<Result>(_ body: (Buffers) -> Result) -> Result {
        ids.withUnsafeBufferPointer { ids in
            x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in
                    weights.withUnsafeBufferPointer { weights in
                        identifiers.withUnsafeBufferPointer { identifiers in
                            body(Buffers(ids: ids, x: x, y: y, weights: weights, identifiers: identifiers))
                        }
                    }
                }
            }
        }
    }

    /// The items of `segments`, taken in order as one level, sorted by the key of their cell in
    /// `grid` (stably: items of one cell keep their order), with the keys.
    ///
    /// A level swept in stripes comes as one segment per stripe: sorting them together saves
    /// joining them into one level first. `scratch` is the sort's (see ``radixSort(keys:values:scratch:)``).
    static func sorted(
        _ segments: [ClusterLevel], by grid: ClusterGrid, scratch: inout RadixSortScratch
    ) -> (level: ClusterLevel, keys: [UInt64]) {
        var starts = [0]
        for segment in segments { starts.append(starts.last! + segment.count) }
        let count = starts.last!
        precondition(count < Int(Int32.max), "a cluster level holds fewer than 2^31 items")
        let xs = segments.map(\.x)
        let ys = segments.map(\.y)
        let segmentStarts = starts
        var keys = [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
            let keys = SharedBuffer(buffer)
            forEachChunk(count: count) { _, range in
                // The segments overlapping the chunk, each over its part of the chunk.
                var segment = segmentStarts.lastIndex { $0 <= range.lowerBound }!
                var index = range.lowerBound
                while index < range.upperBound {
                    while segmentStarts[segment + 1] <= index { segment += 1 }
                    let end = min(range.upperBound, segmentStarts[segment + 1])
                    let start = segmentStarts[segment]
                    xs[segment].withUnsafeBufferPointer { x in
                        ys[segment].withUnsafeBufferPointer { y in
                            for item in index..<end { keys[item] = grid.key(x: x[item - start], y: y[item - start]) }
                        }
                    }
                    index = end
                }
            }
            initialized = count
        }
        var order = [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count { buffer[index] = Int32(index) }
            initialized = count
        }
        radixSort(keys: &keys, values: &order, scratch: &scratch)
        let sortedOrder = order
        if segments.count == 1 {
            let level = segments[0]
            let sorted = ClusterLevel(
                ids: order.gathering(level.ids),
                x: order.gathering(level.x),
                y: order.gathering(level.y),
                weights: order.gathering(level.weights),
                identifiers: order.gathering(level.identifiers)
            )
            return (sorted, keys)
        }
        // Each item's segment, by its index.
        precondition(segments.count <= 256, "at most 256 segments")
        let segmentOfItem = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for number in segments.indices {
                buffer.baseAddress!.advanced(by: starts[number]).initialize(
                    repeating: UInt8(number), count: segments[number].count)
            }
            initialized = count
        }
        func gathering<T: Sendable>(_ field: (ClusterLevel) -> [T]) -> [T] {
            let sources = segments.map(field)
            return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                let target = SharedBuffer(buffer)
                // Views of the segments' arrays, only read, kept alive by `sources` for the call.
                let views = sources.map { source in
                    SharedBuffer(UnsafeMutableBufferPointer(mutating: source.withUnsafeBufferPointer { $0 }))
                }
                forEachChunk(count: count) { _, range in
                    for index in range {
                        let item = Int(sortedOrder[index])
                        let segment = Int(segmentOfItem[item])
                        (target.base + index).initialize(to: views[segment][item - segmentStarts[segment]])
                    }
                }
                withExtendedLifetime(sources) {}
                initialized = count
            }
        }
        let sorted = ClusterLevel(
            ids: gathering(\.ids), x: gathering(\.x), y: gathering(\.y),
            weights: gathering(\.weights), identifiers: gathering(\.identifiers)
        )
        return (sorted, keys)
    }
}

extension Array where Element == Int32 {
    /// `source` permuted by this array of indices into it: element i is `source[self[i]]`.
    func gathering<T: Sendable>(_ source: [T]) -> [T] {
        let count = self.count
        let order = self
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            let target = SharedBuffer(buffer)
            forEachChunk(count: count) { _, range in
                for index in range { (target.base + index).initialize(to: source[Int(order[index])]) }
            }
            initialized = count
        }
    }
}
