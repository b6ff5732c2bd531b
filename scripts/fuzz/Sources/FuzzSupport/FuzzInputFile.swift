import Foundation
import Glibc

/// One file that holds the current input, for parsers that only read files (libexif through a
/// JPEG file, a CSV photo file, an SQLite or PMTiles archive).
///
/// The file lives in a folder of its own made with `mkdtemp` (mode 0700) under `$TMPDIR`, or
/// `/tmp` when that is unset, and is written with `O_NOFOLLOW` and mode 0600, so nothing else
/// can swap or read it. Each process has one such folder; it is removed when the process exits
/// normally (a crashing process leaves it, with the input that crashed it).
public enum FuzzInputFile {
    private nonisolated(unsafe) static var folder: String?

    /// Writes `count` bytes at `start` into the file called `name` in the process's folder and
    /// returns its URL. Any failure to write stops the process: a fuzzer that cannot hand its
    /// input over would report nothing.
    public static func write(_ start: UnsafePointer<UInt8>, _ count: Int, name: String) -> URL {
        let path = privateFolder() + "/" + name
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { fatalError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var written = 0
        while written < count {
            let result = Glibc.write(descriptor, start + written, count - written)
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { fatalError("cannot write \(path): \(String(cString: strerror(errno)))") }
            written += result
        }
        return URL(fileURLWithPath: path)
    }

    /// The process's private folder, made on first use.
    private static func privateFolder() -> String {
        if let folder { return folder }
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/mapwright-fuzz-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            fatalError("cannot make a temporary folder under \(base): \(String(cString: strerror(errno)))")
        }
        let path = String(cString: made)
        folder = path
        atexit {
            guard let folder = FuzzInputFile.folder else { return }
            try? FileManager.default.removeItem(atPath: folder)
        }
        return path
    }
}
