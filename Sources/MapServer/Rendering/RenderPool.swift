import Dispatch
import Foundation
import Synchronization

/// Which jobs a render thread takes first.
public enum RenderPriority: Sendable {
    /// A request someone waits for: taken before any background job.
    case request
    /// Work nobody waits for (warming the cache): taken only when no request job waits, and
    /// raised to ``request`` when a request asks for the same key.
    case background
}

/// Why the pool did not run a job.
public enum RenderPoolError: Error, Equatable, Sendable {
    /// The queue holds its limit of jobs: answer 503 and ask the client to retry.
    case queueFull
    /// The pool is shutting down.
    case shuttingDown
}

/// A bounded pool of render threads with single flight: jobs are keyed, and a job asked for
/// while the same key is queued or running is not queued again; every asker waits for the one
/// result.
///
/// Renders are CPU-bound and synchronous (Cairo), so they run on the pool's own threads, never on
/// the server's event loops or Swift's cooperative pool; askers await them through
/// continuations. For example:
///
/// ```swift
/// let pool = RenderPool<MetatileKey, [TileID: Data]>(threadCount: 2, queueLimit: 64)
/// let tiles = try await pool.run(key) { try renderer.encodedTiles(of: metatile) }
/// ```
///
/// **Cancellation.** A task cancelled while waiting stops waiting at once (it gets
/// `CancellationError`). A job whose every asker has gone before a thread took it is dropped
/// without running; a job already running finishes (a render cannot be stopped half way) and its
/// result is handed to whoever still waits.
///
/// **Bounds.** At most `queueLimit` request jobs, and as many background jobs, wait for a
/// thread; a new key beyond that is refused with ``RenderPoolError/queueFull`` (joining a job
/// already queued is always allowed). A new request job is refused the same way, before the
/// queue is full, when the jobs ahead of it would keep it waiting longer than
/// `maximumWaitSeconds`, as estimated from the average time of recent jobs: under overload the
/// asker gets its 503 at once instead of at the end of its time limit.
///
/// **Priority.** A thread takes the oldest request job, and a background job only when no request
/// job waits (see ``RenderPriority``); a running job is never interrupted.
final class RenderPool<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What the pool reports as it works.
    struct Events: Sendable {
        var queueDepthChanged: @Sendable (Int) -> Void = { _ in }
        var joined: @Sendable (Key) -> Void = { _ in }
        var dropped: @Sendable (Key) -> Void = { _ in }
        var started: @Sendable (Key) -> Void = { _ in }
    }

    private typealias Waiter = CheckedContinuation<Value, any Error>

    private enum Outcome { case queued(Int), joined, full, cancelled, shuttingDown }

    private struct Job {
        var work: @Sendable () throws -> Value
        var waiters: [UInt64: Waiter]
        var isRunning = false
    }

    private struct State {
        var jobs: [Key: Job] = [:]
        /// Request jobs, oldest first.
        var queue: [Key] = []
        /// Background jobs, oldest first.
        var backgroundQueue: [Key] = []
        var waiterKeys: [UInt64: Key] = [:]
        var nextWaiterID: UInt64 = 0
        var isShuttingDown = false
        var runningCount = 0
        /// The seconds a job took, averaged over recent jobs (exponentially weighted); nil
        /// before the first job ends.
        var averageJobSeconds: Double?

        /// Whether a new request job would wait longer than `limit` seconds for its result
        /// behind the request jobs queued now, on `threads` threads.
        func wouldWait(longerThan limit: Double, threads: Int) -> Bool {
            guard let average = averageJobSeconds, limit.isFinite else { return false }
            let rounds = (Double(queue.count) / Double(threads)).rounded(.down) + 1
            return rounds * average > limit
        }
    }

    /// The number of render threads.
    let threadCount: Int
    /// The most jobs that wait for a thread.
    let queueLimit: Int
    /// The longest a new request job may expect to wait for its result; beyond it the job is
    /// refused as if the queue were full. Infinite (the default) never refuses on time.
    let maximumWaitSeconds: Double
    private let events: Events
    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let stopped = DispatchGroup()

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
    }

    /// Jobs waiting for a thread.
    var queueDepth: Int { state.withLock { $0.queue.count + $0.backgroundQueue.count } }

    /// Runs `work` on a pool thread, or waits for the job of the same key already queued or running.
    ///
    /// - Throws: ``RenderPoolError/queueFull`` when the queue is full, `CancellationError` when the
    ///   task is cancelled while waiting, or what `work` throws.
    func run(_ key: Key, priority: RenderPriority = .request, work: @escaping @Sendable () throws -> Value) async throws -> Value {
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
                    if state.jobs[key] != nil {
                        state.jobs[key]!.waiters[waiterID] = continuation
                        state.waiterKeys[waiterID] = key
                        // A request for a queued background job raises it.
                        if priority == .request, let index = state.backgroundQueue.firstIndex(of: key) {
                            state.backgroundQueue.remove(at: index)
                            state.queue.append(key)
                        }
                        return .joined
                    }
                    switch priority {
                    case .request:
                        guard state.queue.count < queueLimit,
                              !state.wouldWait(longerThan: maximumWaitSeconds, threads: threadCount)
                        else { return .full }
                        state.queue.append(key)
                    case .background:
                        guard state.backgroundQueue.count < queueLimit else { return .full }
                        state.backgroundQueue.append(key)
                    }
                    state.jobs[key] = Job(work: work, waiters: [waiterID: continuation])
                    state.waiterKeys[waiterID] = key
                    return .queued(state.queue.count + state.backgroundQueue.count)
                }
                switch outcome {
                case .queued(let depth):
                    events.queueDepthChanged(depth)
                    available.signal()
                case .joined: events.joined(key)
                case .full: continuation.resume(throwing: RenderPoolError.queueFull)
                case .shuttingDown: continuation.resume(throwing: RenderPoolError.shuttingDown)
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let removed: (waiter: Waiter, dropped: Key?, depth: Int)? = state.withLock { state in
                guard let key = state.waiterKeys.removeValue(forKey: waiterID),
                      let waiter = state.jobs[key]?.waiters.removeValue(forKey: waiterID)
                else { return nil }
                var dropped: Key?
                if let job = state.jobs[key], job.waiters.isEmpty, !job.isRunning {
                    state.jobs[key] = nil
                    state.queue.removeAll { $0 == key }
                    state.backgroundQueue.removeAll { $0 == key }
                    dropped = key
                }
                return (waiter, dropped, state.queue.count + state.backgroundQueue.count)
            }
            guard let removed else { return }
            removed.waiter.resume(throwing: CancellationError())
            if let key = removed.dropped {
                events.dropped(key)
                events.queueDepthChanged(removed.depth)
            }
        }
    }

    /// Stops the threads once the jobs running now finish; queued jobs' askers get
    /// ``RenderPoolError/shuttingDown``. Returns when every thread has stopped.
    func shutdown() {
        let waiters: [Waiter] = state.withLock { state in
            guard !state.isShuttingDown else { return [] }
            state.isShuttingDown = true
            var waiters: [Waiter] = []
            for key in state.queue + state.backgroundQueue {
                if let job = state.jobs.removeValue(forKey: key) { waiters += job.waiters.values }
            }
            state.queue.removeAll()
            state.backgroundQueue.removeAll()
            return waiters
        }
        for waiter in waiters { waiter.resume(throwing: RenderPoolError.shuttingDown) }
        for _ in 0..<threadCount { available.signal() }
        stopped.wait()
    }

    private func workLoop() {
        while true {
            available.wait()
            let next: (key: Key, work: @Sendable () throws -> Value, depth: Int)? = state.withLock { state in
                guard !state.isShuttingDown else { return nil }
                let key: Key
                if !state.queue.isEmpty {
                    key = state.queue.removeFirst()
                } else if !state.backgroundQueue.isEmpty {
                    key = state.backgroundQueue.removeFirst()
                } else {
                    return nil
                }
                state.jobs[key]!.isRunning = true
                state.runningCount += 1
                return (key, state.jobs[key]!.work, state.queue.count + state.backgroundQueue.count)
            }
            guard let next else {
                if state.withLock({ $0.isShuttingDown }) { return }
                continue
            }
            events.queueDepthChanged(next.depth)
            events.started(next.key)
            let start = DispatchTime.now().uptimeNanoseconds
            let result = Result { try next.work() }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let waiters: [Waiter] = state.withLock { state in
                state.runningCount -= 1
                state.averageJobSeconds = state.averageJobSeconds.map { $0 * 0.8 + seconds * 0.2 } ?? seconds
                guard let job = state.jobs.removeValue(forKey: next.key) else { return [] }
                for id in job.waiters.keys { state.waiterKeys[id] = nil }
                return Array(job.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
    }
}
