import Foundation
import MapUtilities
import TileSources

extension TileSource {
    /// The source as messages name it: a file's path relative to the working directory when it
    /// is inside it (see `URL.displayPath`), else its ``TileSources/TileSource/sourceDescription``.
    var displayPath: String { fileURL?.displayPath ?? sourceDescription }

    /// The source's file with symbolic links resolved, to tell whether an output is the source itself.
    var resolvedFilePath: String? { fileURL?.standardizedFileURL.resolvingSymlinksInPath().path }
}
