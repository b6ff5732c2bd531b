public import Foundation
public import PMTiles
import Synchronization

/// A PMTiles archive on a web server (a Protomaps build, an archive on object storage), read
/// with HTTP range requests: the ``PMTiles/PMTilesByteSource`` of a remote ``PMTiles/PMTilesReader``.
///
/// For example:
///
/// ```swift
/// let archive = try PMTilesReader(source: HTTPRangeSource(url: URL(string: "https://example.org/city.pmtiles")!))
/// let tiles = try archive.tiles(at: cover)   // leaf directories, then tiles, in parallel
/// ```
///
/// `TileSourceLocation.file(_:)` opens an `http(s)` URL this way.
///
/// - **Requests.** Opening asks for the first 16,384 bytes (the header and root directory, as
///   PMTiles clients do); leaf directories and tiles are then asked for by range, at most
///   ``HTTPTileSource/Configuration/maximumConcurrentRequests`` at once, each with the
///   configuration's `User-Agent` and timeout.
/// - **Versions.** The first answer's `ETag` is the version read: every later request carries
///   `If-Match` with it, and an answer `412 Precondition Failed` or with another `ETag` means
///   the archive was replaced (``PMTiles/PMTilesError/archiveChanged(path:)``): the reader then
///   reads the new header and directories. An archive served without an `ETag` is read but not
///   kept on disk, and its replacement cannot be noticed.
/// - **Cache.** Ranges are kept on disk under the URL and `ETag` (see `HTTPRangeCache`), at
///   most ``HTTPTileSource/Configuration/archiveCacheLimitBytes`` (256 MiB by default) in
///   `~/.cache/mapwright/tiles/pmtiles/`; a range kept is not asked for again while the archive
///   keeps its `ETag`, and ranges of a replaced archive are never read.
/// - **Offline.** When the host cannot be reached, the archive as last read (its start is kept
///   with its ranges) is read from the cache: a map of places drawn before is drawn again; a
///   range not kept fails naming the host.
/// - **Retries.** An answer 5xx or 429, or a lost connection, is retried with exponential
///   backoff (``HTTPTileSource/Configuration/maximumAttempts``, 3 in all by default, waiting
///   0.5 s then 1 s); other 4xx answers are not.
/// - **Errors** are ``PMTiles/PMTilesError/requestFailed(url:reason:)``, one line naming the URL:
///   a server that answers a range request with the whole file (`200 OK`, not `206 Partial
///   Content`) "ignores Range requests"; `404` is "the server answered HTTP 404 (Not Found)".
///
/// Reads block the calling thread until their answers; call them from a thread that may block.
public final class HTTPRangeSource: PMTilesByteSource {
    /// The archive.
    public let url: URL
    /// How requests are made and where ranges are kept.
    public let configuration: HTTPTileSource.Configuration
    private let client: HTTPClient
    private let cache: HTTPRangeCache?

    /// Creates a source; nothing is requested until the reader starts.
    ///
    /// - Parameters:
    ///   - url: The archive's `http` or `https` URL.
    ///   - configuration: Requests and cache. The default is the user's cache folder, 256 MiB.
    public init(url: URL, configuration: HTTPTileSource.Configuration = HTTPTileSource.Configuration()) {
        self.url = url
        self.configuration = configuration
        client = HTTPClient(
            idleTimeoutSeconds: configuration.timeoutSeconds, userAgent: configuration.userAgent,
            keptConnections: configuration.maximumConcurrentRequests)
        cache = configuration.archiveCacheDirectory.flatMap {
            HTTPRangeCache(directory: $0, limitBytes: configuration.archiveCacheLimitBytes)
        }
    }

    /// Whether a URL is one this source reads: `http` or `https`.
    public static func isRemote(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    }

    /// The URL an argument or a registry entry names when it is an `http(s)` URL (a remote
    /// archive), else nil (a path).
    ///
    /// For example, `remoteURL("https://example.org/city.pmtiles")` is that URL, and
    /// `remoteURL("city.pmtiles")` is nil.
    public static func remoteURL(_ text: String) -> URL? {
        let lowercased = text.lowercased()
        guard lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://"), let url = URL(string: text),
            url.host != nil
        else { return nil }
        return url
    }

    /// The first `byteCount` bytes, with the archive's length and `ETag`, in one request.
    ///
    /// - Throws: ``PMTiles/PMTilesError/requestFailed(url:reason:)`` naming the URL.
    /// When the host cannot be reached, the start kept from the last run is used (its version's
    /// ranges kept on disk are then read; others fail naming the host).
    public func start(byteCount: Int) throws(PMTilesError) -> PMTilesArchiveStart {
        let range = PMTilesByteRange(offset: 0, count: byteCount)
        let answer: Answer
        do throws(PMTilesError) {
            answer = try fetch(range, version: nil, allowingShorter: true)
        } catch {
            if case .requestFailed(_, let reason) = error, reason.hasPrefix(Self.offlinePrefix),
                let kept = cache?.start(of: url.absoluteString), kept.bytes.count <= byteCount
            {
                return kept
            }
            throw error
        }
        let start = PMTilesArchiveStart(
            bytes: [UInt8](answer.data), archiveByteCount: answer.archiveByteCount, version: answer.entityTag)
        if answer.entityTag != nil { cache?.keepStart(start, of: url.absoluteString) }
        return start
    }

    /// How the reason of a failure to reach the host starts: `cannot reach HOST: ...`.
    static let offlinePrefix = "cannot reach "

    /// The bytes of `ranges` of the archive at `version`: from the disk cache, the rest asked
    /// for in parallel (each distinct range once) and kept.
    ///
    /// - Throws: ``PMTiles/PMTilesError/archiveChanged(path:)`` when the archive's `ETag` is no
    ///   longer `version`; ``PMTiles/PMTilesError/requestFailed(url:reason:)`` for the first
    ///   range, in the order given, that cannot be read.
    public func data(at ranges: [PMTilesByteRange], version: String?) throws(PMTilesError) -> [Data] {
        var found =
            version.flatMap { version in cache?.data(of: url.absoluteString, version: version, ranges: ranges) } ?? [:]
        var missing: [PMTilesByteRange] = []
        var asked = Set<PMTilesByteRange>()
        for range in ranges where found[range] == nil && range.count > 0 && asked.insert(range).inserted {
            missing.append(range)
        }
        for range in ranges where range.count == 0 { found[range] = Data() }
        let outcomes = fetchAll(missing, version: version)
        var fetched: [PMTilesByteRange: Data] = [:]
        var failure: PMTilesError?
        for (range, outcome) in zip(missing, outcomes) {
            switch outcome {
            case .success(let answer): fetched[range] = answer.data
            case .failure(let error):
                if case .archiveChanged = error { throw error }
                failure = failure ?? error
            }
        }
        if let version, !fetched.isEmpty { cache?.store(fetched, of: url.absoluteString, version: version) }
        if let failure { throw failure }
        found.merge(fetched) { cached, _ in cached }
        return ranges.map { found[$0] ?? Data() }
    }

    // MARK: - Requests

    /// A range's answer: its bytes, the archive's length and `ETag`.
    struct Answer: Sendable {
        var data: Data
        var archiveByteCount: UInt64
        var entityTag: String?
    }

    /// Fetches ranges, at most ``HTTPTileSource/Configuration/maximumConcurrentRequests`` at
    /// once; the outcomes are in the ranges' order.
    private func fetchAll(_ ranges: [PMTilesByteRange], version: String?) -> [Result<Answer, PMTilesError>] {
        guard ranges.count > 1 else {
            return ranges.map { range in Result { () throws(PMTilesError) in try fetch(range, version: version) } }
        }
        let batch = RangeBatch(count: ranges.count)
        let group = DispatchGroup()
        for _ in 0..<min(configuration.maximumConcurrentRequests, ranges.count) {
            DispatchQueue.global().async(group: group) {
                while let index = batch.nextIndex() {
                    batch.record(
                        Result { () throws(PMTilesError) in try self.fetch(ranges[index], version: version) }, at: index
                    )
                }
            }
        }
        group.wait()
        return batch.outcomes
    }

    /// The outcomes of one batch's requests, and which range the next free worker takes.
    private final class RangeBatch: Sendable {
        private let state: Mutex<(next: Int, outcomes: [Result<Answer, PMTilesError>?])>
        private let count: Int

        init(count: Int) {
            self.count = count
            state = Mutex((0, Array(repeating: nil, count: count)))
        }

        func nextIndex() -> Int? {
            state.withLock { state in
                guard state.next < count else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }

        func record(_ outcome: Result<Answer, PMTilesError>, at index: Int) {
            state.withLock { $0.outcomes[index] = outcome }
        }

        var outcomes: [Result<Answer, PMTilesError>] {
            state.withLock {
                $0.outcomes.map { $0 ?? .failure(.requestFailed(url: "", reason: "the request was not made")) }
            }
        }
    }

    /// One range, retried on 5xx, 429 and lost connections with exponential backoff.
    ///
    /// - Parameter allowingShorter: Whether the archive may end within the range (the first
    ///   request, of 16 KiB, of an archive that may be shorter).
    func fetch(_ range: PMTilesByteRange, version: String?, allowingShorter: Bool = false) throws(PMTilesError)
        -> Answer
    {
        var headers = [(name: "Range", value: "bytes=\(range.offset)-\(range.offset + UInt64(range.count) - 1)")]
        // A weak ETag never matches If-Match (RFC 9110 §13.1.1): such an archive is checked by the answers' ETags alone.
        if let version, !version.hasPrefix("W/") { headers.append((name: "If-Match", value: version)) }
        var attempt = 1
        while true {
            switch classify(
                client.get(url.absoluteString, headers: headers), range: range, version: version,
                allowingShorter: allowingShorter)
            {
            case .answer(let answer):
                return answer
            case .failure(let failure):
                throw failure
            case .retry(let reason):
                guard attempt < configuration.maximumAttempts else {
                    throw .requestFailed(url: url.absoluteString, reason: "\(reason) (\(attempt) attempts)")
                }
                Thread.sleep(forTimeInterval: configuration.retryDelaySeconds * Double(1 << (attempt - 1)))
                attempt += 1
            }
        }
    }

    /// What an answer to a range request comes to.
    enum Outcome {
        case answer(Answer)
        case retry(reason: String)
        case failure(PMTilesError)
    }

    /// Checks an answer: `206` with the range asked for and the version's `ETag`.
    func classify(
        _ answer: Result<HTTPAnswer, HTTPFailure>, range: PMTilesByteRange, version: String?, allowingShorter: Bool
    ) -> Outcome {
        let address = url.absoluteString
        let response: HTTPAnswer
        switch answer {
        case .success(let got):
            response = got
        case .failure(let failure):
            if failure.kind == .connectionLost { return .retry(reason: "the connection was lost") }
            if case .offline(_, let reason) = HTTPTileSource.error(
                failure, url: address, timeoutSeconds: configuration.timeoutSeconds)
            {
                return .failure(
                    .requestFailed(
                        url: address,
                        reason: "\(Self.offlinePrefix)\(TilesetsError.host(of: address)): \(reason) (offline?)"))
            }
            return .failure(.requestFailed(url: address, reason: failure.reason))
        }
        let status = response.statusCode
        let entityTag = response.value(forHeader: "ETag")
        switch status {
        case 206:
            break
        case 200:
            return .failure(
                .requestFailed(
                    url: address,
                    reason:
                        "the server ignores Range requests (it answered 200 OK with the whole file, not 206 Partial Content), and a PMTiles archive is read by ranges: download it and give the file"
                ))
        case 412:
            return .failure(.archiveChanged(path: address))
        case 416 where allowingShorter:
            return .failure(
                .requestFailed(
                    url: address, reason: "the archive is empty (the server answered 416 Range Not Satisfiable)"))
        case 429, 500...599:
            return .retry(reason: "the server answered HTTP \(status) (\(HTTPStatus.phrase(status)))")
        default:
            return .failure(
                .requestFailed(
                    url: address, reason: "the server answered HTTP \(status) (\(HTTPStatus.phrase(status)))"))
        }
        if let version, entityTag != version { return .failure(.archiveChanged(path: address)) }
        let body = response.body
        guard let contentRange = response.value(forHeader: "Content-Range").flatMap(ContentRange.init(header:)),
            contentRange.first == range.offset, UInt64(body.count) == contentRange.last - contentRange.first + 1
        else {
            return .failure(
                .requestFailed(
                    url: address,
                    reason:
                        "the answer to a request for bytes \(range.offset) to \(range.offset + UInt64(range.count) - 1) does not hold them (Content-Range: \(response.value(forHeader: "Content-Range") ?? "none"), \(body.count) bytes)"
                ))
        }
        guard body.count == range.count || allowingShorter && contentRange.last + 1 == contentRange.total else {
            return .failure(
                .requestFailed(
                    url: address,
                    reason:
                        "the server sent \(body.count) bytes for a range of \(range.count): the archive is shorter than its header says"
                ))
        }
        return .answer(Answer(data: body, archiveByteCount: contentRange.total, entityTag: entityTag))
    }
}

/// A `Content-Range` header's `bytes FIRST-LAST/TOTAL` (RFC 9110 §14.4).
struct ContentRange: Hashable, Sendable {
    var first: UInt64
    var last: UInt64
    var total: UInt64

    init?(header: String) {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes ") else { return nil }
        let parts = text.dropFirst(6).split(separator: "/")
        guard parts.count == 2, let total = UInt64(parts[1]) else { return nil }
        let bounds = parts[0].split(separator: "-")
        guard bounds.count == 2, let first = UInt64(bounds[0]), let last = UInt64(bounds[1]), first <= last,
            last < total
        else { return nil }
        self.first = first
        self.last = last
        self.total = total
    }
}
