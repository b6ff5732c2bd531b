public import Foundation

extension URL {
    /// The executable `name` in the first folder of `searchPath` (a `PATH`, folders joined by
    /// `:`) that has it, then in `fallbacks` (full paths); nil when none does. What the tools
    /// Mapwright runs (ffmpeg, tilemaker) are found with.
    public static func executable(named name: String, searchPath: String, fallbacks: [String] = []) -> URL? {
        let candidates = searchPath.split(separator: ":").filter { !$0.isEmpty }.map { "\($0)/\(name)" } + fallbacks
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }
}
