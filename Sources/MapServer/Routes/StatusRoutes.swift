import Foundation
import Hummingbird

/// `/health` (503 while starting, 200 when ready) and `/metrics` (Prometheus text).
struct StatusRoutes {
    let server: MapTileServer

    func add(to router: Router<ServeRequestContext>) {
        router.get("/health") { _, _ -> Response in
            let ready = server.isReady
            return Response(
                status: ready ? .ok : .serviceUnavailable,
                headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: ready ? "ok\n" : "starting\n")))
        }
        router.get("/metrics") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: server.metrics.exposition())))
        }
    }
}
