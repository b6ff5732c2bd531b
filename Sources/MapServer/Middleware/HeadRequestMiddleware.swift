import Hummingbird

/// HEAD answered as GET is, without the body, on every GET route: the router makes each route's
/// HEAD endpoint from its GET (`RouterOptions.autoGenerateHeadEndpoints`, see ``buildRouter(server:)``)
/// and this middleware, outermost, drops the body of every HEAD response, errors' one-line
/// reasons included. Status and headers are GET's, `Content-Length`, `ETag` and CORS included; a
/// HEAD is logged and counted as itself. ``KeptTileResponder`` leaves HEAD to the router.
struct HeadRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .head else { return try await next(request, context) }
        do {
            return try await next(request, context).createHeadResponse()
        } catch let error as any HTTPResponseError {
            return try error.response(from: request, context: context).createHeadResponse()
        }
    }
}
