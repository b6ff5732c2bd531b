public import ImageCodec
import Testing
import XCTest

/// Fails the current test unless `image` matches the golden PNG `name`.
///
/// The golden is `__Snapshots__/<name>.png` beside the calling test file. A missing golden is
/// recorded from `image` and the test fails saying so; with `MAPWRIGHT_RECORD=1` every golden is
/// re-recorded (and the test fails, as a reminder to check the new goldens). On a mismatch the
/// render and the diff are written beside the golden as `<name>.actual.png` and `<name>.diff.png`,
/// and the failure gives their paths and the number of differing pixels. See ``SnapshotVerifier``.
///
/// Works in Swift Testing (the failure is an `Issue`) and in XCTest (an `XCTFail`).
///
/// For example:
/// ```swift
/// @Test func parisAtZoom12() throws {
///     let render = try renderer.render(camera: .paris)
///     assertRenderMatches(render, named: "paris-z12", maxDiffPixels: 20)
/// }
/// ```
///
/// - Parameters:
///   - image: The render.
///   - name: The golden's name, without `.png`.
///   - threshold: The per-pixel colour threshold, from 0 to 1 (pixelmatch's). The default is 0.1.
///   - maxDiffPixels: How many pixels may differ beyond the threshold. The default is 0.
///   - fileID: The calling file's ID, for the failure's location.
///   - filePath: The calling file's path: the goldens are in `__Snapshots__` beside it.
///   - line: The calling line, for the failure's location.
///   - column: The calling column, for the failure's location.
public func assertRenderMatches(
    _ image: RGBAImage,
    named name: String,
    threshold: Double = 0.1,
    maxDiffPixels: Int = 0,
    fileID: String = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let outcome = SnapshotVerifier(testFilePath: "\(filePath)")
        .verify(image, named: name, threshold: threshold, maxDiffPixels: maxDiffPixels)
    guard let message = outcome.failureMessage else { return }
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
        )
    } else {
        XCTFail(message, file: filePath, line: line)
    }
}
