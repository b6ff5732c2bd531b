import Hummingbird
import NIOCore
import NIOPosix

/// NIO's event loops as a Swift task executor: the executor the server's code runs on in
/// production, where `mapwright`'s entry point installs the same loops (`NIOSingletons`' group,
/// the one Hummingbird listens on) as Swift concurrency's global executor. Jobs are spread over
/// the loops as that global executor spreads them.
///
/// A test process cannot install a global executor (tests have started tasks before any test
/// code runs), so the tests prefer this executor for the server's responder only
/// (``OnEventLoops``): the server's work then runs on the loops, as in production, and a
/// handler that blocks its loop stalls the server's own I/O here as it would there, while test
/// bodies, which may wait, stay on the default executor.
final class EventLoopExecutor: TaskExecutor {
    /// The executor over `NIOSingletons.posixEventLoopGroup`.
    static let shared = EventLoopExecutor(group: NIOSingletons.posixEventLoopGroup)

    let group: any EventLoopGroup

    init(group: any EventLoopGroup) {
        self.group = group
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        group.next().execute { job.runSynchronously(on: executor) }
    }
}

/// A responder whose every answer is made on NIO's event loops (``EventLoopExecutor``).
struct OnEventLoops<Next: HTTPResponder>: HTTPResponder {
    let next: Next

    func respond(to request: Request, context: Next.Context) async throws -> Response {
        try await withTaskExecutorPreference(EventLoopExecutor.shared) {
            try await next.respond(to: request, context: context)
        }
    }
}
