import MapCLI
import NIOCore
import NIOPosix

// `serve` runs its request handlers on the event loops that do its I/O: Swift concurrency's
// global executor becomes NIO's event loop group, so a request does not hop between thread pools
// (renders still run on their own threads). Only the executable does this, once, on the main
// thread, before anything else runs: it changes the whole process.
if CommandLine.arguments.dropFirst().first == "serve" {
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
}
// A command that draws text starts loading fonts on another core while its arguments are parsed.
Mapwright.prepare(for: Array(CommandLine.arguments.dropFirst()))
Mapwright.runAndExit()
