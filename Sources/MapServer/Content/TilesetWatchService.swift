import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Tilesets

/// Notices changes to the served tileset files and drops a changed tileset's tiles from memory,
/// so that an export writing into a served MBTiles file (its WAL grows, or is checkpointed) is
/// seen on the next request. A file's state is its device, inode, size and modification time,
/// and, for MBTiles, those of its `-wal` file beside it.
public final class TilesetWatcher: Sendable {
    let server: MapTileServer
    private let states = Mutex<[String: [FileState?]]>([:])

    public init(server: MapTileServer) { self.server = server }

    /// Compares each served tileset file with what the last check saw (the first check only
    /// looks); drops the tiles of those that changed and returns their names.
    @discardableResult
    public func check() -> [String] {
        guard let content = try? server.servedContent() else { return [] }
        var changed: [String] = []
        for tileset in content.tilesets {
            let url = tileset.reader.url
            let now = [FileState(path: url.path), FileState(path: url.path + "-wal")]
            let before = states.withLock { states in
                defer { states[tileset.name] = now }
                return states[tileset.name]
            }
            if let before, before != now {
                server.memory.removeAll(source: .tileset(tileset.name))
                server.logger.info("tileset \(tileset.name): the file changed; its tiles are read again")
                changed.append(tileset.name)
            }
        }
        return changed
    }

    /// What `stat` says of a file, or `nil` when there is none.
    struct FileState: Equatable, Sendable {
        let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = info.st_mtim.tv_sec
            nanoseconds = info.st_mtim.tv_nsec
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
