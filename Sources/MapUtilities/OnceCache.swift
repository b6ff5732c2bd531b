import Synchronization

/// Values made at most once per key, by whichever thread asks first, and kept: other threads
/// asking for the same key wait for it, threads asking for other keys go on. What a render
/// shares between its threads (a tile zoom's label placement, a layer prepared for a zoom, the
/// features the bands of one image share).
///
/// Values stay until ``removeAll()``; a value that failed to be made is asked for again next time.
public final class OnceCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private final class Entry: Sendable {
        let value = Mutex<Value?>(nil)
    }

    private let entries = Mutex<[Key: Entry]>([:])

    /// An empty cache.
    public init() {}

    /// The value under `key`, made by `make` on first use.
    public func value<Failure: Error>(for key: Key, make: () throws(Failure) -> Value) throws(Failure) -> Value {
        let entry = entries.withLock { entries in
            if let entry = entries[key] { return entry }
            let entry = Entry()
            entries[key] = entry
            return entry
        }
        return try entry.value.withLock { (value) throws(Failure) -> Value in
            if let value { return value }
            let made = try make()
            value = made
            return made
        }
    }

    /// The value under `key` if it was made, without making it.
    public func existingValue(for key: Key) -> Value? {
        entries.withLock { $0[key] }.flatMap { entry in entry.value.withLock { $0 } }
    }

    /// The number of values made and held.
    public var count: Int {
        entries.withLock { entries in entries.values.filter { $0.value.withLock { $0 != nil } }.count }
    }

    /// Forgets every value.
    public func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
