import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Tilesets

/// Notices changes to the served tileset files (``ServerContent/dataTilesets``: the `--tiles`
/// files and those the styles draw from, served under `/data`, several read as one watched
/// each). A file's state is its device, inode, size and
/// modification time, and, for MBTiles, those of its `-wal` file beside it.
///
/// - **Replaced** (another file renamed over it, as an export finishes: a new device or inode):
///   the file is opened again and its metadata read again (TileJSON follows), the old file's tiles
///   are dropped from memory, and requests in flight finish on the old file. A replacement that
///   cannot be opened yet (half written) leaves the old file served; that is logged once, and the
///   next check tries again.
/// - **Written in place** (an export writing into a served MBTiles file: its WAL grows, or is
///   checkpointed): its tiles are dropped from memory, so the next request reads the file.
///
/// Either way the served file moves on one generation (``OpenTileset/generation``), so a tile
/// read before the change and kept after it is never answered.
public final class TilesetWatcher: Sendable {
    let server: MapTileServer
    private let states = Mutex<[String: [FileState?]]>([:])
    /// The names whose replacement could not be opened, logged once until one opens.
    private let failing = Mutex<Set<String>>([])

    public init(server: MapTileServer) { self.server = server }

    /// Compares each served tileset file with what the last check saw (the first check only
    /// looks); opens again those replaced, drops the tiles of those changed, and returns the
    /// names of both.
    @discardableResult
    public func check() -> [String] {
        guard let content = try? server.servedContent() else { return [] }
        var changed: [String] = []
        for tileset in content.dataTilesets {
            // Each file's state, then its -wal file's.
            let now = tileset.files.flatMap { [FileState(path: $0.path), FileState(path: $0.path + "-wal")] }
            let before = states.withLock { $0[tileset.name] }
            guard let before, before != now else {
                states.withLock { $0[tileset.name] = now }
                continue
            }
            let replaced = stride(from: 0, to: now.count, by: 2).contains { index in
                now[index] != nil
                    && (before[index]?.device != now[index]?.device || before[index]?.inode != now[index]?.inode)
            }
            let replacedGeneration: Int
            if replaced {
                do throws(TilesetsError) {
                    replacedGeneration = try tileset.reopen()
                } catch {
                    // Not whole yet (or unreadable): the old file stays served; tried again next time.
                    if failing.withLock({ $0.insert(tileset.name).inserted }) {
                        server.logger.warning(
                            "tileset \(tileset.name): the file was replaced but cannot be opened; still serving the old one: \(error.description)"
                        )
                    }
                    continue
                }
                failing.withLock { _ = $0.remove(tileset.name) }
                server.logger.info("tileset \(tileset.name): the file was replaced; it is served from the new file")
            } else {
                replacedGeneration = tileset.advanceGeneration()
                server.logger.info("tileset \(tileset.name): the file changed; its tiles are read again")
            }
            states.withLock { $0[tileset.name] = now }
            server.urlsChanged()
            server.memory.removeAll(source: .tileset(tileset.name, generation: replacedGeneration))
            changed.append(tileset.name)
        }
        return changed
    }

    /// What `stat` says of a file (through FileManager), or `nil` when there is none.
    struct FileState: Equatable, Sendable {
        let device: UInt64, inode: UInt64, size: Int64, modified: Date

        init?(path: String) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
                let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value,
                let size = (attributes[.size] as? NSNumber)?.int64Value,
                let modified = attributes[.modificationDate] as? Date
            else { return nil }
            (self.device, self.inode, self.size, self.modified) = (device, inode, size, modified)
        }
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
