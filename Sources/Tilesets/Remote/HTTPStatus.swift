/// Reason phrases of the HTTP status codes tile servers answer with (RFC 9110 §15).
enum HTTPStatus {
    static func phrase(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: status >= 500 ? "server error" : status >= 400 ? "client error" : "unexpected status"
        }
    }
}
