import Synchronization

/// Values made at most once per key, by whichever thread asks first, and kept: other threads
/// asking for the same key wait for it, threads asking for other keys go on. What a render
/// shares between its threads (a region's label placement, a layer prepared for a zoom, the
/// features the bands of one image share).
///
/// Unbounded by default: values stay until ``removeAll()``. Given a ``maximumCost``, the values
/// least recently asked for are forgotten once the made values' summed cost passes it (the
/// value just made is always kept, so one value may cost more than the bound); a forgotten value
/// is made again when next asked for. A value that failed to be made is asked for again next time.
public final class OnceCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private final class Entry: Sendable {
        let value = Mutex<Value?>(nil)
    }

    private struct Kept {
        var entries: [Key: Entry] = [:]
        /// For made values: when each was last asked for, and its cost.
        var uses: [Key: (stamp: UInt64, cost: Int)] = [:]
        var clock: UInt64 = 0
        var totalCost = 0
    }

    private let kept = Mutex(Kept())
    /// The most summed cost of values kept; nil keeps every value.
    public let maximumCost: Int?
    private let cost: @Sendable (Value) -> Int

    /// An empty cache keeping every value.
    public init() {
        maximumCost = nil
        cost = { _ in 0 }
    }

    /// An empty cache keeping values up to a summed cost, forgetting the least recently asked
    /// for beyond it.
    ///
    /// - Parameters:
    ///   - maximumCost: The most summed cost kept, e.g. bytes.
    ///   - cost: A value's cost, asked once when it is made.
    public init(maximumCost: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.maximumCost = maximumCost
        self.cost = cost
    }

    /// The value under `key`, made by `make` on first use (or after it was forgotten).
    public func value<Failure: Error>(for key: Key, make: () throws(Failure) -> Value) throws(Failure) -> Value {
        let entry = kept.withLock { kept in
            kept.clock += 1
            if let entry = kept.entries[key] {
                if let use = kept.uses[key] { kept.uses[key] = (kept.clock, use.cost) }
                return entry
            }
            let entry = Entry()
            kept.entries[key] = entry
            return entry
        }
        var madeCost: Int?
        let value = try entry.value.withLock { (value) throws(Failure) -> Value in
            if let value { return value }
            let made = try make()
            value = made
            if maximumCost != nil { madeCost = cost(made) }
            return made
        }
        if let madeCost, let maximumCost { keep(key, entry: entry, cost: madeCost, maximumCost: maximumCost) }
        return value
    }

    /// Counts a value just made and forgets the least recently asked for beyond `maximumCost`.
    private func keep(_ key: Key, entry: Entry, cost: Int, maximumCost: Int) {
        kept.withLock { kept in
            // Forgotten (removeAll) while it was being made: not counted.
            guard kept.entries[key] === entry else { return }
            kept.clock += 1
            kept.uses[key] = (kept.clock, cost)
            kept.totalCost += cost
            while kept.totalCost > maximumCost, kept.uses.count > 1 {
                guard let oldest = kept.uses.filter({ $0.key != key }).min(by: { $0.value.stamp < $1.value.stamp })
                else { break }
                kept.uses[oldest.key] = nil
                kept.entries[oldest.key] = nil
                kept.totalCost -= oldest.value.cost
            }
        }
    }

    /// The value under `key` if it was made and is kept, without making it.
    public func existingValue(for key: Key) -> Value? {
        kept.withLock { $0.entries[key] }.flatMap { entry in entry.value.withLock { $0 } }
    }

    /// The number of values made and kept.
    public var count: Int {
        kept.withLock { kept in kept.entries.values.filter { $0.value.withLock { $0 != nil } }.count }
    }

    /// The summed cost of the values kept (0 without a ``maximumCost``).
    public var totalCost: Int {
        kept.withLock { $0.totalCost }
    }

    /// Forgets every value.
    public func removeAll() {
        kept.withLock { $0 = Kept() }
    }
}
