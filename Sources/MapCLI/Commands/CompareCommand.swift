import ArgumentParser
import Foundation
import ImageCodec
import ImageCompare
import MapUtilities

/// `mapwright compare`: counts the pixels that differ between two PNG images, with pixelmatch's
/// algorithm, and exits 0 when the count is within tolerance and 1 when it is not.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Count the pixels that differ between two PNG images.",
        discussion: """
            Pixels are compared as pixelmatch does: colour distance in YIQ space after blending \
            onto white, with anti-aliased pixels not counted unless --include-aa is given. \
            Exits 0 when the images match within tolerance, 1 when they differ beyond it, \
            2 on an error.
            """
    )

    @Argument(help: "The reference PNG image.")
    var expected: String

    @Argument(help: "The PNG image to check, of the same size.")
    var actual: String

    @Option(parsing: .unconditional, help: "The per-pixel colour threshold, from 0 (exact) to 1; higher tolerates more.")
    var threshold: Double = 0.1

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences too.")
    var includeAntiAliased = false

    @Option(parsing: .unconditional, help: "How many differing pixels are tolerated, 0 or more. The default is 0.")
    var maxDiffPixels: Int?

    @Option(parsing: .unconditional, help: "The tolerated fraction of differing pixels, from 0 to 1, instead of --max-diff-pixels.")
    var maxDiffRatio: Double?

    @Option(
        name: .customLong("diff"), parsing: .unconditional,
        help: "Write a diff image to this file: PNG, or JPEG (quality 90) when it ends in .jpg or .jpeg.")
    var diffPath: String?

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    func validate() throws {
        guard (0...1).contains(threshold) else {
            throw ValidationError("--threshold must be between 0 and 1, not \(threshold).")
        }
        if maxDiffPixels != nil && maxDiffRatio != nil {
            throw ValidationError("Give --max-diff-pixels or --max-diff-ratio, not both.")
        }
        if let maxDiffPixels, maxDiffPixels < 0 {
            throw ValidationError("--max-diff-pixels must not be negative, not \(maxDiffPixels).")
        }
        if let maxDiffRatio, !(0...1).contains(maxDiffRatio) {
            throw ValidationError("--max-diff-ratio must be between 0 and 1, not \(maxDiffRatio).")
        }
        if let diffPath {
            _ = try diffFormat(diffPath)
            try OutputPath.checkWritable(diffPath, option: "--diff")
        }
    }

    /// The diff image's formats, by the file's extension.
    enum DiffFormat { case png, jpeg }

    /// The format `--diff` writes: JPEG for `.jpg` and `.jpeg`, PNG for `.png`.
    ///
    /// - Throws: `ValidationError` for any other extension.
    func diffFormat(_ path: String) throws -> DiffFormat {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        default: throw ValidationError("--diff: '\(path)' must end in .png, .jpg or .jpeg")
        }
    }

    func run() throws {
        let expectedImage = try readImage(expected)
        let actualImage = try readImage(actual)
        guard expectedImage.size == actualImage.size else {
            throw CommandFailure(
                "\(actual): \(actualImage.size) pixels, but \(expected) is \(expectedImage.size); "
                    + "only images of the same size can be compared"
            )
        }
        let options = DiffOptions(threshold: threshold, includeAntiAliased: includeAntiAliased)
        let result = try compare(expectedImage, actualImage, options: options, makeDiffImage: diffPath != nil)
        if let diffPath, let diffImage = result.diffImage {
            let url = URL(fileURLWithPath: diffPath)
            do {
                switch try diffFormat(diffPath) {
                case .png: try diffImage.writePNG(to: url)
                case .jpeg: try AtomicFile.write(try diffImage.jpegData(), to: url)
                }
            } catch {
                throw CommandFailure("--diff: \(error)")
            }
        }

        print(json ? Self.json(for: result) : Self.summary(of: result))
        if !isWithinTolerance(result) { throw ExitCode(1) }
    }

    /// Whether the count is within --max-diff-pixels or --max-diff-ratio (by default, zero pixels).
    func isWithinTolerance(_ result: DiffResult) -> Bool {
        if let maxDiffRatio { return result.ratio <= maxDiffRatio }
        return result.differentPixels <= (maxDiffPixels ?? 0)
    }

    /// `N pixels differ (R%)`, with the percentage to four decimals.
    static func summary(of result: DiffResult) -> String {
        let percent = String(format: "%.4f", result.ratio * 100)
        let noun = result.differentPixels == 1 ? "pixel differs" : "pixels differ"
        return "\(result.differentPixels) \(noun) (\(percent)%)"
    }

    /// `{"differentPixels": N, "totalPixels": T, "ratio": R, "width": W, "height": H}`.
    static func json(for result: DiffResult) -> String {
        "{\"differentPixels\": \(result.differentPixels), \"totalPixels\": \(result.totalPixels), "
            + "\"ratio\": \(result.ratio), \"width\": \(result.size.width), \"height\": \(result.size.height)}"
    }

    private func readImage(_ path: String) throws -> RGBAImage {
        do {
            return try RGBAImage(contentsOf: URL(fileURLWithPath: path))
        } catch .unreadablePNG(_, let reason) {
            throw CommandFailure("\(path): not a readable PNG: \(reason)")
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }
}
