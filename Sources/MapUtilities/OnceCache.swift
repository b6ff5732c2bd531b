import Dispatch
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
        /// The value, once made.
        let value = Mutex<Value?>(nil)
        /// Whether a thread is making the value now.
        let making = Mutex(false)
        /// Entered by the thread making the value and left when it is done: the threads asking
        /// meanwhile wait on it asleep (a thread blocked on a lock held through the making spun
        /// in the kernel while the maker ran, taking a core from other work).
        let done = DispatchGroup()
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
        while true {
            if let value = entry.value.withLock({ $0 }) { return value }
            let claimed = entry.making.withLock { making in
                if making { return false }
                making = true
                entry.done.enter()
                return true
            }
            guard claimed else {
                // Made (or failed, and then asked for again) by the thread making it.
                entry.done.wait()
                continue
            }
            defer {
                entry.making.withLock { $0 = false }
                entry.done.leave()
            }
            // Made by another thread between the look and the claim.
            if let value = entry.value.withLock({ $0 }) { return value }
            let made = try make()
            entry.value.withLock { $0 = made }
            if let maximumCost { keep(key, entry: entry, cost: cost(made), maximumCost: maximumCost) }
            return made
        }
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
