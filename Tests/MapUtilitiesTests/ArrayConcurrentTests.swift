import MapUtilities
import Synchronization
import Testing

struct ArrayConcurrentTests {
    @Test func everyIndexIsComputedOnceInOrder() {
        let calls = Mutex<[Int]>([])
        let squares = [Int](concurrentlyComputing: 1_000) { index in
            calls.withLock { $0.append(index) }
            return index * index
        }
        #expect(squares == (0..<1_000).map { $0 * $0 })
        #expect(calls.withLock { $0.sorted() } == Array(0..<1_000))
    }

    @Test func noneAndOneNeedNoThreads() {
        #expect([String](concurrentlyComputing: 0) { "\($0)" } == [])
        #expect([String](concurrentlyComputing: 1) { "\($0)" } == ["0"])
    }

    @Test func nestedArraysAreComputedAsOneFlatListInTheirShape() {
        let counts = [3, 0, 1, 500, 2]
        let calls = Mutex<Int>(0)
        let pairs = [[String]](concurrentlyComputing: counts) { outer, inner in
            calls.withLock { $0 += 1 }
            return "\(outer).\(inner)"
        }
        #expect(pairs == counts.enumerated().map { outer, count in (0..<count).map { "\(outer).\($0)" } })
        #expect(calls.withLock { $0 } == 506)
        #expect([[Int]](concurrentlyComputing: []) { $0 + $1 } == [])
    }
}
