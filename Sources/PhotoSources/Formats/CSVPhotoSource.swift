public import Foundation
import MapCore
import MapJSON
import MapUtilities

/// Photos from a CSV file with a header line (RFC 4180).
///
/// The header names the columns, in any order and any case; `latitude` and `longitude` (degrees)
/// are required, `id`, `title`, `subtitle`, `photographer`, `image` and `thumbnail` are optional,
/// and other columns are ignored. For example:
///
/// ```
/// latitude,longitude,title,subtitle,photographer,image
/// 37.7459,-119.5332,Half Dome,"Moonrise, winter",Ansel Adams,photos/half-dome.jpg
/// ```
///
/// Columns are also known by the names exporters write: `lat`, `gpslatitude` for the latitude;
/// `lon`, `lng`, `long`, `gpslongitude` for the longitude (so exiftool's `exiftool -csv -n
/// -GPSLatitude -GPSLongitude DIR` reads as it is); `sourcefile` (exiftool's), `file`, `filename`,
/// `path` for the image; `name`, `headline`, `objectname` for the title; `description`,
/// `imagedescription`, `caption` for the subtitle; `artist`, `author`, `creator`, `by-line` for
/// the photographer. The first column of each, in that order, is read.
///
/// Relative `image` and `thumbnail` paths are resolved against the CSV file's folder. A row with
/// both coordinates empty, or at 0, 0, has no location: it is skipped and counted. A photo's id is
/// its `id` field, or `<file name>:<line>` when the file has no `id` column or the field is empty. Errors name the line, counting from 1 with the header.
///
/// The file is mapped and read as bytes: each row becomes a photo as it is read, only the
/// columns above become strings, and image paths are kept as text until a photo's image is
/// asked for (see ``Photo/image``). Files of 8 MiB or more are read in parts, one per core (at
/// most four); the photos and the error reported are those of one pass.
public struct CSVPhotoSource: PhotoSource {
    public let url: URL

    /// Files smaller than twice this are read in one part; 4 MiB unless a test says otherwise.
    let minimumBytesPerPart: Int

    /// Creates a source for the CSV file at `url`.
    public init(url: URL) {
        self.init(url: url, minimumBytesPerPart: 4 << 20)
    }

    /// Creates a source that reads parts of at least `minimumBytesPerPart` bytes, for tests.
    init(url: URL, minimumBytesPerPart: Int) {
        self.url = url
        self.minimumBytesPerPart = minimumBytesPerPart
    }

    public func load() throws(PhotoSourceError) -> PhotoCollection {
        let data: Data
        do {
            data = try Data(readingFile: url, mapped: true, maximumBytes: PhotoSourceError.maximumDocumentBytes)
        } catch {
            throw .unreadable(file: url, reason: error.reason)
        }
        let result = data.withUnsafeBytes {
            (raw: UnsafeRawBufferPointer) -> Result<PhotoCollection, PhotoSourceError> in
            do throws(PhotoSourceError) {
                return .success(try load(raw.bindMemory(to: UInt8.self)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static let exampleHeader = "latitude,longitude,title,subtitle,photographer,image"
    /// The names a latitude or longitude column goes by, lowercased, in the order looked for.
    static let latitudeNames = ["latitude", "lat", "gpslatitude"]
    static let longitudeNames = ["longitude", "lon", "lng", "long", "gpslongitude"]

    /// The photos of the file's bytes, each made as its row is read; a large file is cut at
    /// record boundaries into one part per core (at most four), read at once, the parts' photos
    /// joined in order and the first error in the file reported, as one pass would.
    private func load(_ bytes: UnsafeBufferPointer<UInt8>) throws(PhotoSourceError) -> PhotoCollection {
        // The header: the first record that is not a blank line.
        var header: (reader: RowReader, end: Int, line: Int)?
        do throws(CSVReader.Failure) {
            try CSVReader.forEachRecord(in: bytes) { line, fields, end throws(CSVReader.Failure) in
                header = (try RowReader(header: fields, line: line, bytes: bytes, file: url), end, line)
                return false
            }
        } catch {
            throw .invalidLine(file: url, line: error.line, problem: error.message)
        }
        guard let header else {
            throw .malformed(file: url, reason: "is empty: expected a header line such as \(Self.exampleHeader)")
        }
        let parts = Self.parts(
            of: bytes, from: header.end, line: header.line + 1, minimumBytesPerPart: minimumBytesPerPart)
        // Each part writes its photos straight into one array, at a share as large as its line
        // breaks allow (a record ends at one, or at the end); the shares are then closed up.
        let shares = parts.map { part in
            let slice = UnsafeBufferPointer(rebasing: bytes[part.range])
            return CSVReader.count(of: UInt8(ascii: "\n"), in: slice)
                + CSVReader.count(of: UInt8(ascii: "\r"), in: slice) + 1
        }
        let starts = shares.indices.map { shares[..<$0].reduce(0, +) }
        var results = [PartResult](repeating: PartResult(), count: parts.count)
        let photos = [Photo](unsafeUninitializedCapacity: shares.reduce(0, +)) { buffer, initializedCount in
            results.withUnsafeMutableBufferPointer { results in
                // Each part reads the bytes and writes only its own share of `photos` and its own result.
                let shared = UnsafeTransfer((bytes: bytes, photos: buffer, results: results, reader: header.reader))
                let read: @Sendable (Int) -> Void = { number in
                    let (bytes, photos, results, reader) = shared.wrappedValue
                    let share = UnsafeMutableBufferPointer(
                        rebasing: photos[starts[number]..<(starts[number] + shares[number])])
                    results[number] = reader.photos(
                        in: bytes, range: parts[number].range, line: parts[number].line, into: share)
                }
                if parts.count == 1 {
                    read(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: parts.count, execute: read)
                }
            }
            guard let base = buffer.baseAddress else { return }
            if results.contains(where: { $0.failure != nil }) {
                for (start, result) in zip(starts, results) { (base + start).deinitialize(count: result.count) }
                initializedCount = 0
                return
            }
            var filled = 0
            for (start, result) in zip(starts, results) {
                if start != filled { (base + filled).moveInitialize(from: base + start, count: result.count) }
                filled += result.count
            }
            initializedCount = filled
        }
        if let failure = results.lazy.compactMap(\.failure).first {
            throw .invalidLine(file: url, line: failure.line, problem: failure.message)
        }
        return PhotoCollection(
            photos: photos, report: PhotoLoadReport(skippedWithoutLocation: results.reduce(0) { $0 + $1.skipped }))
    }

    /// The parts the rows from `start` (on `line`) are read in: each starts at a record.
    private static func parts(
        of bytes: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, minimumBytesPerPart: Int
    ) -> [(range: Range<Int>, line: Int)] {
        let partCount = max(
            1, min(ProcessInfo.processInfo.activeProcessorCount, 4, (bytes.count - start) / minimumBytesPerPart))
        var starts = [start]
        for part in 1..<max(partCount, 1) {
            let target = start + (bytes.count - start) * part / partCount
            guard target > starts.last!, let next = CSVReader.recordStart(after: target, in: bytes), next > starts.last!
            else { continue }
            starts.append(next)
        }
        var lines = [line]
        for (previous, next) in zip(starts, starts.dropFirst()) {
            lines.append(lines.last! + CSVReader.lineBreaks(in: UnsafeBufferPointer(rebasing: bytes[previous..<next])))
        }
        return starts.indices.map { index in
            (starts[index]..<(index + 1 < starts.count ? starts[index + 1] : bytes.count), lines[index])
        }
    }

    /// What reading one part gave: how many photos it wrote, in order, or the first problem in it.
    private struct PartResult {
        var count = 0
        var skipped = 0
        var failure: CSVReader.Failure?
    }

    /// Makes photos from rows, knowing the header: each used field becomes text only when read.
    private struct RowReader {
        let bytes: UnsafeBufferPointer<UInt8>
        let columnCount: Int
        let latitude: Int, longitude: Int
        let id: Int?, title: Int?, subtitle: Int?, photographer: Int?, image: Int?, thumbnail: Int?
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
            func column(_ names: [String]) -> Int? { names.lazy.compactMap { columnIndex[$0] }.first }
            guard let latitude = column(CSVPhotoSource.latitudeNames),
                let longitude = column(CSVPhotoSource.longitudeNames)
            else {
                let missing = column(CSVPhotoSource.latitudeNames) == nil ? "latitude" : "longitude"
                throw CSVReader.Failure(
                    line: line,
                    message:
                        "the header has no '\(missing)' column; expected a header such as \(CSVPhotoSource.exampleHeader)"
                )
            }
            self.bytes = bytes
            columnCount = header.count
            self.latitude = latitude
            self.longitude = longitude
            id = columnIndex["id"]
            title = column(["title", "name", "headline", "objectname"])
            subtitle = column(["subtitle", "description", "imagedescription", "caption"])
            photographer = column(["photographer", "artist", "author", "creator", "by-line"])
            image = column(["image", "sourcefile", "file", "filename", "path"])
            thumbnail = columnIndex["thumbnail"]
            idPrefix = file.lastPathComponent + ":"
            images = ImageText(directoryPath: file.deletingLastPathComponent().path)
        }

        /// Writes the photos of the records in `range` of `bytes` (which starts at a record on
        /// `line`) into the uninitialized `destination`, which has room for every record.
        func photos(
            in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, line: Int,
            into destination: UnsafeMutableBufferPointer<Photo>
        ) -> PartResult {
            var result = PartResult()
            var names: [String] = []
            var folders = ImageText.Folders()
            do throws(CSVReader.Failure) {
                try CSVReader.forEachRecord(in: bytes, range: range, startLine: line) {
                    line, fields, _ throws(CSVReader.Failure) in
                    do throws(EntryProblem) {
                        if let photo = try photo(from: fields, line: line, names: &names, folders: &folders) {
                            precondition(
                                result.count < destination.count, "a CSV part holds more records than line breaks")
                            (destination.baseAddress! + result.count).initialize(to: photo)
                            result.count += 1
                        } else {
                            result.skipped += 1
                        }
                    } catch {
                        throw CSVReader.Failure(line: line, message: error.message)
                    }
                    return true
                }
            } catch {
                result.failure = error
            }
            return result
        }

        /// One photo, or `nil` when the row has no location.
        ///
        /// - Parameter names: Photographers and subtitles met so far (up to 64), shared by the
        ///   photos that repeat them: one string each instead of one per row.
        func photo(
            from fields: [CSVField], line: Int, names: inout [String], folders: inout ImageText.Folders
        ) throws(EntryProblem) -> Photo? {
            guard fields.count == columnCount else {
                throw EntryProblem("has \(fields.count) fields, the header has \(columnCount)")
            }
            // Every field must be UTF-8, as if all were read; ASCII fields are so by construction.
            for (number, field) in fields.enumerated() where !field.isASCII {
                guard UTF8Text.isValid(UnsafeBufferPointer(rebasing: bytes[field.range])) else {
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
            func name(_ column: Int?) -> String? {
                guard let column, !fields[column].range.isEmpty else { return nil }
                let field = fields[column]
                guard !field.hasEscapedQuotes else { return CSVReader.text(of: field, in: bytes) }
                let raw = UnsafeBufferPointer(rebasing: bytes[field.range])
                if let known = names.first(where: { $0.utf8.count == raw.count && $0.utf8.elementsEqual(raw) }) {
                    return known
                }
                let text = CSVReader.text(of: field, in: bytes)
                if let text, names.count < 64 { names.append(text) }
                return text
            }
            return Photo(
                id: Photo.nonEmpty(text(id)).map { PhotoText($0) } ?? PhotoText(prefix: idPrefix, String(line)),
                title: text(title),
                subtitle: name(subtitle),
                coordinate: coordinate,
                photographer: name(photographer),
                imageText: try reference(image, in: fields, name: "image", folders: &folders),
                thumbnailText: try reference(thumbnail, in: fields, name: "thumbnail", folders: &folders)
            )
        }

        /// The stored text of an image column (see ``ImageText``), made from the field's bytes.
        private func reference(
            _ column: Int?, in fields: [CSVField], name: String, folders: inout ImageText.Folders
        ) throws(EntryProblem) -> PhotoText? {
            guard let column, !fields[column].range.isEmpty else { return nil }
            let field = fields[column]
            if field.hasEscapedQuotes {
                return try CSVReader.text(of: field, in: bytes).flatMap { text throws(EntryProblem) in
                    try images.stored(text, name: name)
                }
            }
            return try images.stored(
                bytes: UnsafeBufferPointer(rebasing: bytes[field.range]), isASCII: field.isASCII, name: name,
                folders: &folders)
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
