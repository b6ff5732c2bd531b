import Foundation
import ImageCodec
import MapTestSupport
import Testing

/// Serialized: the two `assertRenderMatches` tests share the committed golden and its leftovers.
@Suite(.serialized)
struct SnapshotVerifierTests {
    private let render = RGBAImage(width: 8, height: 6, filledWith: RGBAPixel(red: 20, green: 90, blue: 160))

    @Test func missingGoldenIsRecordedAndFailsSayingSo() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let verifier = SnapshotVerifier(snapshotDirectory: directory, isRecording: false)

        let outcome = verifier.verify(render, named: "ocean")
        let golden = directory.appendingPathComponent("ocean.png")
        #expect(outcome == .recorded(golden: golden, wasMissing: true))
        #expect(!outcome.isSuccess)
        let message = try #require(outcome.failureMessage)
        #expect(message.contains("No golden image existed"))
        #expect(message.contains(golden.path))
        #expect(try RGBAImage(contentsOf: golden) == render)

        // The next run checks against the recorded golden, and passes.
        #expect(verifier.verify(render, named: "ocean") == .matched(golden: golden, differentPixels: 0))
    }

    @Test func recordingOverwritesAnExistingGoldenAndFails() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let golden = directory.appendingPathComponent("ocean.png")
        try RGBAImage(width: 8, height: 6, filledWith: .white).writePNG(to: golden)

        let outcome = SnapshotVerifier(snapshotDirectory: directory, isRecording: true).verify(render, named: "ocean")
        #expect(outcome == .recorded(golden: golden, wasMissing: false))
        #expect(outcome.failureMessage?.contains("MAPWRIGHT_RECORD=1") == true)
        #expect(try RGBAImage(contentsOf: golden) == render)
    }

    @Test func recordingIsRequestedByMapwrightRecordEqualToOne() {
        #expect(SnapshotVerifier.isRecordingRequested(in: ["MAPWRIGHT_RECORD": "1"]))
        #expect(!SnapshotVerifier.isRecordingRequested(in: ["MAPWRIGHT_RECORD": "0"]))
        #expect(!SnapshotVerifier.isRecordingRequested(in: [:]))
    }

    @Test func mismatchWritesActualAndDiffBesideTheGoldenAndReportsThem() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let verifier = SnapshotVerifier(snapshotDirectory: directory, isRecording: false)
        _ = verifier.verify(render, named: "ocean")
        var changed = render
        changed[x: 2, y: 2] = .white
        changed[x: 5, y: 3] = .black

        let outcome = verifier.verify(changed, named: "ocean", maxDiffPixels: 1)
        guard case .mismatched(let mismatch) = outcome else {
            Issue.record("expected a mismatch, got \(outcome)")
            return
        }
        #expect(mismatch.differentPixels == 2)
        #expect(mismatch.actualImage == directory.appendingPathComponent("ocean.actual.png"))
        #expect(mismatch.diffImage == directory.appendingPathComponent("ocean.diff.png"))
        #expect(try RGBAImage(contentsOf: mismatch.actualImage) == changed)
        #expect(try RGBAImage(contentsOf: mismatch.diffImage)[x: 2, y: 2] == RGBAPixel(red: 255, green: 0, blue: 0))
        let message = try #require(outcome.failureMessage)
        #expect(message.contains("in 2 of 48 pixels"))
        #expect(message.contains("1 allowed"))
        #expect(message.contains(mismatch.golden.path))
        #expect(message.contains(mismatch.actualImage.path))
        #expect(message.contains(mismatch.diffImage.path))

        // Within the allowance it matches, and the leftovers are cleaned up.
        #expect(verifier.verify(changed, named: "ocean", maxDiffPixels: 2).isSuccess)
        #expect(!FileManager.default.fileExists(atPath: mismatch.actualImage.path))
        #expect(!FileManager.default.fileExists(atPath: mismatch.diffImage.path))
    }

    @Test func goldenOfAnotherSizeFailsAndKeepsTheRender() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let verifier = SnapshotVerifier(snapshotDirectory: directory, isRecording: false)
        _ = verifier.verify(RGBAImage(width: 4, height: 4), named: "ocean")

        let outcome = verifier.verify(render, named: "ocean")
        let message = try #require(outcome.failureMessage)
        #expect(message.contains("the render is 8x6 pixels but the golden is 4x4"))
        #expect(try RGBAImage(contentsOf: verifier.actualURL(named: "ocean")) == render)
    }

    @Test func goldensLiveInSnapshotsBesideTheTestFile() {
        let verifier = SnapshotVerifier(testFilePath: "/repo/Tests/MapRendererTests/RenderTests.swift")
        #expect(verifier.goldenURL(named: "paris").path == "/repo/Tests/MapRendererTests/__Snapshots__/paris.png")
        #expect(verifier.actualURL(named: "paris").lastPathComponent == "paris.actual.png")
        #expect(verifier.diffURL(named: "paris").lastPathComponent == "paris.diff.png")
    }

    @Test func assertRenderMatchesPassesAgainstTheCommittedGolden() {
        // The golden is Tests/MapTestSupportTests/__Snapshots__/checkerboard.png, committed.
        var checkerboard = RGBAImage(width: 16, height: 16, filledWith: .white)
        for y in 0..<16 {
            for x in 0..<16 where (x / 4 + y / 4) % 2 == 0 { checkerboard[x: x, y: y] = .black }
        }
        assertRenderMatches(checkerboard, named: "checkerboard")
    }

    /// Skipped while re-recording, which would overwrite the golden with the wrong image.
    @Test(.disabled(if: SnapshotVerifier.isRecordingRequested()))
    func assertRenderMatchesRecordsAnIssueOnMismatch() {
        withKnownIssue {
            assertRenderMatches(RGBAImage(width: 16, height: 16, filledWith: .white), named: "checkerboard")
        }
        // The failing check left its render and diff beside the golden; tidy them.
        let verifier = SnapshotVerifier(testFilePath: "\(#filePath)")
        try? FileManager.default.removeItem(at: verifier.actualURL(named: "checkerboard"))
        try? FileManager.default.removeItem(at: verifier.diffURL(named: "checkerboard"))
    }
}
