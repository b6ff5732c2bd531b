import ServiceLifecycle

/// Checks the served photo library for changes every
/// ``ServerConfiguration/photoCheckIntervalSeconds`` (``MapTileServer/refreshPhotosIfChanged()``),
/// so that requests never do; does nothing when no ``PhotoFeed`` is served. It stops on graceful
/// shutdown: the wait between checks is cancelled, and a check under way finishes first.
struct PhotoLibraryWatchService: Service {
    let server: MapTileServer

    func run() async throws {
        let interval = max(0.01, server.configuration.photoCheckIntervalSeconds)
        do {
            try await cancelWhenGracefulShutdown {
                while true {
                    await server.refreshPhotosIfChanged()
                    try await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                }
            }
        } catch is CancellationError {}
    }
}
