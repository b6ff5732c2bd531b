public import Foundation
public import ImageCodec
public import MapUtilities

/// Why two images could not be compared: the one error of ImageCompare.
public enum ImageCompareError: Error, Hashable, Sendable {
    /// The images to compare have different dimensions, so no per-pixel count exists.
    case sizeMismatch(expected: ImageSize, actual: ImageSize)
}

extension ImageCompareError: CustomStringConvertible {
    /// A one-line message for a person.
    public var description: String {
        switch self {
        case .sizeMismatch(let expected, let actual):
            "the images differ in size: expected \(expected) pixels, actual \(actual) pixels"
        }
    }
}

extension ImageCompareError: LocalizedError {
    public var errorDescription: String? { description }
}

/// Bad input: exit status 2.
extension ImageCompareError: ExitStatusError {}
