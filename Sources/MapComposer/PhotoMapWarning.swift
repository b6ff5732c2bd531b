import Foundation
import PhotoSources

/// A problem that does not stop a photo map: the map is drawn, and the problem is shown as a
/// warning, one line naming the file or folder.
public enum PhotoMapWarning: Hashable, Sendable, CustomStringConvertible {
    /// The thumbnail cache folder cannot be written; the thumbnail was made and is drawn, but
    /// is made again on the next run. Holds ``PhotoSourceError/cacheUnwritable(directory:reason:)``.
    case thumbnailNotCached(PhotoSourceError)
    /// The selected photo's thumbnail cannot be made (the JPEG cannot be read or decoded); the
    /// callout is drawn without it.
    case thumbnailUnavailable(PhotoSourceError)

    public var description: String {
        switch self {
        case .thumbnailNotCached(let error):
            return "\(error); thumbnails are made again on every run"
        case .thumbnailUnavailable(let error):
            return "\(error); the callout is drawn without a thumbnail"
        }
    }
}
