import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

extension URLSession {
    /// One request, waited for: its data, response and error as the completion handler gets them.
    /// Blocks the calling thread; call it from a thread that may block.
    func waitingDataTask(with request: URLRequest) -> (Data?, URLResponse?, (any Error)?) {
        let answer = Mutex<(Data?, URLResponse?, (any Error)?)>((nil, nil, nil))
        let done = DispatchSemaphore(value: 0)
        dataTask(with: request) { data, response, error in
            answer.withLock { $0 = (data, response, error) }
            done.signal()
        }.resume()
        done.wait()
        return answer.withLock { $0 }
    }

    /// An ephemeral session that keeps no cache of its own, with the timeout and connection limit given.
    static func uncached(timeoutSeconds: Double, maximumConnectionsPerHost: Int? = nil) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        if let maximumConnectionsPerHost { configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost }
        return URLSession(configuration: configuration)
    }
}
