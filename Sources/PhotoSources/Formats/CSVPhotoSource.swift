import Foundation
import MapCore

/// Photos from a CSV file with a header line (RFC 4180).
///
/// The header names the columns, in any order and any case; `latitude` and `longitude` (degrees)
/// are required, `title`, `subtitle`, `photographer`, `image` and `thumbnail` are optional, and
/// other columns are ignored. For example:
///
/// ```
/// latitude,longitude,title,subtitle,photographer,image
/// 37.7459,-119.5332,Half Dome,"Moonrise, winter",Ansel Adams,photos/half-dome.jpg
/// ```
///
/// Relative `image` and `thumbnail` paths are resolved against the CSV file's folder. A row with
/// both coordinates empty, or at 0, 0, has no location: it is skipped and counted. A photo's id is
/// `<file name>:<line>`. Errors name the line, counting from 1 with the header.
public struct CSVPhotoSource: PhotoSource {
    public let url: URL

    /// Creates a source for the CSV file at `url`.
    public init(url: URL) {
        self.url = url
    }

    public func load() throws(PhotoSourceError) -> PhotoCollection {
        let bytes: [UInt8]
        do { bytes = Array(try Data(contentsOf: url)) } catch {
            throw .unreadable(file: url, reason: error.localizedDescription)
        }
        let records: [CSVRecord]
        do { records = try CSVReader.records(of: bytes) } catch {
            throw .invalidLine(file: url, line: error.line, problem: error.message)
        }
        guard let header = records.first else {
            throw .malformed(file: url, reason: "is empty: expected a header line such as \(Self.exampleHeader)")
        }
        let columnIndex = Dictionary(
            header.fields.enumerated().map { ($1.trimmingCharacters(in: .whitespaces).lowercased(), $0) },
            uniquingKeysWith: { first, _ in first }
        )
        for required in ["latitude", "longitude"] where columnIndex[required] == nil {
            throw .invalidLine(
                file: url, line: header.line,
                problem: "the header has no '\(required)' column; expected a header such as \(Self.exampleHeader)"
            )
        }
        let directory = url.deletingLastPathComponent()
        var photos: [Photo] = []
        var skipped = 0
        for record in records.dropFirst() {
            do {
                if let photo = try photo(from: record, header: header, columnIndex: columnIndex, directory: directory) {
                    photos.append(photo)
                } else {
                    skipped += 1
                }
            } catch {
                throw .invalidLine(file: url, line: record.line, problem: error.message)
            }
        }
        return PhotoCollection(photos: photos, report: PhotoLoadReport(skippedWithoutLocation: skipped))
    }

    private static let exampleHeader = "latitude,longitude,title,subtitle,photographer,image"

    /// One photo, or `nil` when the row has no location.
    private func photo(
        from record: CSVRecord, header: CSVRecord, columnIndex: [String: Int], directory: URL
    ) throws(EntryProblem) -> Photo? {
        guard record.fields.count == header.fields.count else {
            throw EntryProblem("has \(record.fields.count) fields, the header has \(header.fields.count)")
        }
        func field(_ name: String) -> String? { columnIndex[name].map { record.fields[$0] } }
        let latitude = try DegreesText.degrees(field("latitude") ?? "", name: "latitude")
        let longitude = try DegreesText.degrees(field("longitude") ?? "", name: "longitude")
        guard let coordinate = try DegreesText.coordinate(latitude: latitude, longitude: longitude) else {
            return nil
        }
        func reference(_ name: String) throws(EntryProblem) -> ImageReference? {
            guard let text = field(name), !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            guard let reference = ImageReference(text, relativeTo: directory) else {
                throw EntryProblem("\(name) '\(text)' is neither a path nor an http(s) URL")
            }
            return reference
        }
        return Photo(
            id: "\(url.lastPathComponent):\(record.line)",
            title: field("title"),
            subtitle: field("subtitle"),
            coordinate: coordinate,
            photographer: field("photographer"),
            image: try reference("image"),
            thumbnail: try reference("thumbnail")
        )
    }
}
