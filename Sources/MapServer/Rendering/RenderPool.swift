import Dispatch
import Foundation
import Synchronization

/// The lanes of render work, each with its own queue: a thread takes work of the first lane
/// before the others, without starving them (see ``RenderPool``).
public enum RenderLane: Int, CaseIterable, Comparable, Sendable {
    /// Basemap tiles of a style: what a person panning a map waits for.
    case tiles
    /// Photo overlay and density-map tiles: drawn over the basemap in the viewer, each render
    /// small; a lane of their own so that they never queue behind static maps.
    case overlays
    /// Static maps and thumbnails: asked for, but each render is larger or less urgent than a tile.
    case images
    /// Work nobody waits for: warming the cache, renders kept going after their asker was
    /// answered from what was at hand.
    case background

    /// The lane's share of the threads' turns when every lane has work: 6, 3, 2 and 1.
    var share: Int {
        switch self {
        case .tiles: return 6
        case .overlays: return 3
        case .images: return 2
        case .background: return 1
        }
    }

    /// The `lane` label of the render metrics.
    public var label: String {
        switch self {
        case .tiles: return "tiles"
        case .overlays: return "overlays"
        case .images: return "images"
        case .background: return "background"
        }
    }

    public static func < (a: RenderLane, b: RenderLane) -> Bool { a.rawValue < b.rawValue }
}

/// Why the pool did not run a job.
public enum RenderPoolError: Error, Equatable, Sendable {
    /// The lane's queue holds its limit of jobs, or the jobs ahead would keep this one waiting
    /// longer than the limit: answer from what exists, or 503.
    case queueFull
    /// The job had not started when the asker's patience ran out (see
    /// ``RenderPool/run(_:lane:patienceSeconds:work:)``): the asker stops waiting, the job goes on
    /// in the background lane.
    case notStarted
    /// The pool is shutting down.
    case shuttingDown
}

/// A bounded pool of render threads with single flight and lanes: jobs are keyed, and a job
/// asked for while the same key is queued or running is not queued again; every asker waits for
/// the one result.
///
/// Renders are CPU-bound and synchronous (Cairo), so they run on the pool's own threads, never on
/// the server's event loops or Swift's cooperative pool; askers await them through
/// continuations. For example:
///
/// ```swift
/// let pool = RenderPool<MetatileKey, [TileID: Data]>(threadCount: 2, queueLimit: 64)
/// let tiles = try await pool.run(key, lane: .tiles) { try renderer.encodedTiles(of: metatile) }
/// ```
///
/// **Lanes.** Each ``RenderLane`` has its own queue. A free thread takes the oldest job of a lane
/// chosen by stride scheduling over the lanes' shares (6 : 3 : 2 : 1 for tiles, overlays, images
/// and background when all have work), so every lane moves; and while tile jobs wait, the other
/// lanes together run on at most all threads but one, so a tile never waits for more than one
/// running render (given two threads or more). A running job is never interrupted. An asker
/// that joins a queued job of a lower lane raises it to its own; when the askers of a higher
/// lane leave, the job goes down to the highest lane still waiting for it.
///
/// **Cancellation.** A task cancelled while waiting stops waiting at once (it gets
/// `CancellationError`). A job whose every asker has gone before a thread took it is dropped
/// without running; a job already running finishes (a render cannot be stopped half way) and its
/// result is handed to whoever still waits.
///
/// **Patience.** An asker may wait for its job to *start* only so long: then it stops waiting
/// (``RenderPoolError/notStarted``) and, if nobody else waits, the job moves to the background
/// lane (room permitting) so that its result is there for later askers: under overload a
/// person gets an answer from what exists, and the tile still gets drawn.
///
/// **Bounds.** At most `queueLimit` jobs wait in each lane; a new key beyond that is refused with
/// ``RenderPoolError/queueFull`` (joining a job already queued is always allowed). A new job is
/// refused the same way, before the queue is full, when the jobs ahead of it in its lane would
/// keep it waiting longer than `maximumWaitSeconds`, as estimated from the lane's recent jobs
/// (``expectedWaitSeconds(in:)``): under overload the asker gets its answer at once instead of
/// at the end of its time limit. ``keep(_:work:)`` queues such a job in the background lane
/// with nobody waiting, so that it is drawn for later askers.
final class RenderPool<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What the pool reports as it works.
    struct Events: Sendable {
        var queueDepthChanged: @Sendable (RenderLane, Int) -> Void = { _, _ in }
        var joined: @Sendable (Key) -> Void = { _ in }
        var dropped: @Sendable (Key) -> Void = { _ in }
        var started: @Sendable (Key) -> Void = { _ in }
    }

    private typealias Waiter = CheckedContinuation<Value, any Error>

    private enum Outcome {
        case queued(RenderLane, Int)
        case joined(moved: (from: RenderLane, to: RenderLane)?)
        case full, cancelled, shuttingDown
    }

    private struct Job {
        var work: @Sendable () throws -> Value
        var waiters: [UInt64: (waiter: Waiter, lane: RenderLane)]
        var lane: RenderLane
        var isRunning = false
        /// Kept in the background lane after its askers' patience ran out: not dropped when
        /// later askers leave.
        var isKept = false

        /// The highest lane of the askers waiting.
        var highestWaitingLane: RenderLane? { waiters.values.map(\.lane).min() }
    }

    private struct State {
        var jobs: [Key: Job] = [:]
        /// Each lane's jobs, oldest first.
        var queues: [[Key]] = RenderLane.allCases.map { _ in [] }
        var waiterKeys: [UInt64: Key] = [:]
        var nextWaiterID: UInt64 = 0
        var isShuttingDown = false
        /// Running jobs by the lane they were taken from.
        var running: [Int] = RenderLane.allCases.map { _ in 0 }
        /// Stride scheduling: each lane's pass, advanced by its stride when a job of it is taken.
        var passes: [Double] = RenderLane.allCases.map { _ in 0 }
        var virtualTime: Double = 0
        /// The seconds a job of each lane took, averaged over recent jobs (exponentially
        /// weighted); nil before the first job of the lane ends.
        var averageJobSeconds: [Double?] = RenderLane.allCases.map { _ in nil }
        /// The most jobs that may run at once: every thread, or fewer while memory is short
        /// (``RenderPool/limitConcurrency(to:)``); nil for every thread.
        var concurrencyLimit: Int?

        func depth(_ lane: RenderLane) -> Int { queues[lane.rawValue].count }
        var totalDepth: Int { queues.reduce(0) { $0 + $1.count } }

        /// Queues a job. A lane that had no work starts its turns one stride after the last job
        /// taken: a lower lane that starts to fill goes after the higher lanes' work waiting now.
        mutating func enqueue(_ key: Key, in lane: RenderLane) {
            if queues[lane.rawValue].isEmpty {
                passes[lane.rawValue] = max(passes[lane.rawValue], virtualTime + 1 / Double(lane.share))
            }
            queues[lane.rawValue].append(key)
        }

        mutating func remove(_ key: Key, from lane: RenderLane) {
            queues[lane.rawValue].removeAll { $0 == key }
        }

        /// The lane a free thread takes its next job from, or nil when no job may start.
        func nextLane(threads: Int) -> RenderLane? {
            let lowerRunning = running[1...].reduce(0, +)
            let tilesWait = !queues[RenderLane.tiles.rawValue].isEmpty
            var best: RenderLane?
            for lane in RenderLane.allCases where !queues[lane.rawValue].isEmpty {
                // Keep a thread for tiles while they wait.
                if lane != .tiles, tilesWait, threads > 1, lowerRunning >= threads - 1 { continue }
                if let chosen = best, passes[chosen.rawValue] <= passes[lane.rawValue] { continue }
                best = lane
            }
            return best
        }

        /// How long a new job of `lane` would wait for its result: 0 when a thread would take it
        /// at once; else its turn behind the lane's queue, in rounds of the threads open to the
        /// lane, times the lane's average job. Nil before the lane's first job ended.
        func expectedWaitSeconds(in lane: RenderLane, threads: Int) -> Double? {
            let busy = running.reduce(0, +)
            let open = lane == .tiles || threads == 1 ? threads : threads - 1
            if depth(lane) == 0, busy < threads, lane == .tiles || running[1...].reduce(0, +) < open { return 0 }
            guard let average = averageJobSeconds[lane.rawValue] ?? averageJobSeconds.compactMap({ $0 }).first else {
                return nil
            }
            let rounds = (Double(depth(lane)) / Double(max(1, open))).rounded(.down) + 1
            return rounds * average
        }
    }

    /// The number of render threads.
    let threadCount: Int
    /// The most jobs that wait for a thread in each lane.
    let queueLimit: Int
    /// The longest a new job may expect to wait for its result; beyond it the job is refused as
    /// if the queue were full. Infinite (the default) never refuses on time.
    let maximumWaitSeconds: Double
    private let events: Events
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let stopped = DispatchGroup()
    /// The askers' patience: ends on a thread of its own, never late because other threads are busy.
    private let patience = Deadlines()

    /// Lets at most `count` jobs run at once (at least one; nil: every thread), from the next job
    /// a thread takes: the memory guard runs one render at a time while memory is short, since
    /// each render in flight allocates tens of MiB while it draws. Jobs running go on.
    func limitConcurrency(to count: Int?) {
        let limit = count.map { min(threadCount, max(1, $0)) }
        let wakes = state.withLock { state -> Int in
            let before = state.concurrencyLimit ?? threadCount
            state.concurrencyLimit = limit
            return max(0, (limit ?? threadCount) - before)
        }
        for _ in 0..<wakes { available.signal() }
    }

    /// Starts `threadCount` threads.
    init(threadCount: Int, queueLimit: Int, maximumWaitSeconds: Double = .infinity, events: Events = Events()) {
        precondition(threadCount >= 1 && queueLimit >= 1)
        self.threadCount = threadCount
        self.queueLimit = queueLimit
        self.maximumWaitSeconds = maximumWaitSeconds
        self.events = events
        for index in 0..<threadCount {
            stopped.enter()
            let thread = Thread { [self] in
                workLoop()
                stopped.leave()
            }
            thread.name = "mapwright-render-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
        stopped.enter()
        let timer = Thread { [self] in
            patience.run { [weak self] waiterID in self?.expire(waiterID) }
            stopped.leave()
        }
        timer.name = "mapwright-render-patience"
        timer.start()
    }

    /// Jobs waiting for a thread, in every lane.
    var queueDepth: Int { state.withLock { $0.totalDepth } }

    /// Whether the threads have more work than they can start: jobs wait in `lane` or a lane
    /// above it, or in the overlays or images lanes, or jobs whose askers gave up waiting wait in the
    /// background lane. (Warming alone is not overload.)
    func isOverloaded(_ lane: RenderLane) -> Bool {
        state.withLock { state in
            RenderLane.allCases.contains { $0 <= max(lane, .images) && state.depth($0) > 0 }
                || state.queues[RenderLane.background.rawValue].contains { state.jobs[$0]?.isKept == true }
        }
    }

    /// Whether a job of `key` is queued or running.
    func isQueuedOrRunning(_ key: Key) -> Bool { state.withLock { $0.jobs[key] != nil } }

    /// Jobs waiting for a thread in `lane`.
    func queueDepth(_ lane: RenderLane) -> Int { state.withLock { $0.depth(lane) } }

    /// How long a new job of `lane` would wait for its result, estimated from the lane's recent
    /// jobs: 0 when a thread would take it at once; nil before any job ended.
    func expectedWaitSeconds(in lane: RenderLane) -> Double? {
        state.withLock { $0.expectedWaitSeconds(in: lane, threads: threadCount) }
    }

    /// Runs `work` on a pool thread in `lane`, or waits for the job of the same key already
    /// queued or running.
    ///
    /// - Parameter patienceSeconds: How long to wait for the job to start; `nil` (the default)
    ///   waits as long as it takes.
    /// - Throws: ``RenderPoolError/queueFull`` when the lane is full or would keep the job waiting
    ///   too long, ``RenderPoolError/notStarted`` when the job had not started within
    ///   `patienceSeconds`, `CancellationError` when the task is cancelled while waiting, or what
    ///   `work` throws.
    func run(
        _ key: Key, lane: RenderLane = .tiles, patienceSeconds: Double? = nil,
        work: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        let waiterID = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let outcome: Outcome = state.withLock { state in
                    // Checked under the lock: a cancellation handler that ran before this saw no waiter.
                    if Task.isCancelled { return .cancelled }
                    if state.isShuttingDown { return .shuttingDown }
                    if var job = state.jobs[key] {
                        job.waiters[waiterID] = (continuation, lane)
                        state.waiterKeys[waiterID] = key
                        var moved: (RenderLane, RenderLane)?
                        if !job.isRunning, lane < job.lane {
                            state.remove(key, from: job.lane)
                            state.enqueue(key, in: lane)
                            moved = (job.lane, lane)
                            job.lane = lane
                        }
                        state.jobs[key] = job
                        return .joined(moved: moved)
                    }
                    guard state.depth(lane) < queueLimit else { return .full }
                    if maximumWaitSeconds.isFinite,
                        let wait = state.expectedWaitSeconds(in: lane, threads: threadCount), wait > maximumWaitSeconds
                    {
                        return .full
                    }
                    state.enqueue(key, in: lane)
                    state.jobs[key] = Job(work: work, waiters: [waiterID: (continuation, lane)], lane: lane)
                    state.waiterKeys[waiterID] = key
                    return .queued(lane, state.depth(lane))
                }
                switch outcome {
                case .queued, .joined:
                    if let patienceSeconds { patience.add(waiterID, after: patienceSeconds) }
                default: break
                }
                switch outcome {
                case .queued(let lane, let depth):
                    events.queueDepthChanged(lane, depth)
                    available.signal()
                case .joined(let moved):
                    events.joined(key)
                    if let moved { reportDepths(of: [moved.from, moved.to]) }
                case .full: continuation.resume(throwing: RenderPoolError.queueFull)
                case .shuttingDown: continuation.resume(throwing: RenderPoolError.shuttingDown)
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            leave(waiterID)
        }
    }

    /// Queues `work` in the background lane with nobody waiting for it (a job whose asker was
    /// answered from what was at hand, drawn for later askers): kept until it runs, raised by an
    /// asker who joins it. Nothing is queued when a job of `key` is queued or running already,
    /// when the background lane is full, or when the pool is shutting down.
    ///
    /// - Returns: Whether the job was queued.
    @discardableResult
    func keep(_ key: Key, work: @escaping @Sendable () throws -> Value) -> Bool {
        let depth: Int? = state.withLock { state in
            guard !state.isShuttingDown, state.jobs[key] == nil, state.depth(.background) < queueLimit else {
                return nil
            }
            state.enqueue(key, in: .background)
            state.jobs[key] = Job(work: work, waiters: [:], lane: .background, isKept: true)
            return state.depth(.background)
        }
        guard let depth else { return false }
        events.queueDepthChanged(.background, depth)
        available.signal()
        return true
    }

    /// A waiter's task was cancelled: it gets `CancellationError`; its job is dropped when nobody
    /// else waits for it and it has not started, or moved down to the highest lane still waiting.
    private func leave(_ waiterID: UInt64) {
        let removed: (waiter: Waiter, key: Key, dropped: Bool, lanes: [RenderLane])? = state.withLock { state in
            guard let key = state.waiterKeys.removeValue(forKey: waiterID),
                var job = state.jobs[key], let (waiter, _) = job.waiters.removeValue(forKey: waiterID)
            else { return nil }
            if job.isRunning {
                state.jobs[key] = job
                return (waiter, key, false, [])
            }
            guard let highest = job.highestWaitingLane ?? (job.isKept ? .background : nil) else {
                state.jobs[key] = nil
                state.remove(key, from: job.lane)
                return (waiter, key, true, [job.lane])
            }
            var lanes: [RenderLane] = []
            if highest > job.lane {
                state.remove(key, from: job.lane)
                state.enqueue(key, in: highest)
                lanes = [job.lane, highest]
                job.lane = highest
            }
            state.jobs[key] = job
            return (waiter, key, false, lanes)
        }
        guard let removed else { return }
        removed.waiter.resume(throwing: CancellationError())
        if removed.dropped { events.dropped(removed.key) }
        reportDepths(of: removed.lanes)
        // A job moved down may now start on a thread kept for tiles.
        if !removed.lanes.isEmpty { available.signal() }
    }

    /// A waiter's patience ran out: unless its job has started, it gets
    /// ``RenderPoolError/notStarted``; a job nobody else waits for moves to the background lane,
    /// or is dropped when that lane is full.
    private func expire(_ waiterID: UInt64) {
        let expired: (waiter: Waiter, key: Key, dropped: Bool, lanes: [RenderLane])? = state.withLock { state in
            guard let key = state.waiterKeys[waiterID], var job = state.jobs[key], !job.isRunning,
                let (waiter, _) = job.waiters.removeValue(forKey: waiterID)
            else { return nil }
            state.waiterKeys[waiterID] = nil
            let target = job.highestWaitingLane ?? .background
            guard target != job.lane else {
                state.jobs[key] = job
                return (waiter, key, false, [])
            }
            state.remove(key, from: job.lane)
            if job.waiters.isEmpty, state.depth(.background) >= queueLimit {
                state.jobs[key] = nil
                return (waiter, key, true, [job.lane])
            }
            let lanes = [job.lane, target]
            state.enqueue(key, in: target)
            job.lane = target
            if job.waiters.isEmpty { job.isKept = true }
            state.jobs[key] = job
            return (waiter, key, false, lanes)
        }
        guard let expired else { return }
        expired.waiter.resume(throwing: RenderPoolError.notStarted)
        if expired.dropped { events.dropped(expired.key) }
        reportDepths(of: expired.lanes)
        if !expired.lanes.isEmpty { available.signal() }
    }

    private func reportDepths(of lanes: [RenderLane]) {
        guard !lanes.isEmpty else { return }
        let depths = state.withLock { state in lanes.map { ($0, state.depth($0)) } }
        for (lane, depth) in depths { events.queueDepthChanged(lane, depth) }
    }

    /// Stops the threads once the jobs running now finish; queued jobs' askers get
    /// ``RenderPoolError/shuttingDown``. Returns when every thread has stopped.
    func shutdown() {
        let waiters: [Waiter] = state.withLock { state in
            guard !state.isShuttingDown else { return [] }
            state.isShuttingDown = true
            var waiters: [Waiter] = []
            for key in state.queues.joined() {
                if let job = state.jobs.removeValue(forKey: key) { waiters += job.waiters.values.map(\.waiter) }
            }
            state.queues = RenderLane.allCases.map { _ in [] }
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: RenderPoolError.shuttingDown) }
        for _ in 0..<threadCount { available.signal() }
        patience.stop()
        stopped.wait()
    }

    /// Takes jobs while there are jobs it may take; sleeps until a job is queued otherwise.
    private func workLoop() {
        while true {
            let next: (key: Key, lane: RenderLane, work: @Sendable () throws -> Value, depth: Int)? = state.withLock {
                state in
                guard !state.isShuttingDown, state.running.reduce(0, +) < state.concurrencyLimit ?? threadCount,
                    let lane = state.nextLane(threads: threadCount)
                else { return nil }
                let key = state.queues[lane.rawValue].removeFirst()
                state.virtualTime = state.passes[lane.rawValue]
                state.passes[lane.rawValue] += 1 / Double(lane.share)
                state.jobs[key]!.isRunning = true
                state.running[lane.rawValue] += 1
                return (key, lane, state.jobs[key]!.work, state.depth(lane))
            }
            guard let next else {
                if state.withLock({ $0.isShuttingDown }) { return }
                available.wait()
                continue
            }
            events.queueDepthChanged(next.lane, next.depth)
            events.started(next.key)
            let start = DispatchTime.now().uptimeNanoseconds
            let result = Result { try next.work() }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let waiters: [Waiter] = state.withLock { state in
                let lane = next.lane.rawValue
                state.running[lane] -= 1
                state.averageJobSeconds[lane] =
                    state.averageJobSeconds[lane].map { $0 * 0.8 + seconds * 0.2 } ?? seconds
                guard let job = state.jobs.removeValue(forKey: next.key) else { return [] }
                for id in job.waiters.keys { state.waiterKeys[id] = nil }
                return job.waiters.values.map(\.waiter)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
    }
}

/// Deadlines of waiters, ended in order by one thread (``run(_:)``): what calls ``add(_:after:)``
/// never waits, and an end is never late because other threads are busy.
private final class Deadlines: Sendable {
    private struct State {
        var deadlines: [(at: UInt64, id: UInt64)] = []
        var isStopped = false
    }

    private let state = Mutex(State())
    private let changed = DispatchSemaphore(value: 0)

    /// Ends `id` `seconds` from now.
    func add(_ id: UInt64, after seconds: Double) {
        let at = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        state.withLock { $0.deadlines.append((at, id)) }
        changed.signal()
    }

    /// Stops ``run(_:)``; deadlines not reached are forgotten.
    func stop() {
        state.withLock { $0.isStopped = true }
        changed.signal()
    }

    /// Calls `end` with each id whose deadline passed, until ``stop()``.
    func run(_ end: (UInt64) -> Void) {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let (due, next, isStopped): ([UInt64], UInt64?, Bool) = state.withLock { state in
                let due = state.deadlines.filter { $0.at <= now }.map(\.id)
                state.deadlines.removeAll { $0.at <= now }
                return (due, state.deadlines.map(\.at).min(), state.isStopped)
            }
            if isStopped { return }
            for id in due { end(id) }
            if let next {
                _ = changed.wait(timeout: DispatchTime(uptimeNanoseconds: next))
            } else {
                changed.wait()
            }
        }
    }
}
