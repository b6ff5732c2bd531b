import Hummingbird
import HummingbirdTesting
import NIOPosix
import Testing

/// The tests' servers answer on NIO's event loops, as `serve` does in production; test bodies do not.
struct EventLoopExecutorTests {
    @Test func answersAreMadeOnTheEventLoopsAndTestBodiesAreNot() async throws {
        let router = Router()
        router.get("where") { _, _ in MultiThreadedEventLoopGroup.currentEventLoop == nil ? "elsewhere" : "event loop" }
        let application = Application(responder: OnEventLoops(next: router.buildResponder()))
        for setup in [TestingSetup.router, .live] {
            try await application.test(setup) { client in
                #expect(MultiThreadedEventLoopGroup.currentEventLoop == nil)
                try await client.execute(uri: "/where", method: .get) { response in
                    #expect(String(buffer: response.body) == "event loop")
                }
            }
        }
        // Without the preference, the router test client answers on the default executor.
        try await Application(responder: router.buildResponder()).test(.router) { client in
            try await client.execute(uri: "/where", method: .get) { response in
                #expect(String(buffer: response.body) == "elsewhere")
            }
        }
    }
}
