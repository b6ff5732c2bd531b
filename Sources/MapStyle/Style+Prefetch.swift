import Dispatch
public import Foundation
import MapUtilities
import Synchronization

extension Style {
    /// Starts loading the style file at `url` on another thread, and returns at once: the next
    /// ``load(from:)`` of the same URL, its file unchanged since (device, inode, size and
    /// modification and status-change times, ``MapUtilities/FileIdentity``), takes that load's style and warnings, waiting for it if need be,
    /// instead of reading and decoding the file again. Any other load reads its file as usual.
    ///
    /// For a command line that can tell its style file from its arguments before it has parsed
    /// them: parsing and a style's decoding each take ~5 ms of one core, and run side by side.
    /// One file is kept, until a load takes it or another prefetch replaces it; nothing is kept
    /// when the file cannot be found.
    public static func prefetch(from url: URL) {
        guard let identity = FileIdentity(path: url.path) else { return }
        let prefetched = PrefetchedStyle(url: url, identity: identity)
        pendingPrefetch.withLock { $0 = prefetched }
        DispatchQueue.global(qos: .userInitiated).async {
            prefetched.finish(Result { () throws(StyleError) in try read(from: url) })
        }
    }

    /// The prefetched load of `url`'s file, taken (see ``prefetch(from:)``): nil when none was
    /// started for it, when it failed (a load again says why), or when the file changed since.
    static func takePrefetched(_ url: URL) -> (style: Style, warnings: [StyleWarning])? {
        let prefetched = pendingPrefetch.withLock { pending -> PrefetchedStyle? in
            guard let found = pending, found.url == url else { return nil }
            pending = nil
            return found
        }
        guard let prefetched, case .success(let loaded) = prefetched.outcome(),
            FileIdentity(path: url.path) == prefetched.identity
        else { return nil }
        return loaded
    }

    /// The load ``prefetch(from:)`` started, until taken.
    private static let pendingPrefetch = Mutex<PrefetchedStyle?>(nil)
}

/// One prefetched style load: its file, and its outcome once the other thread has it.
private final class PrefetchedStyle: Sendable {
    /// The file, as the load that takes it names it.
    let url: URL
    /// The file as it was when the load started.
    let identity: FileIdentity
    private let result = Mutex<Result<(style: Style, warnings: [StyleWarning]), StyleError>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(url: URL, identity: FileIdentity) {
        self.url = url
        self.identity = identity
    }

    /// Records the load's outcome and wakes the thread waiting for it.
    func finish(_ outcome: Result<(style: Style, warnings: [StyleWarning]), StyleError>) {
        result.withLock { $0 = outcome }
        done.signal()
    }

    /// The load's outcome, waiting for it.
    func outcome() -> Result<(style: Style, warnings: [StyleWarning]), StyleError> {
        done.wait()
        done.signal()
        return result.withLock { $0! }
    }
}
