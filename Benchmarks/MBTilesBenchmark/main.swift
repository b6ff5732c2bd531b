// Times MBTilesStore reads from 1, 2 and 4 threads, alone and while an MBTilesWriter commits
// batches into the same file, against the store's previous design (one connection behind a
// lock, a statement prepared per read); the writer alone, normalized and flat; and the existence
// queries a resumed export asks.
//
// The file: a normalized MBTiles of seeded tiles (1 to 16 KB of random bytes, three in ten a
// copy of one "ocean" tile) in a temporary folder. Readers look up random tiles of it and copy
// their bytes out, as a tile server does; the concurrent writer adds new tiles (zoom 9) in
// batches of 500 for as long as the readers run. Any error (SQLITE_BUSY among them) is counted.
//
// Each read case runs --runs times (default 3), interleaved with the other cases so that a burst
// of load on a shared machine does not fall on one case; the median run is printed.
//
// Usage: MBTilesBenchmark [--seconds S] [--tiles N] [--runs N]
// Build in release: scripts/bench/mbtiles.sh runs it.
import BenchmarkSupport
import Foundation
import MBTiles
import MapCore
import MapSQLite
import Synchronization

var secondsPerCase = 3.0
var tileCount = 20_000
var runs = 3
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--seconds":
        guard let value = arguments.popFirst().flatMap(Double.init), value > 0 else { usage() }
        secondsPerCase = value
    case "--runs":
        guard let value = arguments.popFirst().flatMap(Int.init), value >= 1 else { usage() }
        runs = value
    case "--tiles":
        guard let value = arguments.popFirst().flatMap(Int.init), (1_000...65_536).contains(value) else { usage() }
        tileCount = value
    default:
        usage()
    }
}

func usage() -> Never {
    FileHandle.standardError.write(
        Data("usage: MBTilesBenchmark [--seconds S] [--tiles 1000...65536] [--runs N]\n".utf8))
    exit(2)
}

/// `text` padded with spaces to `width` characters (right-aligned numbers when `right`).
func column(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

/// Seconds since an arbitrary start.
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// Seeded tile bytes: 1 to 16 KB of random bytes, or (three times in ten) the shared ocean tile.
func tileBytes(_ random: inout SeededGenerator, ocean: Data) -> Data {
    if Int.random(in: 0..<10, using: &random) < 3 { return ocean }
    return Data(
        (0..<Int.random(in: 1_024...16_384, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mbtiles-benchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let ocean = Data(repeating: 0xAA, count: 4_000)
var random = SeededGenerator(seed: 2026)
let readIDs = Array(try TileID.tiles(covering: .world, zoom: 8).prefix(tileCount))
let readTiles = readIDs.map { ($0, tileBytes(&random, ocean: ocean)) }
let newIDs = try TileID.tiles(covering: .world, zoom: 9)
let newTiles = (0..<2_000).map { _ in tileBytes(&random, ocean: ocean) }

print(
    "cores: \(ProcessInfo.processInfo.activeProcessorCount), load: \(((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " "))"
)
print(
    "tiles: \(tileCount) (\(readTiles.reduce(0) { $0 + $1.1.count } / 1_048_576) MB as served), \(secondsPerCase) s per read case, median of \(runs) runs"
)
print()

// MARK: - The writer alone

@MainActor
func timeWrites(schema: MBTilesSchema) throws -> (
    tilesPerSecond: Double, megabytesPerSecond: Double, fileMegabytes: Double
) {
    let url = folder.appendingPathComponent("write-\(schema).mbtiles")
    let store = try MBTilesStore(url: url, mode: .create, newFileSchema: schema)
    let writer = try MBTilesWriter(store: store)
    let start = now()
    for (id, data) in readTiles { try writer.add(data, at: id) }
    try writer.finish(updatingAggregateHash: false)
    let seconds = now() - start
    let bytes = Double(readTiles.reduce(0) { $0 + $1.1.count })
    let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.doubleValue ?? 0
    return (Double(readTiles.count) / seconds, bytes / seconds / 1_048_576, size / 1_048_576)
}

print("MBTilesWriter alone, batches of 1,000, one thread adding:")
for schema in [MBTilesSchema.normalized, .flat] {
    let result = try timeWrites(schema: schema)
    print(
        "  " + column("\(schema)", 12) + column(String(format: "%.0f", result.tilesPerSecond), 8, right: true)
            + " tiles/s"
            + column(String(format: "%.1f", result.megabytesPerSecond), 8, right: true) + " MB/s   file "
            + String(format: "%.1f MB", result.fileMegabytes))
}
let hashStore = try MBTilesStore(url: folder.appendingPathComponent("write-normalized.mbtiles"))
let hashStart = now()
_ = try hashStore.aggregateTilesHash()
print(String(format: "  agg_tiles_hash over the normalized file: %.2f s", now() - hashStart))
// What a resumed export asks: every address of a zoom, and one address at a time.
let existingStart = now()
let existing = try hashStore.existingTiles(zoom: 8)
let existingSeconds = now() - existingStart
let containsStart = now()
var found = 0
for id in readIDs where try hashStore.contains(id) { found += 1 }
let containsSeconds = now() - containsStart
print(
    String(
        format: "  existingTiles(zoom: 8): %d tiles in %.1f ms; contains: %.0f lookups/s", existing.count,
        existingSeconds * 1_000, Double(found) / containsSeconds))
print()

// MARK: - Reads

let url = folder.appendingPathComponent("read.mbtiles")
do {
    let store = try MBTilesStore(url: url, mode: .create)
    let writer = try MBTilesWriter(store: store)
    for (id, data) in readTiles { try writer.add(data, at: id) }
    try writer.finish(updatingAggregateHash: false, journalMode: .wal)
}

/// Counters the threads of one case share.
final class CaseCounters: Sendable {
    let reads = Atomic<Int>(0)
    let bytes = Atomic<Int>(0)
    let errors = Atomic<Int>(0)
    let written = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let firstError = Mutex<String?>(nil)

    func record(_ error: any Error) {
        errors.add(1, ordering: .relaxed)
        firstError.withLock { $0 = $0 ?? "\(error)" }
    }
}

/// The previous MBTilesStore's read path: one serialized connection behind a lock, a statement
/// prepared for each read.
final class SingleConnectionReader: Sendable {
    private let database: Mutex<Database>

    init(path: String) throws { database = Mutex(try Database(path: path)) }

    func tile(at id: TileID) throws -> Data? {
        try database.withLock { database in
            try read(id, from: database)
        }
    }

    private func read(_ id: TileID, from database: Database) throws -> Data? {
        let statement = try database.prepare(
            "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1")
        try statement.bind(.integer(Int64(id.z)), .integer(Int64(id.x)), .integer(Int64(id.tmsY)))
        return try statement.step() ? statement.data(at: 0) : nil
    }
}

enum ReadPath: String, CaseIterable {
    case pool = "reader pool (MBTilesStore)"
    case single = "one connection + lock (before)"
}

/// Runs `threads` readers (and a writer when asked) for `secondsPerCase`; returns reads/s, MB/s,
/// tiles written/s, errors and the first error.
@MainActor
func runCase(path: ReadPath, threads: Int, withWriter: Bool) throws -> (Double, Double, Double, Int, String?) {
    let readIDs = readIDs
    let newIDs = newIDs
    let newTiles = newTiles
    let store = try MBTilesStore(url: url, mode: withWriter ? .readWrite : .readOnly)
    let single = try SingleConnectionReader(path: url.path)
    let counters = CaseCounters()
    let group = DispatchGroup()
    let writtenBefore = try store.count()
    for thread in 0..<threads {
        group.enter()
        Thread {
            var random = SeededGenerator(seed: UInt64(thread + 1))
            while !counters.stop.load(ordering: .relaxed) {
                let id = readIDs[Int.random(in: 0..<readIDs.count, using: &random)]
                do {
                    let data = path == .pool ? try store.tile(at: id) : try single.tile(at: id)
                    counters.reads.add(1, ordering: .relaxed)
                    counters.bytes.add(data?.count ?? 0, ordering: .relaxed)
                } catch {
                    counters.record(error)
                }
            }
            group.leave()
        }.start()
    }
    if withWriter {
        group.enter()
        Thread {
            do {
                let writer = try MBTilesWriter(store: store, tilesPerBatch: 500)
                var index = 0
                while !counters.stop.load(ordering: .relaxed) {
                    try writer.add(newTiles[index % newTiles.count], at: newIDs[index % newIDs.count])
                    index += 1
                }
                try writer.flush()
            } catch {
                counters.record(error)
            }
            group.leave()
        }.start()
    }
    let start = now()
    Thread.sleep(forTimeInterval: secondsPerCase)
    counters.stop.store(true, ordering: .relaxed)
    group.wait()
    let seconds = now() - start
    let written = withWriter ? try store.count() - writtenBefore : 0
    if withWriter {
        // Put the file back as it was for the next case.
        try Database(path: url.path, mode: .readWrite).execute("DELETE FROM map WHERE zoom_level = 9")
    }
    return (
        Double(counters.reads.load(ordering: .relaxed)) / seconds,
        Double(counters.bytes.load(ordering: .relaxed)) / seconds / 1_048_576,
        Double(written) / seconds,
        counters.errors.load(ordering: .relaxed),
        counters.firstError.withLock { $0 }
    )
}

print("Random tile reads (bytes copied out), normalized file in WAL mode:")
print(
    "  " + column("read path", 32) + column("threads", 8, right: true) + column("writer", 8, right: true)
        + column("reads/s", 10, right: true) + column("MB/s", 8, right: true) + column("writes/s", 10, right: true)
        + column("errors", 8, right: true))
struct CaseKey: Hashable {
    var path: ReadPath
    var withWriter: Bool
    var threads: Int
}
var cases: [CaseKey] = []
for path in ReadPath.allCases {
    for withWriter in [false, true] {
        for threads in [1, 2, 4] { cases.append(CaseKey(path: path, withWriter: withWriter, threads: threads)) }
    }
}
_ = try runCase(path: .pool, threads: 1, withWriter: false)  // warms the page cache
var results: [CaseKey: [(Double, Double, Double, Int, String?)]] = [:]
for _ in 0..<runs {
    for key in cases {
        results[key, default: []].append(try runCase(path: key.path, threads: key.threads, withWriter: key.withWriter))
    }
}
for key in cases {
    let measured = results[key]!.sorted { $0.0 < $1.0 }
    let (reads, megabytes, writes, _, _) = measured[measured.count / 2]
    let errors = measured.reduce(0) { $0 + $1.3 }
    print(
        "  " + column(key.path.rawValue, 32) + column("\(key.threads)", 8, right: true)
            + column(key.withWriter ? "yes" : "no", 8, right: true)
            + column(String(format: "%.0f", reads), 10, right: true)
            + column(String(format: "%.1f", megabytes), 8, right: true)
            + column(key.withWriter ? String(format: "%.0f", writes) : "-", 10, right: true)
            + column("\(errors)", 8, right: true))
    if let firstError = measured.compactMap(\.4).first { print("    first error: \(firstError)") }
}
