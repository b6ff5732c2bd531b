import Foundation
import MapUtilities
import Synchronization
package import VectorTiles

extension MapData {
    /// The glyph range file at `path` (a style's `glyphs` template filled in), read once and
    /// kept; nil when it is missing or cannot be decoded (its characters are then not drawn).
    package func glyphRange(atPath path: String) -> GlyphRange? {
        if let kept = caches.withLock({ $0.glyphRanges[path] }) { return kept }
        let range = (try? Data(readingFile: URL(fileURLWithPath: path), maximumBytes: 16 << 20)).flatMap {
            try? GlyphRange(data: [UInt8]($0))
        }
        caches.withLock { $0.glyphRanges[path] = .some(range) }
        return range
    }
}
