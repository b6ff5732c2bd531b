public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Data {
    /// The bytes of the file at `url`, or why they cannot be read, in plain words.
    ///
    /// Foundation's own errors read "The operation could not be completed. (NSCocoaErrorDomain
    /// error 256.)" for a folder on Linux; ``MapUtilitiesError/reason`` says "it is a folder, not a
    /// file" instead. For example:
    ///
    /// ```swift
    /// do { let bytes = try Data(readingFile: URL(fileURLWithPath: "walk.gpx")) }
    /// catch { print(error) } // walk.gpx: cannot read the file: there is no such file
    /// ```
    ///
    /// - Parameters:
    ///   - url: A `file:` URL.
    ///   - mapped: Map the file into memory rather than copy it (large files read in part). The
    ///     default is `false`.
    ///   - maximumBytes: The largest file read; a larger one is refused before any byte is read,
    ///     the reason naming the cap ("it is 3.1 GiB, over the 1 GiB limit for this kind of
    ///     file"). The default has no limit.
    /// - Throws: ``MapUtilitiesError`` with the path as given and the reason.
    public init(readingFile url: URL, mapped: Bool = false, maximumBytes: Int = .max) throws(MapUtilitiesError) {
        // stat(2) rather than FileManager's attributes, which look up the owner's and group's
        // names too (the password and group databases, through nscd when it runs).
        var status = stat()
        if maximumBytes < .max, stat(url.path, &status) == 0, case let size = Int(status.st_size), size > maximumBytes {
            let sizeText = Self.byteCountText(size)
            let limitText = Self.byteCountText(maximumBytes)
            // Just over the cap, rounded sizes would read alike ("2.0 GiB, over the 2 GiB limit"): say the bytes.
            let alike =
                sizeText.replacingOccurrences(of: ".0 ", with: " ")
                == limitText.replacingOccurrences(of: ".0 ", with: " ")
            throw MapUtilitiesError.unreadableFile(
                path: url.path,
                reason: alike
                    ? "it is \(size) bytes, over the \(limitText) (\(maximumBytes) bytes) limit for this kind of file"
                    : "it is \(sizeText), over the \(limitText) limit for this kind of file")
        }
        do {
            self = try Data(contentsOf: url, options: mapped ? .alwaysMapped : [])
        } catch {
            throw MapUtilitiesError.unreadableFile(
                path: url.path, reason: MapUtilitiesError.reason(readingAt: url.path))
        }
    }

    /// A byte count for people: "512 bytes", "64 MiB", "3.1 GiB" (binary units, one decimal
    /// below 10 of a unit when it is not whole). The package's one byte-count text: messages
    /// about limits, `tiles info`'s sizes and `tiles export`'s estimate all use it.
    public static func byteCountText(_ bytes: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1_024, unit < units.count - 1 {
            value /= 1_024
            unit += 1
        }
        if unit == 0 { return "\(bytes) bytes" }
        let whole = value.rounded(.down) == value || value >= 10
        return whole ? "\(Int(value.rounded())) \(units[unit])" : "\(String(format: "%.1f", value)) \(units[unit])"
    }
}
