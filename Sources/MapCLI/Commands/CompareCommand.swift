import ArgumentParser
import Foundation
import ImageCodec
import ImageCompare
import MapAssembly

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

    @Option(
        parsing: .unconditional, help: "The per-pixel colour threshold, from 0 (exact) to 1; higher tolerates more.")
    var threshold: Double = 0.1

    @Flag(name: .customLong("include-aa"), help: "Count anti-aliased pixels as differences too.")
    var includeAntiAliased = false

    @Option(parsing: .unconditional, help: "How many differing pixels are tolerated, 0 or more. The default is 0.")
    var maxDiffPixels: Int?

    @Option(
        parsing: .unconditional,
        help: "The tolerated fraction of differing pixels, from 0 to 1, instead of --max-diff-pixels.")
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
            guard CompareInputs.DiffFormat(path: diffPath) != nil else {
                throw ValidationError("--diff: '\(diffPath)' must end in .png, .jpg or .jpeg")
            }
            try OutputPath.checkWritable(diffPath, option: "--diff")
        }
    }

    func run() throws {
        let options = DiffOptions(threshold: threshold, includeAntiAliased: includeAntiAliased)
        let result = try CompareInputs(expected: expected, actual: actual, options: options, diffImage: diffPath)
            .compare()
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
}
