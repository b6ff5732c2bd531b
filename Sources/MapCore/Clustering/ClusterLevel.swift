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
        append(id: other.ids[index], x: other.x[index], y: other.y[index], weight: other.weights[index],
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

    /// The items sorted by the key of their cell in `grid` (stably: items of one cell keep their
    /// order), with the keys.
    func sorted(by grid: ClusterGrid) -> (level: ClusterLevel, keys: [UInt64]) {
        let count = self.count
        let x = self.x, y = self.y
        var keys = [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
            let keys = SharedBuffer(buffer)
            forEachChunk(count: count) { _, range in
                for index in range { keys[index] = grid.key(x: x[index], y: y[index]) }
            }
            initialized = count
        }
        var order = [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count { buffer[index] = Int32(index) }
            initialized = count
        }
        radixSort(keys: &keys, values: &order)
        let sorted = ClusterLevel(
            ids: order.gathering(ids),
            x: order.gathering(x),
            y: order.gathering(y),
            weights: order.gathering(weights),
            identifiers: order.gathering(identifiers)
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
