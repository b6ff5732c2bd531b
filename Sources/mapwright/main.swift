import MapCLI
import NIOCore
import NIOPosix

// `serve` runs its request handlers on the event loops that do its I/O: Swift concurrency's
// global executor becomes NIO's event loop group, so a request does not hop between thread pools
// (renders still run on their own threads). Only the executable does this, once, on the main
// thread, before anything else runs: it changes the whole process.
if CommandLine.arguments.dropFirst().first == "serve" {
    // Two malloc arenas for the whole server instead of glibc's eight per core, set before any
    // thread starts: each thread that renders, reads or answers otherwise keeps an arena of its
    // own, whose freed pages stay resident. -8 is M_ARENA_MAX (malloc.h).
    _ = mallopt(-8, 2)
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}
// A command that draws text starts loading fonts on another core while its arguments are parsed.
Mapwright.prepare(for: Array(CommandLine.arguments.dropFirst()))
Mapwright.runAndExit()

/// glibc's `mallopt(3)` (malloc.h is not in Swift's Glibc module).
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
