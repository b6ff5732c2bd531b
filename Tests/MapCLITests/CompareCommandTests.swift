import ArgumentParser
import Foundation
import ImageCodec
import ImageCompare
import Testing

@testable import MapCLI

struct CompareCommandTests {
    // MARK: - Parsing

    @Test func parsesDefaults() throws {
        let command = try CompareCommand.parse(["expected.png", "actual.png"])
        #expect(command.expected == "expected.png")
        #expect(command.actual == "actual.png")
        #expect(command.threshold == 0.1)
        #expect(!command.includeAntiAliased)
        #expect(command.maxDiffPixels == nil && command.maxDiffRatio == nil)
        #expect(command.diffPath == nil)
        #expect(!command.json)
    }

    @Test func parsesEveryOption() throws {
        let command = try CompareCommand.parse([
            "e.png", "a.png", "--threshold", "0.2", "--include-aa", "--max-diff-ratio", "0.01", "--diff", "d.png",
            "--json",
        ])
        #expect(command.threshold == 0.2)
        #expect(command.includeAntiAliased)
        #expect(command.maxDiffRatio == 0.01)
        #expect(command.diffPath == "d.png")
        #expect(command.json)
    }

    @Test(arguments: [
        ["e.png", "a.png", "--max-diff-pixels", "3", "--max-diff-ratio", "0.1"],
        ["e.png", "a.png", "--threshold", "1.5"],
        ["e.png", "a.png", "--max-diff-pixels", "-1"],
        ["e.png", "a.png", "--max-diff-ratio", "2"],
        ["e.png"],
    ])
    func rejectsBadOptions(arguments: [String]) {
        #expect(throws: (any Error).self) { try CompareCommand.parse(arguments) }
    }

    @Test func toleranceDefaultsToZeroPixels() throws {
        let result = DiffResult(differentPixels: 1, size: ImageSize(width: 10, height: 10))
        #expect(!(try CompareCommand.parse(["e", "a"]).isWithinTolerance(result)))
        #expect(try CompareCommand.parse(["e", "a", "--max-diff-pixels", "1"]).isWithinTolerance(result))
        #expect(try CompareCommand.parse(["e", "a", "--max-diff-ratio", "0.01"]).isWithinTolerance(result))
        #expect(!(try CompareCommand.parse(["e", "a", "--max-diff-ratio", "0.009"]).isWithinTolerance(result)))
    }

    @Test func summaryAndJSONHaveTheDocumentedShape() {
        let result = DiffResult(differentPixels: 3, size: ImageSize(width: 4, height: 2))
        #expect(CompareCommand.summary(of: result) == "3 pixels differ (37.5000%)")
        #expect(
            CompareCommand.json(for: result)
                == #"{"differentPixels": 3, "totalPixels": 8, "ratio": 0.375, "width": 4, "height": 2}"#
        )
    }

    // MARK: - Exit statuses of the executable

    @Test func exitsZeroForIdenticalImages() throws {
        try withFixtures { files in
            let output = try MapwrightProcess.run(["compare", files.expected, files.expected])
            #expect(output.status == 0)
            #expect(output.standardOutput == "0 pixels differ (0.0000%)\n")
        }
    }

    @Test func exitsOneWhenImagesDifferBeyondTolerance() throws {
        try withFixtures { files in
            let output = try MapwrightProcess.run(["compare", files.expected, files.actual])
            #expect(output.status == 1)
            #expect(output.standardOutput == "1 pixel differs (6.2500%)\n")
            #expect(output.standardError.isEmpty)
        }
    }

    @Test func exitsZeroWhenTheDifferenceIsTolerated() throws {
        try withFixtures { files in
            let compare = ["compare", files.expected, files.actual]
            let pixelsTolerated = try MapwrightProcess.run(compare + ["--max-diff-pixels", "1"])
            let ratioTolerated = try MapwrightProcess.run(compare + ["--max-diff-ratio", "0.07"])
            let ratioExceeded = try MapwrightProcess.run(compare + ["--max-diff-ratio", "0.06"])
            #expect(pixelsTolerated.status == 0)
            #expect(ratioTolerated.status == 0)
            #expect(ratioExceeded.status == 1)
        }
    }

    @Test func printsJSONAndWritesTheDiffImage() throws {
        try withFixtures { files in
            let diff = files.directory.appendingPathComponent("diff.png")
            let output = try MapwrightProcess.run([
                "compare", files.expected, files.actual, "--json", "--diff", diff.path,
            ])
            #expect(output.status == 1)
            #expect(
                output.standardOutput
                    == #"{"differentPixels": 1, "totalPixels": 16, "ratio": 0.0625, "width": 4, "height": 4}"# + "\n"
            )
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
            )
            #expect(Set(object.keys) == ["differentPixels", "totalPixels", "ratio", "width", "height"])
            #expect(try RGBAImage(contentsOf: diff)[x: 1, y: 2] == RGBAPixel(red: 255, green: 0, blue: 0))
        }
    }

    @Test func exitsTwoOnErrorsWithOneLineNamingTheFile() throws {
        try withFixtures { files in
            let cases: [(arguments: [String], message: String)] = [
                ([files.expected, files.other], "\(files.other): 3x4 pixels, but \(files.expected) is 4x4"),
                ([files.expected, files.corrupt], "\(files.corrupt): not a readable PNG: "),
                ([files.missing, files.actual], "\(files.missing): not a readable PNG: there is no such file"),
                ([files.expected, files.actual, "--max-diff-pixels", "1", "--max-diff-ratio", "0.1"], "not both"),
                ([files.expected, files.actual, "--threshold", "abc"], "abc"),
            ]
            for (arguments, message) in cases {
                let output = try MapwrightProcess.run(["compare"] + arguments)
                #expect(output.status == 2, "\(arguments)")
                #expect(output.standardOutput.isEmpty)
                #expect(output.standardError.hasPrefix("mapwright: "))
                #expect(output.standardError.contains(message), "\(output.standardError)")
                #expect(output.standardError.filter { $0 == "\n" }.count == 1)
            }
        }
    }

    // MARK: - Fixtures

    private struct Fixtures {
        var directory: URL
        var expected: String
        var actual: String
        var other: String
        var corrupt: String
        var missing: String
    }

    /// 4 x 4 PNGs in a fresh directory: the expected image, one with a changed pixel, one of
    /// another size and a truncated file.
    private func withFixtures(_ body: (Fixtures) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("CompareCommandTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let expected = RGBAImage(width: 4, height: 4, filledWith: RGBAPixel(red: 40, green: 80, blue: 120))
        var actual = expected
        actual[x: 1, y: 2] = .white
        let files = Fixtures(
            directory: directory,
            expected: directory.appendingPathComponent("expected.png").path,
            actual: directory.appendingPathComponent("actual.png").path,
            other: directory.appendingPathComponent("other.png").path,
            corrupt: directory.appendingPathComponent("corrupt.png").path,
            missing: directory.appendingPathComponent("missing.png").path
        )
        try expected.writePNG(to: URL(fileURLWithPath: files.expected))
        try actual.writePNG(to: URL(fileURLWithPath: files.actual))
        try RGBAImage(width: 3, height: 4).writePNG(to: URL(fileURLWithPath: files.other))
        try expected.pngData().prefix(50).write(to: URL(fileURLWithPath: files.corrupt))
        try body(files)
    }
}
