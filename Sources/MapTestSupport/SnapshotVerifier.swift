public import Foundation
public import ImageCodec
import ImageCompare

/// Checks renders against golden PNG images, recording missing goldens and writing the render and
/// a diff next to a golden it does not match.
///
/// Goldens live in a `__Snapshots__` folder beside the test file, as `<name>.png`. On a mismatch
/// the render goes to `<name>.actual.png` and the diff to `<name>.diff.png` (both git-ignored);
/// when a later run matches, these leftovers are removed. ``assertRenderMatches(_:named:threshold:maxDiffPixels:fileID:filePath:line:column:)``
/// turns the outcome into a test failure; this type does not assert, so it can be tested itself.
///
/// For example:
/// ```swift
/// let verifier = SnapshotVerifier(snapshotDirectory: URL(filePath: "/tmp/snapshots"))
/// let outcome = verifier.verify(render, named: "zoom-3-paris", maxDiffPixels: 10)
/// print(outcome.failureMessage ?? "matches")
/// ```
public struct SnapshotVerifier: Sendable {
    /// The environment variable that, set to `1`, makes every verification re-record its golden.
    public static let recordVariable = "MAPWRIGHT_RECORD"

    /// Where the goldens are.
    public var snapshotDirectory: URL
    /// Whether to overwrite every golden with the render instead of comparing.
    public var isRecording: Bool

    /// Creates a verifier for the goldens in `snapshotDirectory`.
    ///
    /// - Parameters:
    ///   - snapshotDirectory: The folder holding `<name>.png` goldens; created when a golden is recorded.
    ///   - isRecording: Whether to re-record every golden. The default is true when the
    ///     `MAPWRIGHT_RECORD` environment variable is `1`.
    public init(snapshotDirectory: URL, isRecording: Bool = SnapshotVerifier.isRecordingRequested()) {
        self.snapshotDirectory = snapshotDirectory
        self.isRecording = isRecording
    }

    /// Creates a verifier for the `__Snapshots__` folder beside the test file `testFilePath`
    /// (normally `#filePath`).
    public init(testFilePath: String, isRecording: Bool = SnapshotVerifier.isRecordingRequested()) {
        let directory = URL(fileURLWithPath: testFilePath).deletingLastPathComponent()
        self.init(snapshotDirectory: directory.appendingPathComponent("__Snapshots__"), isRecording: isRecording)
    }

    /// Whether `environment` asks for goldens to be re-recorded: `MAPWRIGHT_RECORD=1`.
    public static func isRecordingRequested(
        in environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        environment[recordVariable] == "1"
    }

    /// The golden for `name`: `<snapshotDirectory>/<name>.png`.
    public func goldenURL(named name: String) -> URL {
        snapshotDirectory.appendingPathComponent("\(name).png")
    }

    /// The render written on a mismatch: `<name>.actual.png` beside the golden.
    public func actualURL(named name: String) -> URL {
        snapshotDirectory.appendingPathComponent("\(name).actual.png")
    }

    /// The diff written on a mismatch: `<name>.diff.png` beside the golden.
    public func diffURL(named name: String) -> URL {
        snapshotDirectory.appendingPathComponent("\(name).diff.png")
    }

    /// Compares `image` with the golden `name`, recording the golden if it is missing or
    /// re-recording is on, and writing the render and the diff beside a golden it does not match.
    ///
    /// - Parameters:
    ///   - image: The render.
    ///   - name: The golden's name, without `.png`; may contain `/` for subfolders.
    ///   - threshold: The per-pixel colour threshold, from 0 to 1, as in `DiffOptions.threshold` (ImageCompare).
    ///     The default is 0.1.
    ///   - maxDiffPixels: How many pixels may differ beyond the threshold. The default is 0.
    /// - Returns: What was found, with the message to fail a test with.
    public func verify(
        _ image: RGBAImage, named name: String, threshold: Double = 0.1, maxDiffPixels: Int = 0
    ) -> SnapshotOutcome {
        let golden = goldenURL(named: name)
        let goldenExists = FileManager.default.fileExists(atPath: golden.path)
        if isRecording || !goldenExists {
            do {
                try FileManager.default.createDirectory(
                    at: golden.deletingLastPathComponent(), withIntermediateDirectories: true
                )
                try image.writePNG(to: golden)
            } catch {
                return .failed(golden: golden, reason: "recording the golden failed: \(error)")
            }
            removeLeftovers(named: name)
            return .recorded(golden: golden, wasMissing: !goldenExists)
        }

        let expected: RGBAImage
        do {
            expected = try RGBAImage(contentsOf: golden)
        } catch {
            return .failed(golden: golden, reason: "\(error)")
        }
        let actualURL = actualURL(named: name)
        guard expected.size == image.size else {
            let written = (try? image.writePNG(to: actualURL)) != nil
            return .failed(
                golden: golden,
                reason: "the render is \(image.size) pixels but the golden is \(expected.size)"
                    + (written ? "; the render was written to \(actualURL.path)" : "")
            )
        }
        do {
            let result = try compare(
                expected, image, options: DiffOptions(threshold: threshold), makeDiffImage: true
            )
            guard result.differentPixels > maxDiffPixels else {
                removeLeftovers(named: name)
                return .matched(golden: golden, differentPixels: result.differentPixels)
            }
            let diffURL = diffURL(named: name)
            try image.writePNG(to: actualURL)
            try result.diffImage?.writePNG(to: diffURL)
            return .mismatched(
                SnapshotMismatch(
                    golden: golden, actualImage: actualURL, diffImage: diffURL,
                    differentPixels: result.differentPixels, totalPixels: result.totalPixels,
                    maxDiffPixels: maxDiffPixels
                )
            )
        } catch {
            return .failed(golden: golden, reason: "\(error)")
        }
    }

    /// Removes the render and diff a previous failing run left beside the golden.
    private func removeLeftovers(named name: String) {
        try? FileManager.default.removeItem(at: actualURL(named: name))
        try? FileManager.default.removeItem(at: diffURL(named: name))
    }
}
