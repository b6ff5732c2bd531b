import CExif
import Foundation
import MapCore

/// The EXIF fields a photo's pin and callout need, read with libexif.
///
/// Tags are read from the IFD the EXIF 2.32 standard puts them in: ImageDescription, Artist,
/// Orientation and XPTitle from IFD0; DateTimeOriginal and OffsetTimeOriginal from the Exif IFD; the
/// GPS tags from the GPS IFD (whose tag numbers overlap the others, so the IFD matters).
struct ExifMetadata: Hashable, Sendable {
    /// The GPS position, or `nil` when there is none (no GPS tags, a zero denominator, or exactly 0°, 0°).
    var coordinate: Coordinate?
    /// GPSAltitude, negative when GPSAltitudeRef says below sea level.
    var altitudeMeters: Double?
    /// GPSHPositioningError.
    var horizontalAccuracyMeters: Double?
    /// DateTimeOriginal in the zone of OffsetTimeOriginal; else GPSDateStamp and GPSTimeStamp (UTC);
    /// else DateTimeOriginal read as UTC.
    var dateTaken: Date?
    /// ImageDescription, as UTF-8 (what software writes in practice), else as ISO 8859-1.
    var imageDescription: String?
    /// XPTitle, the title Windows writes, in UTF-16LE.
    var xpTitle: String?
    /// Artist.
    var artist: String?
    /// Where the file is cut short after its metadata (a HEIC whose image data is not whole, as
    /// a partial copy leaves it), or `nil` for a whole file; its tags are read all the same.
    var cut: HEIFFile.Cut?

    /// A problem with one tag: its name, and what is wrong.
    struct TagProblem: Error {
        var tag: String
        var message: String
    }

    /// The metadata of a photo file's bytes, told apart by content rather than name: a JPEG
    /// (FF D8), a HEIF file (an `ftyp` box of a HEIF brand: HEIC) or a TIFF-based raw file
    /// (`II*\0` or `MM\0*`: DNG, CR2, NEF, ARW). All fields are empty when it has no EXIF.
    ///
    /// A JPEG's EXIF comes from its APP1 segment and a HEIF file's from its primary image's Exif
    /// item (through libheif), both loaded by libexif; a raw file's from its IFD0 and the Exif and
    /// GPS IFDs it points to, walked by ``TIFFFile``. A HEIC cut short after its metadata (a
    /// partial copy) is read when its Exif item is whole, and says where it is cut in ``cut``.
    /// Safe to call from several threads at once.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - file: The file, for messages; its extension says what a file of none of these kinds
    ///     was meant to be.
    /// - Throws: A ``PhotoLoadReport/SkippedFile`` with its reason and error:
    ///   ``PhotoSourceError/malformed(file:reason:)`` when the data is not a photo or is cut short;
    ///   ``PhotoSourceError/invalidEntry(file:entry:problem:)`` naming the tag when one this reads is
    ///   malformed (a wrong format or component count, a missing or unknown GPS reference).
    static func read(fromPhoto data: Data, file: URL) throws(PhotoLoadReport.SkippedFile) -> ExifMetadata {
        func skipped(_ reason: PhotoLoadReport.SkippedFile.Reason, _ message: String) -> PhotoLoadReport.SkippedFile {
            PhotoLoadReport.SkippedFile(reason: reason, error: .malformed(file: file, reason: message))
        }
        func tagProblem(_ problem: TagProblem) -> PhotoLoadReport.SkippedFile {
            PhotoLoadReport.SkippedFile(
                reason: .badMetadata, error: .invalidEntry(file: file, entry: problem.tag, problem: problem.message))
        }
        switch PhotoFileKind(data: data) ?? PhotoFileKind(fileExtension: file.pathExtension) ?? .jpeg {
        case .jpeg:
            return try read(fromJPEG: data, file: file)
        case .heif:
            do {
                let (tiff, cut) = try HEIFFile.exifTIFF(in: data)
                var metadata = ExifMetadata()
                if let tiff {
                    metadata = try withExif(payload: Data("Exif\0\0".utf8) + tiff) { reader throws(TagProblem) in
                        try ExifMetadata(reader)
                    }
                }
                metadata.cut = cut
                return metadata
            } catch let error as HEIFFile.Problem {
                switch error {
                case .notHEIF(let message): throw skipped(.notPhoto, message)
                case .damaged(let message): throw skipped(.damaged, message)
                }
            } catch let error as ReadFailure {
                guard case .tag(let problem) = error else { throw skipped(.unreadable, "libexif is out of memory") }
                throw tagProblem(problem)
            } catch {
                throw skipped(.damaged, "\(error)")
            }
        case .tiff:
            do {
                return try ExifMetadata(TIFFTagReader(TIFFFile(data: data)))
            } catch let error as TIFFFile.Problem {
                switch error {
                case .notTIFF(let message): throw skipped(.notPhoto, message)
                case .damaged(let message): throw skipped(.damaged, message)
                }
            } catch let error as TagProblem {
                throw tagProblem(error)
            } catch {
                throw skipped(.damaged, "\(error)")
            }
        }
    }

    /// The metadata of a JPEG file's bytes; all fields are empty when it has no EXIF block.
    ///
    /// - Parameters:
    ///   - data: The whole file, or at least everything before its image data.
    ///   - file: The file, for messages.
    /// - Throws: As ``read(fromPhoto:file:)``; ``PhotoSourceError/malformed(file:reason:)`` when
    ///   the data is not a JPEG or is cut short.
    static func read(fromJPEG data: Data, file: URL) throws(PhotoLoadReport.SkippedFile) -> ExifMetadata {
        do {
            return try withExif(inJPEG: data) { reader throws(TagProblem) in try ExifMetadata(reader) }
                ?? ExifMetadata()
        } catch {
            switch error {
            case .jpeg(.notJPEG(let reason)):
                throw PhotoLoadReport.SkippedFile(reason: .notJPEG, error: .malformed(file: file, reason: reason))
            case .jpeg(.damaged(let reason)):
                throw PhotoLoadReport.SkippedFile(reason: .damaged, error: .malformed(file: file, reason: reason))
            case .outOfMemory:
                throw PhotoLoadReport.SkippedFile(
                    reason: .unreadable, error: .unreadable(file: file, reason: "libexif is out of memory"))
            case .tag(let problem):
                throw PhotoLoadReport.SkippedFile(
                    reason: .badMetadata, error: .invalidEntry(file: file, entry: problem.tag, problem: problem.message)
                )
            }
        }
    }

    /// The Orientation tag of a JPEG, 1 to 8 (EXIF 2.32 §4.6.4 A); 1 when the data has none or is not a JPEG.
    ///
    /// Reads that tag alone, so that a malformed GPS tag does not keep a thumbnail from turning upright.
    static func orientation(ofJPEG data: Data) -> Int {
        let orientation = try? withExif(inJPEG: data) { reader throws(TagProblem) in
            try reader.integer(Tag.orientation)
        }
        return orientation.flatMap { $0 }.flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
    }

    /// The Orientation tag of any reader's IFD0, 1 to 8; 1 when it has none or a malformed one.
    static func orientation(_ reader: some ExifTagReading) -> Int {
        (try? reader.integer(Tag.orientation)).flatMap { $0 }.flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
    }

    /// Why ``withExif(inJPEG:_:)`` failed.
    private enum ReadFailure: Error {
        case jpeg(JPEGSegments.Problem)
        case outOfMemory
        case tag(TagProblem)
    }

    /// Loads the EXIF block of a JPEG with libexif and hands a reader to `body`; `nil` when there is no EXIF block.
    private static func withExif<T>(
        inJPEG data: Data, _ body: (ExifReader) throws(TagProblem) -> T
    ) throws(ReadFailure) -> T? {
        let payload: Data?
        do { payload = try JPEGSegments.exifPayload(in: data) } catch { throw .jpeg(error) }
        guard let payload else { return nil }
        return try withExif(payload: payload, body)
    }

    /// Loads an EXIF block starting with `Exif\0\0` (as libexif expects) and hands a reader to `body`.
    private static func withExif<T>(
        payload: Data, _ body: (ExifReader) throws(TagProblem) -> T
    ) throws(ReadFailure) -> T {
        guard let exif = exif_data_new() else { throw .outOfMemory }
        defer { exif_data_unref(exif) }
        // Keep tags libexif does not list for an IFD (XPTitle among them), and read tags as written.
        exif_data_unset_option(exif, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        payload.withUnsafeBytes { buffer in
            exif_data_load_data(exif, buffer.bindMemory(to: UInt8.self).baseAddress, UInt32(buffer.count))
        }
        do { return try body(ExifReader(exif: exif)) } catch { throw .tag(error) }
    }

    /// Metadata with every field empty, for a JPEG without EXIF.
    private init() {}

    private init(_ reader: some ExifTagReading) throws(TagProblem) {
        coordinate = try Self.coordinate(reader)
        if let meters = try reader.rationals(Tag.gpsAltitude)?.first ?? nil {
            // 1 (EXIF 2.32) and 3 (EXIF 3.0, ellipsoidal height) mean below the reference surface.
            let reference = try reader.integer(Tag.gpsAltitudeRef)
            altitudeMeters = reference == 1 || reference == 3 ? -meters : meters
        } else {
            altitudeMeters = nil
        }
        horizontalAccuracyMeters = try reader.rationals(Tag.gpsHPositioningError).flatMap { $0.first ?? nil }
        dateTaken = try Self.dateTaken(reader)
        imageDescription = try reader.text(Tag.imageDescription)
        xpTitle = try reader.utf16Text(Tag.xpTitle)
        artist = try reader.text(Tag.artist)
    }

    /// The GPS position, from GPSLatitude/GPSLatitudeRef and GPSLongitude/GPSLongitudeRef.
    private static func coordinate(_ reader: some ExifTagReading) throws(TagProblem) -> Coordinate? {
        let latitude = try reader.rationals(Tag.gpsLatitude)
        let longitude = try reader.rationals(Tag.gpsLongitude)
        guard let latitude, let longitude else {
            if latitude != nil {
                throw TagProblem(tag: Tag.gpsLongitude.name, message: "is missing, GPSLatitude is not")
            }
            if longitude != nil {
                throw TagProblem(tag: Tag.gpsLatitude.name, message: "is missing, GPSLongitude is not")
            }
            return nil
        }
        // Cameras without a fix write 0/0; such a position is unknown rather than wrong.
        guard let latitudeDegrees = try degrees(latitude, tag: Tag.gpsLatitude),
            let longitudeDegrees = try degrees(longitude, tag: Tag.gpsLongitude)
        else { return nil }
        let latitudeSign = try sign(reader, Tag.gpsLatitudeRef, positive: "N", negative: "S")
        let longitudeSign = try sign(reader, Tag.gpsLongitudeRef, positive: "E", negative: "W")
        do {
            return try PhotoLocation.coordinate(
                latitude: latitudeSign * latitudeDegrees, longitude: longitudeSign * longitudeDegrees)
        } catch {
            let tag = if case .invalidLatitude = error { Tag.gpsLatitude } else { Tag.gpsLongitude }
            throw TagProblem(tag: tag.name, message: error.description)
        }
    }

    /// Degrees from one to three rationals: degrees, minutes, seconds; `nil` when one has a zero denominator.
    private static func degrees(_ values: [Double?], tag: Tag) throws(TagProblem) -> Double? {
        guard (1...3).contains(values.count) else {
            throw TagProblem(
                tag: tag.name, message: "has \(values.count) components, expected 3 (degrees, minutes, seconds)")
        }
        var degrees = 0.0
        for (value, divisor) in zip(values, [1.0, 60, 3600]) {
            guard let value else { return nil }
            degrees += value / divisor
        }
        return degrees
    }

    /// +1 or -1 from a reference tag such as GPSLatitudeRef.
    private static func sign(
        _ reader: some ExifTagReading, _ tag: Tag, positive: String, negative: String
    ) throws(TagProblem) -> Double {
        switch try reader.text(tag)?.uppercased() {
        case positive?: return 1
        case negative?: return -1
        case nil: throw TagProblem(tag: tag.name, message: "is missing; it must be \(positive) or \(negative)")
        case let other?:
            throw TagProblem(tag: tag.name, message: "is '\(other)'; it must be \(positive) or \(negative)")
        }
    }

    private static func dateTaken(_ reader: some ExifTagReading) throws(TagProblem) -> Date? {
        let original = try reader.text(Tag.dateTimeOriginal)
        let offset = try reader.text(Tag.offsetTimeOriginal)
        func originalDate(offset: String?) throws(TagProblem) -> Date? {
            guard let original else { return nil }
            do { return try DateText.date(fromEXIF: original, offset: offset) } catch {
                let tag = offset == nil ? Tag.dateTimeOriginal.name : "DateTimeOriginal/OffsetTimeOriginal"
                throw TagProblem(tag: tag, message: error.message)
            }
        }
        if offset != nil, let date = try originalDate(offset: offset) { return date }
        if let stamp = try reader.text(Tag.gpsDateStamp), let time = try reader.rationals(Tag.gpsTimeStamp),
            time.count == 3, let hours = time[0], let minutes = time[1], let seconds = time[2],
            let date = DateText.date(gpsDateStamp: stamp, hours: hours, minutes: minutes, seconds: seconds)
        {
            return date
        }
        return try originalDate(offset: nil)
    }
}

/// An EXIF tag this module reads: its number, IFD and name.
struct Tag: Sendable {
    var number: UInt32
    var ifd: ExifIfd
    var name: String

    static let imageDescription = Tag(number: 0x010E, ifd: EXIF_IFD_0, name: "ImageDescription")
    static let orientation = Tag(number: 0x0112, ifd: EXIF_IFD_0, name: "Orientation")
    static let artist = Tag(number: 0x013B, ifd: EXIF_IFD_0, name: "Artist")
    static let xpTitle = Tag(number: 0x9C9B, ifd: EXIF_IFD_0, name: "XPTitle")
    static let dateTimeOriginal = Tag(number: 0x9003, ifd: EXIF_IFD_EXIF, name: "DateTimeOriginal")
    static let offsetTimeOriginal = Tag(number: 0x9011, ifd: EXIF_IFD_EXIF, name: "OffsetTimeOriginal")
    static let gpsLatitudeRef = Tag(number: 0x0001, ifd: EXIF_IFD_GPS, name: "GPSLatitudeRef")
    static let gpsLatitude = Tag(number: 0x0002, ifd: EXIF_IFD_GPS, name: "GPSLatitude")
    static let gpsLongitudeRef = Tag(number: 0x0003, ifd: EXIF_IFD_GPS, name: "GPSLongitudeRef")
    static let gpsLongitude = Tag(number: 0x0004, ifd: EXIF_IFD_GPS, name: "GPSLongitude")
    static let gpsAltitudeRef = Tag(number: 0x0005, ifd: EXIF_IFD_GPS, name: "GPSAltitudeRef")
    static let gpsAltitude = Tag(number: 0x0006, ifd: EXIF_IFD_GPS, name: "GPSAltitude")
    static let gpsTimeStamp = Tag(number: 0x0007, ifd: EXIF_IFD_GPS, name: "GPSTimeStamp")
    static let gpsDateStamp = Tag(number: 0x001D, ifd: EXIF_IFD_GPS, name: "GPSDateStamp")
    static let gpsHPositioningError = Tag(number: 0x001F, ifd: EXIF_IFD_GPS, name: "GPSHPositioningError")
}
