public import Foundation
import MapUtilities

/// What loading a photo source left out, for one warning line.
///
/// Photos without a location are skipped rather than placed at 0°, 0°, and in a folder of JPEGs
/// a file that cannot be read as a photo (not a JPEG, cut short, unreadable) is skipped rather
/// than failing the whole load; the report counts both, by reason. A HEIC cut short after its
/// metadata (a partial copy) is placed, and counted as a photo whose image is cut:
///
/// ```swift
/// let photos = try PhotoCollection.load(from: folder)
/// if let warning = photos.report.warningLine { print("warning: \(warning)") }
/// // warning: 2 photos have no GPS location and were skipped
/// // warning: 3 photos were skipped: 1 has no GPS location, 1 is not a JPEG, 1 cannot be read
/// // warning: 1 photo is cut short after its metadata (a partial copy?): placed, without its image
/// ```
///
/// ``skippedFiles`` keeps each skipped file's error, so a caller that wants every file read (the
/// CLI's `--strict`) can throw the first.
public struct PhotoLoadReport: Hashable, Sendable, Codable {
    /// How many photos had no location (no GPS tags, no coordinates, or exactly 0°, 0°).
    public var skippedWithoutLocation: Int
    /// The files that could not be read as photos, in path order. Empty by default.
    public var skippedFiles: [SkippedFile]
    /// The photos placed from their whole metadata although their files are cut short before
    /// their images end (a partial copy of a HEIC), in path order. Empty by default.
    public var cutImages: [CutImage]

    /// Creates a report; all default to nothing skipped or cut.
    public init(skippedWithoutLocation: Int = 0, skippedFiles: [SkippedFile] = [], cutImages: [CutImage] = []) {
        self.skippedWithoutLocation = skippedWithoutLocation
        self.skippedFiles = skippedFiles
        self.cutImages = cutImages
    }

    /// A photo file cut short after its metadata: its position and tags are read, its image is
    /// not whole, so its thumbnail cannot be made.
    public struct CutImage: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The file.
        public var file: URL
        /// The bytes it has.
        public var byteCount: Int
        /// The bytes its own structure says it has (a HEIC's boxes).
        public var declaredByteCount: Int

        /// Creates a record of a cut file.
        public init(file: URL, byteCount: Int, declaredByteCount: Int) {
            self.file = file
            self.byteCount = byteCount
            self.declaredByteCount = declaredByteCount
        }

        /// `photos/x.heic: is cut short (65,184 of its 156,055 bytes) after its metadata: placed, without its image`.
        public var description: String {
            "\(file.displayPath): is cut short (\(byteCount.groupedText) of its \(declaredByteCount.groupedText) bytes) after its metadata: placed, without its image"
        }
    }

    /// A file that was skipped because it cannot be read as a photo; an `Error`, so readers can
    /// throw it to the loop that records it.
    public struct SkippedFile: Error, Hashable, Sendable, Codable, CustomStringConvertible {
        /// Why a file was skipped, in the order the warning line lists them.
        public enum Reason: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
            /// It does not start like a JPEG (a PNG or a text file named `.jpg`).
            case notJPEG = "not-jpeg"
            /// A file named as a HEIC or raw photo (`.heic`, `.dng`, `.cr2`, …) that starts like no
            /// photo Mapwright reads.
            case notPhoto = "not-photo"
            /// It starts like a JPEG but is cut short or its segments are broken.
            case damaged
            /// An EXIF tag this reads is malformed (a GPS tag of the wrong format, a missing reference).
            case badMetadata = "bad-metadata"
            /// It cannot be read at all: permission denied, a symbolic link to a missing file,
            /// not a regular file, or a folder that cannot be listed.
            case unreadable

            public static func < (lhs: Reason, rhs: Reason) -> Bool {
                allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
            }

            /// The reason as a predicate for `count` photos: "is not a JPEG", "are not JPEGs".
            func phrase(count: Int) -> String {
                let one = count == 1
                switch self {
                case .notJPEG: return one ? "is not a JPEG" : "are not JPEGs"
                case .notPhoto: return one ? "is not a HEIC or raw photo" : "are not HEIC or raw photos"
                case .damaged: return one ? "is damaged or cut short" : "are damaged or cut short"
                case .badMetadata: return one ? "has malformed GPS or EXIF tags" : "have malformed GPS or EXIF tags"
                case .unreadable: return "cannot be read"
                }
            }
        }

        /// Why it was skipped.
        public var reason: Reason
        /// The error naming the file and the problem, as a strict load would throw it.
        public var error: PhotoSourceError

        /// Creates a record of a skipped file.
        public init(reason: Reason, error: PhotoSourceError) {
            self.reason = reason
            self.error = error
        }

        /// The error's message: `photos/x.jpg: is not a JPEG: it does not start with the FF D8 marker`.
        public var description: String { error.description }
    }

    /// One line for a person, or `nil` when nothing was skipped or cut.
    ///
    /// With one reason it says `N photos <reason> and were skipped` ("2 photos have no GPS
    /// location and were skipped"); with several, `N photos were skipped: ` and the count of each
    /// reason ("3 photos were skipped: 1 has no GPS location, 1 is not a JPEG, 1 cannot be read").
    /// Photos whose images are cut follow, after a semicolon when some were skipped too: "1 photo
    /// is cut short after its metadata (a partial copy?): placed, without its image".
    public var warningLine: String? {
        let cut: String? =
            switch cutImages.count {
            case 0: nil
            case 1: "1 photo is cut short after its metadata (a partial copy?): placed, without its image"
            case let count:
                "\(count) photos are cut short after their metadata (partial copies?): placed, without their images"
            }
        guard let skipped = skippedLine else { return cut }
        return cut.map { "\(skipped); \($0)" } ?? skipped
    }

    /// The skipped photos' part of ``warningLine``, or `nil` when none was skipped.
    private var skippedLine: String? {
        var counts: [(count: Int, phrase: (Int) -> String)] = []
        if skippedWithoutLocation > 0 {
            counts.append((skippedWithoutLocation, { $0 == 1 ? "has no GPS location" : "have no GPS location" }))
        }
        let byReason = Dictionary(grouping: skippedFiles, by: \.reason)
        for reason in byReason.keys.sorted() {
            counts.append((byReason[reason]!.count, reason.phrase(count:)))
        }
        let total = counts.reduce(0) { $0 + $1.count }
        switch counts.count {
        case 0:
            return nil
        case 1:
            let (count, phrase) = counts[0]
            return count == 1
                ? "1 photo \(phrase(1)) and was skipped" : "\(count) photos \(phrase(count)) and were skipped"
        default:
            let parts = counts.map { "\($0.count) \($0.phrase($0.count))" }
            return "\(total) photos were skipped: " + parts.joined(separator: ", ")
        }
    }

    /// The keys of the encoded form; a report encoded before ``skippedFiles`` or ``cutImages``
    /// existed decodes with none.
    private enum CodingKeys: String, CodingKey {
        case skippedWithoutLocation, skippedFiles, cutImages
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        skippedWithoutLocation = try container.decode(Int.self, forKey: .skippedWithoutLocation)
        skippedFiles = try container.decodeIfPresent([SkippedFile].self, forKey: .skippedFiles) ?? []
        cutImages = try container.decodeIfPresent([CutImage].self, forKey: .cutImages) ?? []
    }
}
