import Foundation
import MapJSON

extension JSONValue {
    /// Reads and parses a JSON file.
    ///
    /// - Throws: ``PhotoSourceError/unreadable(file:reason:)`` or
    ///   ``PhotoSourceError/malformed(file:reason:)`` saying where the syntax breaks.
    static func read(from url: URL) throws(PhotoSourceError) -> JSONValue {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .unreadable(file: url, reason: error.localizedDescription)
        }
        do { return try parse(data) } catch { throw .malformed(file: url, reason: error.reason) }
    }
}
