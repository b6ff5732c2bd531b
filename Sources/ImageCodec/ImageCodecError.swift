public import Foundation
public import MapUtilities

/// Why an image could not be read or written: the one error of ImageCodec.
public enum ImageCodecError: Error, Hashable, Sendable {
    /// The file or bytes are not a PNG that can be decoded: missing, corrupt, truncated or too large.
    /// `path` is nil when the bytes came from memory.
    case unreadablePNG(path: String?, reason: String)
    /// The pixels could not be encoded as PNG.
    case unencodablePNG(reason: String)
    /// The bytes are not a JPEG that libjpeg-turbo can decode. `path` is nil when the bytes came
    /// from memory.
    case unreadableJPEG(path: String?, reason: String)
    /// The pixels could not be encoded as JPEG.
    case unencodableJPEG(reason: String)
    /// The file could not be written (or moved into place).
    case unwritableFile(path: String, reason: String)
}

extension ImageCodecError: CustomStringConvertible {
    /// A one-line message for a person, naming the file when there is one.
    public var description: String {
        switch self {
        case .unreadablePNG(let path?, let reason):
            "\(path): not a readable PNG: \(reason)"
        case .unreadablePNG(nil, let reason):
            "not readable PNG data: \(reason)"
        case .unencodablePNG(let reason):
            "cannot encode the image as PNG: \(reason)"
        case .unreadableJPEG(let path?, let reason):
            "\(path): not a readable JPEG: \(reason)"
        case .unreadableJPEG(nil, let reason):
            "not readable JPEG data: \(reason)"
        case .unencodableJPEG(let reason):
            "cannot encode the image as JPEG: \(reason)"
        case .unwritableFile(let path, let reason):
            "\(path): cannot write the file: \(reason)"
        }
    }
}

extension ImageCodecError: LocalizedError {
    public var errorDescription: String? { description }
}

/// Bad input: exit status 2.
extension ImageCodecError: ExitStatusError {}
