import MapUtilities
import Synchronization
import Testing

/// Values made once per key; with a cost bound, the least recently asked for are forgotten.
@Suite struct OnceCacheTests {
    @Test func aValueIsMadeOnceAndKept() {
        let cache = OnceCache<Int, String>()
        let made = Mutex(0)
        for _ in 0..<3 {
            #expect(
                cache.value(for: 1) {
                    made.withLock { $0 += 1 }
                    return "one"
                } == "one")
        }
        #expect(made.withLock { $0 } == 1 && cache.count == 1 && cache.totalCost == 0)
    }

    @Test func beyondItsCostTheLeastRecentlyAskedForGo() {
        let cache = OnceCache<Int, [UInt8]>(maximumCost: 100) { $0.count }
        _ = cache.value(for: 1) { [UInt8](repeating: 1, count: 40) }
        _ = cache.value(for: 2) { [UInt8](repeating: 2, count: 40) }
        _ = cache.value(for: 1) {
            Issue.record("1 is kept")
            return []
        }  // 1 is now the more recent
        _ = cache.value(for: 3) { [UInt8](repeating: 3, count: 40) }  // 120 > 100: 2 goes
        #expect(cache.existingValue(for: 2) == nil)
        #expect(cache.existingValue(for: 1)?.count == 40 && cache.existingValue(for: 3)?.count == 40)
        #expect(cache.totalCost == 80 && cache.count == 2)
        // Forgotten, it is made again when asked for.
        #expect(cache.value(for: 2) { [9] } == [9])
    }

    @Test func oneValueDearerThanTheBoundIsStillKept() {
        let cache = OnceCache<Int, [UInt8]>(maximumCost: 10) { $0.count }
        _ = cache.value(for: 1) { [UInt8](repeating: 1, count: 4) }
        _ = cache.value(for: 2) { [UInt8](repeating: 2, count: 50) }
        #expect(cache.existingValue(for: 1) == nil && cache.existingValue(for: 2)?.count == 50)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }
}
