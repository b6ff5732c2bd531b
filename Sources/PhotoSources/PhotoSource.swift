public import Foundation

/// A file or folder that photos are read from.
///
/// The four sources are ``JPEGFolderSource``, ``FlickrJSONSource``, ``GeoJSONPhotoSource`` and
/// ``CSVPhotoSource``. ``PhotoCollection/load(from:)`` picks one by the file's type.
public protocol PhotoSource: Sendable {
    /// The file or folder the photos are read from.
    var url: URL { get }

    /// Reads every photo that has a location; photos without one are counted in the report.
    ///
    /// - Throws: ``PhotoSourceError``, naming the file and the entry or line at fault.
    func load() throws(PhotoSourceError) -> PhotoCollection
}
