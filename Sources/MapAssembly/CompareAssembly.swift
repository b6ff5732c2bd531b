import Foundation
import ImageCodec
public import ImageCompare
import MapUtilities

/// Two PNG images to compare, as values: read, compared as pixelmatch does (``ImageCompare``),
/// and the diff image written, as `mapwright compare` does:
///
/// ```swift
/// let inputs = CompareInputs(expected: "golden.png", actual: "map.png", diffImage: "diff.png")
/// let result = try inputs.compare()
/// print(result.differentPixels)
/// ```
public struct CompareInputs: Sendable {
    /// The files a diff image is written as.
    public enum DiffFormat: Hashable, Sendable {
        case png
        /// JPEG, quality 90.
        case jpeg

        /// The format a path's extension names: `.png`, or `.jpg` or `.jpeg`; nil for any other.
        public init?(path: String) {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "png": self = .png
            case "jpg", "jpeg": self = .jpeg
            default: return nil
            }
        }
    }

    /// The reference PNG image.
    public var expected: String
    /// The PNG image to check, of the same size.
    public var actual: String
    /// The colour threshold and whether anti-aliased pixels count. The default is pixelmatch's:
    /// threshold 0.1, anti-aliased pixels not counted.
    public var options: DiffOptions
    /// Where the diff image goes, its format by its extension (``DiffFormat``); nil (the default) for none.
    public var diffImage: String?

    public init(expected: String, actual: String, options: DiffOptions = DiffOptions(), diffImage: String? = nil) {
        self.expected = expected
        self.actual = actual
        self.options = options
        self.diffImage = diffImage
    }

    /// How many pixels differ, the diff image written when one is asked for.
    ///
    /// - Throws: ``AssemblyError`` naming the image that cannot be read, images of two sizes, or
    ///   `--diff` when the diff image cannot be written.
    public func compare() throws(AssemblyError) -> DiffResult {
        let expectedImage = try Self.readImage(expected)
        let actualImage = try Self.readImage(actual)
        guard expectedImage.size == actualImage.size else {
            throw .message(
                "\(actual): \(actualImage.size) pixels, but \(expected) is \(expectedImage.size); only images of the same size can be compared"
            )
        }
        let result: DiffResult
        do throws(ImageCompareError) {
            result = try ImageCompare.compare(
                expectedImage, actualImage, options: options, makeDiffImage: diffImage != nil)
        } catch {
            throw .comparison(error)
        }
        if let diffImage, let image = result.diffImage {
            let url = URL(fileURLWithPath: diffImage)
            do {
                switch DiffFormat(path: diffImage) {
                case .jpeg?: try AtomicFile.write(try image.jpegData(), to: url)
                case .png?, nil: try image.writePNG(to: url)
                }
            } catch {
                throw .message("--diff: \(error)")
            }
        }
        return result
    }

    private static func readImage(_ path: String) throws(AssemblyError) -> RGBAImage {
        do throws(ImageCodecError) {
            return try RGBAImage(contentsOf: URL(fileURLWithPath: path))
        } catch .unreadablePNG(_, let reason) {
            throw .message("\(path): not a readable PNG: \(reason)")
        } catch {
            throw .message("\(path): \(error)")
        }
    }
}
