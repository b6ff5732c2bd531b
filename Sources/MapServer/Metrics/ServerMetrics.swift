import Dispatch
import Foundation
import Metrics
public import Prometheus
import Synchronization

/// The server's metrics, kept in its own Prometheus registry (so two servers in one process, as
/// in the tests, never share counts) and written out by `/metrics` in Prometheus' text format.
///
/// - `mapwright_http_requests_total{route, status}`: requests answered, by route pattern and status;
/// - `mapwright_tile_cache_hits_total{source}`, `mapwright_tile_cache_misses_total{source}`;
/// - `mapwright_renders_total{source}`: metatiles rendered; `mapwright_render_joins_total{source}`:
///   requests that waited for a render already asked for (single flight);
/// - `mapwright_render_seconds`: a histogram of metatile render times;
/// - `mapwright_render_queue_depth{lane}`: renders waiting for a thread, by lane (tiles, overlays,
///   images, background);
/// - `mapwright_resident_memory_bytes`: the process's resident memory, as the memory guard last
///   read it (with a memory limit only); `mapwright_memory_trims_total`: times the guard let
///   caches go near the limit; `mapwright_memory_refusals_total`: renders refused at the limit (503);
/// - `mapwright_stand_in_answers_total{kind, source}`: tile requests answered under load from what
///   existed instead of their render: `stale` (an older version of the tile), `parent` (the nearest
///   cached parent tile scaled up) or `unavailable` (neither: 503 at once);
/// - `mapwright_render_rejected_total`, `mapwright_render_timeouts_total`,
///   `mapwright_render_dropped_total`: queue full (503), time limit passed (503), requester gone
///   before its render started.
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` writes out.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// Each counter by name and labels, with its count (what the tests read): made once, not per
    /// request, as making a Prometheus counter looks it up in the registry behind a lock.
    private let counters = Mutex<[CounterKey: Counter]>([:])
    private let queueDepths: [Metrics.Gauge]
    private let renderTimer: Metrics.Timer
    private let residentMemory: Metrics.Gauge

    /// Creates the metrics in a new registry.
    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets["mapwright_render_seconds"] = [
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10), .seconds(30),
        ]
        self.factory = factory
        queueDepths = RenderLane.allCases.map {
            Metrics.Gauge(label: "mapwright_render_queue_depth", dimensions: [("lane", $0.label)], factory: factory)
        }
        renderTimer = Metrics.Timer(label: "mapwright_render_seconds", factory: factory)
        residentMemory = Metrics.Gauge(label: "mapwright_resident_memory_bytes", factory: factory)
        for gauge in queueDepths { gauge.record(0) }
    }

    /// The Prometheus text exposition of every metric.
    public func exposition() -> String { registry.emitToString() }

    /// How many times a counter was incremented, by its name and labels as `name{a=b,c=d}`
    /// (labels in the order given); what the tests read.
    public func count(_ name: String, _ labels: [(String, String)] = []) -> Int {
        counters.withLock { $0[CounterKey(name, labels)]?.count.load(ordering: .relaxed) ?? 0 }
    }

    func increment(_ name: String, _ labels: [(String, String)] = []) {
        counter(name, labels).increment()
    }

    /// The counter of a name and labels, made on first use: hold it to count without looking it
    /// up (``KeptTileAnswers`` does, per event loop).
    func counter(_ name: String, _ labels: [(String, String)] = []) -> Counter {
        let key = CounterKey(name, labels)
        return counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Counter(Metrics.Counter(label: name, dimensions: labels, factory: factory))
            counters[key] = counter
            return counter
        }
    }

    /// One counter of the registry, with its count as the tests read it.
    final class Counter: Sendable {
        private let counter: Metrics.Counter
        let count = Atomic<Int>(0)

        init(_ counter: Metrics.Counter) { self.counter = counter }

        func increment(by amount: Int = 1) {
            count.add(amount, ordering: .relaxed)
            counter.increment(by: Int64(amount))
        }
    }

    func recordRequest(route: String, status: Int) {
        increment("mapwright_http_requests_total", [("route", route), ("status", "\(status)")])
    }

    func recordRender(nanoseconds: UInt64) {
        renderTimer.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    func recordResidentMemory(bytes: Int) {
        residentMemory.record(bytes)
    }

    func recordQueueDepth(_ depth: Int, lane: RenderLane) {
        queueDepths[lane.rawValue].record(depth)
    }

    /// A counter's name and labels, in the order given.
    private struct CounterKey: Hashable {
        let name: String
        let labels: [String]

        init(_ name: String, _ labels: [(String, String)]) {
            self.name = name
            self.labels = labels.flatMap { [$0.0, $0.1] }
        }
    }
}
