public import Foundation
public import MapUtilities

/// Small files a style names by URL (its sprite sheets: `sprite.json`, `sprite@2x.png`), fetched
/// over HTTP and kept in a cache folder, as MapLibre keeps a style's resources in its ambient cache.
///
/// For example, the image index of a published style's sprite:
///
/// ```swift
/// let cache = HTTPFileCache()
/// let index = try cache.data(from: URL(string: "https://example.org/sprites/bright@2x.json")!, maximumBytes: 64 << 20)
/// ```
///
/// - **Fresh copies.** A file fetched less than ``maximumAgeSeconds`` ago (by default a day) is
///   read from the cache without a request, so a batch of renders asks once.
/// - **Older copies** are asked for again, with `If-None-Match` (the `ETag` the server sent) so
///   an unchanged file costs a `304 Not Modified`; a changed one replaces the copy atomically.
/// - **Offline.** When the host cannot be reached, an older copy is used rather than none; with
///   no copy the error names the host and the reason (``TilesetsError/offline(url:reason:)``).
/// - **Answers.** Anything but `200`/`304` is ``TilesetsError/httpStatus(url:status:)``, an
///   answer longer than the limit ``TilesetsError/requestFailed(url:reason:)``; neither is kept.
///
/// ``data(from:maximumBytes:)`` blocks the calling thread until the answer (or
/// ``timeoutSeconds``); call it from a thread that may block, as the renderer's do.
public struct HTTPFileCache: Hashable, Sendable {
    /// The folder of the copies, created when missing; nil keeps none. The default is `files/`
    /// in the user's tile cache (`~/.cache/mapwright/tiles/files`), where `MapData` keeps them.
    public var directory: URL?
    /// How long a copy is used without asking the server again, in seconds. The default is
    /// 86,400 (a day).
    public var maximumAgeSeconds: Double
    /// How long a request may wait for the server, in seconds. The default is 15.
    public var timeoutSeconds: Double
    /// The `User-Agent` header. The default is ``HTTPTileSource/defaultUserAgent``.
    public var userAgent: String

    /// Creates a cache; see each property for its default.
    public init(
        directory: URL? = UserDirectories().tileCacheDirectory.appendingPathComponent("files", isDirectory: true),
        maximumAgeSeconds: Double = 86_400, timeoutSeconds: Double = 15,
        userAgent: String = HTTPTileSource.defaultUserAgent
    ) {
        self.directory = directory
        self.maximumAgeSeconds = maximumAgeSeconds
        self.timeoutSeconds = timeoutSeconds
        self.userAgent = userAgent
    }

    /// The file at `url`: the cached copy while it is fresh, else the server's answer (kept for
    /// next time), else an older copy when the server cannot be reached.
    ///
    /// - Parameter maximumBytes: The largest answer taken.
    /// - Throws: ``TilesetsError/offline(url:reason:)`` with no copy to fall back on,
    ///   ``TilesetsError/httpStatus(url:status:)``, ``TilesetsError/requestFailed(url:reason:)``.
    public func data(from url: URL, maximumBytes: Int) throws(TilesetsError) -> Data {
        let address = url.absoluteString
        let copy = cachedCopy(of: address, maximumBytes: maximumBytes)
        if let copy, Date().timeIntervalSince(copy.fetched) < maximumAgeSeconds { return copy.data }

        var headers: [(name: String, value: String)] = []
        if let tag = copy?.entityTag { headers.append((name: "If-None-Match", value: tag)) }
        let answer = HTTPClient(idleTimeoutSeconds: timeoutSeconds, userAgent: userAgent, keptConnections: 0).get(
            address, headers: headers)
        let response = try? answer.get()
        if response?.statusCode == 304, let copy {
            keep(copy.data, entityTag: copy.entityTag, for: address)
            return copy.data
        }
        switch HTTPTileSource.outcome(answer, url: address, timeoutSeconds: timeoutSeconds) {
        case .failed(.offline(let failedURL, let reason)):
            if let copy { return copy.data }
            throw .offline(url: failedURL, reason: reason)
        case .failed(let failure):
            throw failure
        case .missing:
            throw .httpStatus(url: address, status: response?.statusCode ?? 404)
        case .data(let body):
            let status = response?.statusCode ?? 200
            guard status == 200 else { throw .httpStatus(url: address, status: status) }
            guard body.count <= maximumBytes else {
                throw .requestFailed(
                    url: address,
                    reason: "the answer is larger than \(maximumBytes.formatted(.byteCount(style: .file)))")
            }
            keep(body, entityTag: response?.value(forHeader: "ETag"), for: address)
            return body
        }
    }

    private func copyURL(for address: String) -> URL? {
        guard let directory else { return nil }
        let name =
            URL(string: address)?.lastPathComponent.filter { $0.isLetter || $0.isNumber || "@._-".contains($0) } ?? ""
        return directory.appendingPathComponent("\(FNV1a(address.utf8).hexDigits)-\(name.prefix(64))")
    }

    private func cachedCopy(of address: String, maximumBytes: Int) -> (data: Data, entityTag: String?, fetched: Date)? {
        guard let file = copyURL(for: address),
            let data = try? Data(readingFile: file, maximumBytes: maximumBytes),
            let fetched = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
        else { return nil }
        let tag = (try? Data(readingFile: file.appendingPathExtension("etag"), maximumBytes: 1024)).map {
            String(decoding: $0, as: UTF8.self)
        }
        return (data, tag, fetched)
    }

    /// Writes a copy (its modification time is when it was fetched or confirmed); a cache that
    /// cannot be written is not an error: the file is simply asked for again next time.
    private func keep(_ data: Data, entityTag: String?, for address: String) {
        guard let file = copyURL(for: address), let directory else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? AtomicFile.write(data, to: file)
        let tagFile = file.appendingPathExtension("etag")
        if let entityTag {
            try? AtomicFile.write(Data(entityTag.utf8), to: tagFile)
        } else {
            try? FileManager.default.removeItem(at: tagFile)
        }
    }
}
