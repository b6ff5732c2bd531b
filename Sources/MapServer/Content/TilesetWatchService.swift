import Logging
import MapUtilities
import ServiceLifecycle
import Synchronization
import Tilesets

/// Notices changes to the served tileset files (``ServerContent/dataTilesets``: the `--tiles`
/// files and those the styles draw from, served under `/data`, several read as one watched
/// each), comparing each path with the file as it was opened (``OpenTileset/fileStates``: device,
/// inode, size, modification and status-change times, and those of its `-wal` file), so a file
/// replaced at any moment after it was opened is noticed, even at once after start-up.
///
/// - **Replaced or rewritten** (another file renamed over it, as an export or a deploy script
///   finishes; or written over in place, `cp new old`, `rsync --inplace`): the file is opened
///   again and its metadata read again (TileJSON follows), the old file's tiles are dropped from
///   memory, and requests in flight finish on the old file. A file that cannot be opened yet (half
///   written) leaves the old one served; that is logged once, and the next check tries again.
/// - **Its `-wal` file changed** (SQLite writing into a served MBTiles file): its tiles are
///   dropped from memory, so the next request reads the file through its open reader.
///
/// Either way the served file moves on one generation (``OpenTileset/generation``), so a tile
/// read before the change and kept after it is never answered.
public final class TilesetWatcher: Sendable {
    let server: MapTileServer
    /// The names whose replacement could not be opened, logged once until one opens.
    private let failing = Mutex<Set<String>>([])

    public init(server: MapTileServer) { self.server = server }

    /// Compares each served tileset file with the file as opened; opens again those replaced or
    /// rewritten, drops the tiles of those changed, and returns the names of both.
    @discardableResult
    public func check() -> [String] {
        guard let content = try? server.servedContent() else { return [] }
        var changed: [String] = []
        for tileset in content.dataTilesets {
            let seen = tileset.current.fileStates
            let now = OpenTileset.fileStates(of: tileset.files)
            guard now != seen else { continue }
            // Even indices are the files, odd ones their -wal files.
            let files = stride(from: 0, to: now.count, by: 2)
            let rewritten = files.contains { now[$0] != seen[$0] } && files.allSatisfy { now[$0] != nil }
            let replacedGeneration: Int
            if rewritten {
                let replaced = files.contains { index in
                    guard let new = now[index], let old = seen[index] else { return true }
                    return !new.isSameFile(as: old)
                }
                do throws(TilesetsError) {
                    replacedGeneration = try tileset.reopen()
                } catch {
                    // Not whole yet (or unreadable): the old file stays served; tried again next time.
                    if failing.withLock({ $0.insert(tileset.name).inserted }) {
                        server.logger.warning(
                            "tileset \(tileset.name): the file was \(replaced ? "replaced" : "rewritten") but cannot be opened; still serving the old one: \(error.description)"
                        )
                    }
                    continue
                }
                failing.withLock { _ = $0.remove(tileset.name) }
                server.logger.info(
                    "tileset \(tileset.name): the file was \(replaced ? "replaced" : "rewritten in place"); it is served from the new file"
                )
            } else {
                // Its -wal file changed, or a file is gone (the open file is still read).
                replacedGeneration = tileset.advanceGeneration(seen: now)
                server.logger.info("tileset \(tileset.name): the file changed; its tiles are read again")
            }
            server.urlsChanged()
            server.memory.removeAll(source: .tileset(tileset.name, generation: replacedGeneration))
            changed.append(tileset.name)
        }
        return changed
    }
}

/// Runs a ``TilesetWatcher`` every ``ServerConfiguration/tilesetCheckIntervalSeconds``.
struct TilesetWatchService: Service {
    let watcher: TilesetWatcher

    func run() async throws {
        let interval = max(0.01, watcher.server.configuration.tilesetCheckIntervalSeconds)
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    watcher.check()
                    try await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                }
            }
        } catch is CancellationError {}
    }
}
