import Foundation
import MapCore
import TileSources

/// A metadata key two merged files give different values.
public struct MBTilesMetadataConflict: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value the merged file keeps: the one it had.
    public var keptValue: String
    /// The value the file merged in has.
    public var otherValue: String
}

extension TileMetadata {
    /// The metadata rows of a file with the tiles of two: `bounds` is the box around both,
    /// `minzoom` the lower and `maxzoom` the higher, other keys keep the first file's value (the
    /// second's when the first has none), and `agg_tiles_hash` is left out (the tiles changed).
    ///
    /// - Parameters:
    ///   - first: The rows of the file merged into.
    ///   - second: The rows of the file merged in.
    /// - Returns: The merged rows, and the keys whose values differed (other than those combined).
    static func mergedRows(_ first: [String: String], _ second: [String: String]) -> (
        rows: [String: String], conflicts: [MBTilesMetadataConflict]
    ) {
        var rows = first
        var conflicts: [MBTilesMetadataConflict] = []
        let mine = try? TileMetadata(rows: first, path: "")
        let theirs = try? TileMetadata(rows: second, path: "")
        for (key, value) in second.sorted(by: { $0.key < $1.key }) {
            guard let kept = first[key], !kept.isEmpty else {
                rows[key] = value
                continue
            }
            switch key {
            case "bounds":
                if let a = mine?.bounds, let b = theirs?.bounds {
                    var union = TileMetadata()
                    union.bounds = a.union(b)
                    rows[key] = union.rows["bounds"]
                    continue
                }
            case "minzoom":
                if let a = mine?.minZoom, let b = theirs?.minZoom {
                    rows[key] = String(min(a, b))
                    continue
                }
            case "maxzoom":
                if let a = mine?.maxZoom, let b = theirs?.maxZoom {
                    rows[key] = String(max(a, b))
                    continue
                }
            case MBTilesStore.aggregateTilesHashKey:
                continue
            default:
                break
            }
            if kept != value { conflicts.append(MBTilesMetadataConflict(key: key, keptValue: kept, otherValue: value)) }
        }
        rows[MBTilesStore.aggregateTilesHashKey] = nil
        return (rows, conflicts)
    }
}
