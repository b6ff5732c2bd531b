public import Foundation

/// What ``SnapshotVerifier/verify(_:named:threshold:maxDiffPixels:)`` found and did.
public enum SnapshotOutcome: Hashable, Sendable {
    /// The render matches its golden within the tolerance.
    case matched(golden: URL, differentPixels: Int)
    /// The render was written as the golden, because there was none (`wasMissing`) or because
    /// re-recording was asked for. Either way the test fails, so that no test passes unchecked.
    case recorded(golden: URL, wasMissing: Bool)
    /// The render differs from its golden beyond the tolerance; the render and the diff were
    /// written next to the golden.
    case mismatched(SnapshotMismatch)
    /// The render could not be checked: the golden is unreadable or of another size, or a file
    /// could not be written.
    case failed(golden: URL, reason: String)

    /// Whether the test should pass: only a match passes.
    public var isSuccess: Bool {
        if case .matched = self { return true }
        return false
    }

    /// The message for a failing test, saying what happened and which files to look at;
    /// nil for a match.
    public var failureMessage: String? {
        switch self {
        case .matched:
            return nil
        case .recorded(let golden, wasMissing: true):
            return "No golden image existed: recorded the render as \(golden.path). "
                + "Check it, commit it and run the test again."
        case .recorded(let golden, wasMissing: false):
            return "Re-recorded the golden image \(golden.path) (MAPWRIGHT_RECORD=1). "
                + "Run the tests without MAPWRIGHT_RECORD to verify renders."
        case .mismatched(let mismatch):
            return mismatch.description
        case .failed(let golden, let reason):
            return "Cannot check the render against \(golden.path): \(reason)"
        }
    }
}

/// A render that differs from its golden beyond the tolerance, and where to look.
public struct SnapshotMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The golden image, `__Snapshots__/<name>.png`.
    public var golden: URL
    /// The render, written next to the golden as `<name>.actual.png`.
    public var actualImage: URL
    /// The diff image, written next to the golden as `<name>.diff.png`.
    public var diffImage: URL
    /// The number of pixels that differ beyond the threshold.
    public var differentPixels: Int
    /// The number of pixels in the image.
    public var totalPixels: Int
    /// The number of differing pixels allowed.
    public var maxDiffPixels: Int

    /// Creates a mismatch report.
    public init(
        golden: URL, actualImage: URL, diffImage: URL, differentPixels: Int, totalPixels: Int, maxDiffPixels: Int
    ) {
        self.golden = golden
        self.actualImage = actualImage
        self.diffImage = diffImage
        self.differentPixels = differentPixels
        self.totalPixels = totalPixels
        self.maxDiffPixels = maxDiffPixels
    }

    /// A several-line message: the count, the allowance and the three paths.
    public var description: String {
        let percent = totalPixels == 0 ? 0 : 100 * Double(differentPixels) / Double(totalPixels)
        return """
            The render differs from its golden image in \(differentPixels) of \(totalPixels) pixels \
            (\(String(format: "%.4f", percent))%); \(maxDiffPixels) allowed.
              golden: \(golden.path)
              actual: \(actualImage.path)
              diff:   \(diffImage.path)
            """
    }
}
