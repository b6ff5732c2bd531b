/// What loading a photo source left out, for one warning line.
///
/// Photos without a location are skipped rather than placed at 0°, 0°; the report counts them:
///
/// ```swift
/// let photos = try PhotoCollection.load(from: folder)
/// if let warning = photos.report.warningLine { print("warning: \(warning)") }
/// // warning: 2 photos have no GPS location and were skipped
/// ```
public struct PhotoLoadReport: Hashable, Sendable, Codable {
    /// How many photos had no location (no GPS tags, no coordinates, or exactly 0°, 0°).
    public var skippedWithoutLocation: Int

    /// Creates a report.
    public init(skippedWithoutLocation: Int = 0) {
        self.skippedWithoutLocation = skippedWithoutLocation
    }

    /// One line for a person, or `nil` when nothing was skipped.
    public var warningLine: String? {
        switch skippedWithoutLocation {
        case 0: return nil
        case 1: return "1 photo has no GPS location and was skipped"
        case let count: return "\(count) photos have no GPS location and were skipped"
        }
    }
}
