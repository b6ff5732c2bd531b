import Dispatch
import Foundation
import Synchronization
import Testing

@testable import MapServer

/// The render pool on its own: single flight, dropping work nobody waits for, the queue bound,
/// lanes (tiles before images before background work, none starving), patience.
@Suite struct RenderPoolTests {
    /// Records the order jobs ran in.
    final class RunOrder: Sendable {
        private let keys = Mutex<[Int]>([])
        func append(_ key: Int) { keys.withLock { $0.append(key) } }
        var order: [Int] { keys.withLock { $0 } }
    }

    @Test func requestsRunBeforeBackgroundJobsQueuedEarlierAndARequestRaisesTheBackgroundJobItJoins() async throws {
        let pool = RenderPool<Int, Int>(threadCount: 1, queueLimit: 8)
        defer { pool.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        let ran = RunOrder()
        let blocker = Task {
            try await pool.run(0) {
                gate.wait()
                ran.append(0)
                return 0
            }
        }
        while pool.queueDepth > 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        try await Task.sleep(nanoseconds: 50_000_000)
        // Three background jobs wait; then two requests, one of them for background job 3.
        var background: [Task<Int, any Error>] = []
        for key in 1...3 {
            background.append(
                Task {
                    try await pool.run(key, lane: .background) {
                        ran.append(key)
                        return key
                    }
                })
            while pool.queueDepth < key { try await Task.sleep(nanoseconds: 5_000_000) }
        }
        let request = Task {
            try await pool.run(10) {
                ran.append(10)
                return 10
            }
        }
        while pool.queueDepth < 4 { try await Task.sleep(nanoseconds: 5_000_000) }
        let joining = Task {
            try await pool.run(3) {
                ran.append(99)
                return 99
            }
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        gate.signal()
        #expect(try await request.value == 10)
        #expect(try await joining.value == 3, "the request joined background job 3 and got its result")
        for task in background { _ = try await task.value }
        _ = try await blocker.value
        #expect(ran.order == [0, 10, 3, 1, 2])
    }

    @Test func workWhoseAskerWasCancelledBeforeItStartedIsDroppedUnrun() async throws {
        let dropped = CallCounter()
        let pool = RenderPool<Int, Int>(
            threadCount: 1, queueLimit: 8, events: .init(dropped: { _ in dropped.increment() }))
        defer { pool.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        let ran = CallCounter()
        let running = CallCounter()
        let blocker = Task {
            try await pool.run(1) {
                running.increment()
                gate.wait()
                return 1
            }
        }
        // Until the one thread runs job 1 (an empty queue alone is also true before it was queued).
        while running.count == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        let waiting = Task {
            try await pool.run(2) {
                ran.increment()
                return 2
            }
        }
        while pool.queueDepth == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(pool.queueDepth == 0)
        #expect(dropped.count == 1)
        gate.signal()
        #expect(try await blocker.value == 1)
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(ran.count == 0, "the dropped job never ran")
    }

    /// Jobs of 0.3 s on one thread and a wait limit of 0.5 s: behind the running job, the first
    /// new job (done in about 0.3 s after it) is queued, the second (0.6 s) refused at once though
    /// the queue has room, and joining a queued job is still allowed.
    @Test func aJobThatWouldWaitLongerThanTheLimitIsRefusedAtOnce() async throws {
        let pool = RenderPool<Int, Int>(threadCount: 1, queueLimit: 64, maximumWaitSeconds: 0.5)
        defer { pool.shutdown() }
        #expect(
            try await pool.run(0) {
                Thread.sleep(forTimeInterval: 0.3)
                return 0
            } == 0)
        let gate = DispatchSemaphore(value: 0)
        let running = CallCounter()
        let blocker = Task {
            try await pool.run(1) {
                running.increment()
                gate.wait()
                return 1
            }
        }
        while running.count == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        let queued = Task { try await pool.run(2) { 2 } }
        while pool.queueDepth == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        await #expect(throws: RenderPoolError.queueFull) { try await pool.run(3) { 3 } }
        let joined = Task { try await pool.run(2) { 99 } }
        try await Task.sleep(nanoseconds: 20_000_000)
        gate.signal()
        #expect(try await blocker.value == 1)
        #expect(try await queued.value == 2)
        #expect(try await joined.value == 2)
    }

    @Test func askersOfOneKeyShareOneRunAndOthersAreRefusedWhenTheQueueIsFull() async throws {
        let pool = RenderPool<Int, Int>(threadCount: 1, queueLimit: 1)
        defer { pool.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        let runs = CallCounter()
        let first = Task {
            try await pool.run(1) {
                runs.increment()
                gate.wait()
                return 10
            }
        }
        while pool.queueDepth > 0 || runs.count == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        let queued = Task {
            try await pool.run(2) {
                runs.increment()
                return 20
            }
        }
        while pool.queueDepth == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        let joined = Task {
            try await pool.run(2) {
                runs.increment()
                return 99
            }
        }
        try await Task.sleep(nanoseconds: 20_000_000)
        await #expect(throws: RenderPoolError.queueFull) { try await pool.run(3) { 30 } }
        gate.signal()
        #expect(try await first.value == 10)
        #expect(try await queued.value == 20)
        #expect(try await joined.value == 20, "the joiner gets the first asker's result")
        #expect(runs.count == 2)
    }

    /// Two threads, both running image jobs when a tile is asked for: the first thread free takes
    /// the tile before the images queued earlier, and while tiles wait, images hold one thread at most.
    @Test func aTileGoesBeforeImagesQueuedEarlierAndImagesKeepAThreadFree() async throws {
        let pool = RenderPool<Int, Int>(threadCount: 2, queueLimit: 16)
        defer { pool.shutdown() }
        let gates = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let running = CallCounter()
        let ran = RunOrder()
        let blockers = (0..<2).map { index in
            Task {
                try await pool.run(index, lane: .images) {
                    running.increment()
                    gates[index].wait()
                    ran.append(index)
                    return index
                }
            }
        }
        while running.count < 2 { try await Task.sleep(nanoseconds: 5_000_000) }
        var images: [Task<Int, any Error>] = []
        for key in 2...4 {
            images.append(
                Task {
                    try await pool.run(key, lane: .images) {
                        ran.append(key)
                        Thread.sleep(forTimeInterval: 0.05)
                        return key
                    }
                })
            while pool.queueDepth(.images) < key - 1 { try await Task.sleep(nanoseconds: 5_000_000) }
        }
        let tileGate = DispatchSemaphore(value: 0)
        let tiles = (10...11).map { key in
            Task {
                try await pool.run(key, lane: .tiles) {
                    ran.append(key)
                    if key == 10 { tileGate.wait() }
                    return key
                }
            }
        }
        while pool.queueDepth(.tiles) < 2 { try await Task.sleep(nanoseconds: 5_000_000) }
        gates[0].signal()
        // Thread 0 takes tile 10 and blocks on it; tile 11 waits for the next free thread.
        while !ran.order.contains(10) { try await Task.sleep(nanoseconds: 5_000_000) }
        gates[1].signal()
        #expect(try await tiles[1].value == 11)
        tileGate.signal()
        for task in blockers + images + tiles { _ = try await task.value }
        #expect(Array(ran.order.prefix(4)) == [0, 10, 1, 11], "\(ran.order)")
    }

    /// One thread and a steady queue of tile jobs: background jobs still get their turns (one in
    /// seven when both lanes have work).
    @Test func noLaneStarves() async throws {
        let pool = RenderPool<Int, Int>(threadCount: 1, queueLimit: 64)
        defer { pool.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        let running = CallCounter()
        let ran = RunOrder()
        let blocker = Task {
            try await pool.run(0) {
                running.increment()
                gate.wait()
                ran.append(0)
                return 0
            }
        }
        while running.count == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        var tasks: [Task<Int, any Error>] = []
        // Each queued before the next is asked for (tasks start in no set order).
        for key in 100...101 {
            tasks.append(
                Task {
                    try await pool.run(key, lane: .background) {
                        ran.append(key)
                        return key
                    }
                })
            while pool.queueDepth(.background) < key - 99 { try await Task.sleep(nanoseconds: 1_000_000) }
        }
        for key in 1...30 {
            tasks.append(
                Task {
                    try await pool.run(key, lane: .tiles) {
                        ran.append(key)
                        return key
                    }
                })
            while pool.queueDepth(.tiles) < key { try await Task.sleep(nanoseconds: 1_000_000) }
        }
        gate.signal()
        for task in [blocker] + tasks { _ = try await task.value }
        let order = ran.order
        let first = try #require(order.firstIndex(of: 100))
        let second = try #require(order.firstIndex(of: 101))
        #expect(first <= 8 && second <= 15, "\(order)")
        #expect(order.filter { (1...30).contains($0) } == Array(1...30), "each lane in its own order")
    }

    /// A job kept with nobody waiting (an asker answered from what was at hand) runs in the
    /// background lane when a thread is free; an asker who comes for it joins it, raising it.
    @Test func aKeptJobRunsForLaterAskers() async throws {
        let pool = RenderPool<Int, Int>(threadCount: 1, queueLimit: 2)
        defer { pool.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        let running = CallCounter()
        let ran = RunOrder()
        let blocker = Task {
            try await pool.run(0) {
                running.increment()
                gate.wait()
                return 0
            }
        }
        while running.count == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(
            pool.keep(1) {
                ran.append(1)
                return 1
            })
        #expect(
            !pool.keep(1) {
                Issue.record("kept twice")
                return 1
            }, "a key already queued is not queued again")
        #expect(
            pool.keep(2) {
                ran.append(2)
                return 2
            })
        #expect(
            !pool.keep(3) {
                Issue.record("beyond the limit")
                return 3
            }, "the background lane is full")
        #expect(pool.queueDepth(.background) == 2)
        let asker = Task {
            try await pool.run(2, lane: .tiles) {
                Issue.record("joined, not run again")
                return -1
            }
        }
        while pool.queueDepth(.tiles) == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        gate.signal()
        #expect(try await asker.value == 2, "the asker got the kept job's result")
        _ = try await blocker.value
        while ran.order.count < 2 { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(ran.order == [2, 1], "raised to the tiles lane, the joined job ran first")
    }

    /// An asker whose job has not started within its patience gets `notStarted` at once; the job
    /// goes on in the background lane and runs when a thread is free; one that has started is waited for.
    @Test func aJobNotStartedWithinItsAskersPatienceGoesOnInTheBackground() async throws {
        let pool = RenderPool<Int, Int>(threadCount: 1, queueLimit: 8)
        defer { pool.shutdown() }
        let gate = DispatchSemaphore(value: 0)
        let running = CallCounter()
        let ran = RunOrder()
        let blocker = Task {
            try await pool.run(0, patienceSeconds: 0.05) {
                running.increment()
                gate.wait()
                ran.append(0)
                return 0
            }
        }
        while running.count == 0 { try await Task.sleep(nanoseconds: 5_000_000) }
        await #expect(throws: RenderPoolError.notStarted) {
            try await pool.run(1, patienceSeconds: 0.1) {
                ran.append(1)
                return 1
            }
        }
        #expect(pool.queueDepth(.tiles) == 0 && pool.queueDepth(.background) == 1)
        try await Task.sleep(nanoseconds: 200_000_000)
        gate.signal()
        #expect(try await blocker.value == 0, "a started job is waited for past the patience")
        while !ran.order.contains(1) { try await Task.sleep(nanoseconds: 5_000_000) }
        #expect(ran.order == [0, 1])
    }

    /// Limited to one job at a time (as the memory guard limits it while memory is short), two
    /// threads run their jobs one after the other, never side by side; lifted, side by side again.
    @Test func aConcurrencyLimitRunsJobsOneAtATimeUntilLifted() async throws {
        let pool = RenderPool<Int, Int>(threadCount: 2, queueLimit: 8)
        defer { pool.shutdown() }
        let running = Overlap()
        let job: @Sendable (Int) -> Int = { key in
            running.enter()
            usleep(100_000)
            running.leave()
            return key
        }
        pool.limitConcurrency(to: 1)
        async let first = pool.run(1) { job(1) }
        async let second = pool.run(2) { job(2) }
        #expect(try await [first, second] == [1, 2])
        #expect(running.most == 1, "one job at a time")
        pool.limitConcurrency(to: nil)
        running.reset()
        async let third = pool.run(3) { job(3) }
        async let fourth = pool.run(4) { job(4) }
        #expect(try await [third, fourth] == [3, 4])
        #expect(running.most == 2, "both threads again")
    }

    /// How many jobs ran at once, at most.
    final class Overlap: Sendable {
        private let counts = Mutex((now: 0, most: 0))
        func enter() {
            counts.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
        }
        func leave() { counts.withLock { $0.now -= 1 } }
        func reset() { counts.withLock { $0.most = 0 } }
        var most: Int { counts.withLock { $0.most } }
    }
}
