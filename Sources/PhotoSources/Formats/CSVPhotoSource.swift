import Foundation
import MapCore
import MapJSON

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
        let data: Data
        do { data = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw .unreadable(file: url, reason: error.localizedDescription)
        }
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<PhotoCollection, PhotoSourceError> in
            do throws(PhotoSourceError) {
                return .success(try load(raw.bindMemory(to: UInt8.self)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static let exampleHeader = "latitude,longitude,title,subtitle,photographer,image"

    /// The photos of the file's bytes, each made as its row is read.
    private func load(_ bytes: UnsafeBufferPointer<UInt8>) throws(PhotoSourceError) -> PhotoCollection {
        var reader: RowReader?
        var photos: [Photo] = []
        // One photo per line at most, less the header: the array never grows and copies.
        photos.reserveCapacity(max(0, CSVReader.lineBreakCount(in: bytes)))
        var skipped = 0
        do throws(CSVReader.Failure) {
            try CSVReader.forEachRecord(in: bytes) { line, fields throws(CSVReader.Failure) in
                guard let rows = reader else {
                    reader = try RowReader(header: fields, line: line, bytes: bytes, file: url)
                    return
                }
                do throws(EntryProblem) {
                    if let photo = try rows.photo(from: fields, line: line) { photos.append(photo) } else { skipped += 1 }
                } catch {
                    throw CSVReader.Failure(line: line, message: error.message)
                }
            }
        } catch {
            throw .invalidLine(file: url, line: error.line, problem: error.message)
        }
        guard reader != nil else {
            throw .malformed(file: url, reason: "is empty: expected a header line such as \(Self.exampleHeader)")
        }
        return PhotoCollection(photos: photos, report: PhotoLoadReport(skippedWithoutLocation: skipped))
    }

    /// Makes photos from rows, knowing the header: each used field becomes text only when read.
    private struct RowReader {
        let bytes: UnsafeBufferPointer<UInt8>
        let columnCount: Int
        let latitude: Int, longitude: Int
        let title: Int?, subtitle: Int?, photographer: Int?, image: Int?, thumbnail: Int?
        /// `<file name>:`, the start of every id.
        let idPrefix: String
        /// Image texts, relative paths joined to the file's folder.
        let images: ImageText

        init(header: [CSVField], line: Int, bytes: UnsafeBufferPointer<UInt8>, file: URL) throws(CSVReader.Failure) {
            var columnIndex: [String: Int] = [:]
            for (number, field) in header.enumerated() {
                guard let name = CSVReader.text(of: field, in: bytes) else {
                    throw CSVReader.Failure(line: line, message: "field \(number + 1) is not valid UTF-8")
                }
                let key = name.trimmingCharacters(in: .whitespaces).lowercased()
                if columnIndex[key] == nil { columnIndex[key] = number }
            }
            for required in ["latitude", "longitude"] where columnIndex[required] == nil {
                throw CSVReader.Failure(
                    line: line,
                    message: "the header has no '\(required)' column; expected a header such as \(CSVPhotoSource.exampleHeader)"
                )
            }
            self.bytes = bytes
            columnCount = header.count
            latitude = columnIndex["latitude"]!
            longitude = columnIndex["longitude"]!
            title = columnIndex["title"]
            subtitle = columnIndex["subtitle"]
            photographer = columnIndex["photographer"]
            image = columnIndex["image"]
            thumbnail = columnIndex["thumbnail"]
            idPrefix = file.lastPathComponent + ":"
            images = ImageText(directoryPath: file.deletingLastPathComponent().path)
        }

        /// One photo, or `nil` when the row has no location.
        func photo(from fields: [CSVField], line: Int) throws(EntryProblem) -> Photo? {
            guard fields.count == columnCount else {
                throw EntryProblem("has \(fields.count) fields, the header has \(columnCount)")
            }
            // Every field must be UTF-8, as if all were read; ASCII fields are so by construction.
            for (number, field) in fields.enumerated() where !field.isASCII {
                guard CSVReader.text(of: field, in: bytes) != nil else {
                    throw EntryProblem("field \(number + 1) is not valid UTF-8")
                }
            }
            let latitude = try degrees(fields[latitude], name: "latitude")
            let longitude = try degrees(fields[longitude], name: "longitude")
            guard let coordinate = try DegreesText.coordinate(latitude: latitude, longitude: longitude) else {
                return nil
            }
            func text(_ column: Int?) -> String? {
                guard let column, !fields[column].range.isEmpty else { return nil }
                return CSVReader.text(of: fields[column], in: bytes)
            }
            return Photo(
                id: idPrefix + String(line),
                title: text(title),
                subtitle: text(subtitle),
                coordinate: coordinate,
                photographer: text(photographer),
                imageText: try reference(image, in: fields, name: "image"),
                thumbnailText: try reference(thumbnail, in: fields, name: "thumbnail")
            )
        }

        /// The stored text of an image column (see ``ImageText``), made from the field's bytes.
        private func reference(_ column: Int?, in fields: [CSVField], name: String) throws(EntryProblem) -> String? {
            guard let column, !fields[column].range.isEmpty else { return nil }
            let field = fields[column]
            if field.hasEscapedQuotes {
                return try CSVReader.text(of: field, in: bytes).flatMap { text throws(EntryProblem) in try images.stored(text, name: name) }
            }
            return try images.stored(bytes: UnsafeBufferPointer(rebasing: bytes[field.range]), isASCII: field.isASCII, name: name)
        }

        /// Degrees read from the field's bytes when they are a plain decimal number, else as ``DegreesText`` reads text.
        private func degrees(_ field: CSVField, name: String) throws(EntryProblem) -> Double? {
            if !field.hasEscapedQuotes, field.isASCII {
                var range = field.range
                while let first = range.first, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") {
                    range = range.dropFirst()
                }
                while let last = range.last, bytes[last] == UInt8(ascii: " ") || bytes[last] == UInt8(ascii: "\t") {
                    range = range.dropLast()
                }
                if range.isEmpty { return nil }
                if let value = JSONNumberText.double(from: UnsafeBufferPointer(rebasing: bytes[range])) { return value }
            }
            return try DegreesText.degrees(CSVReader.text(of: field, in: bytes) ?? "", name: name)
        }
    }
}
