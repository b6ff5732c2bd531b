import Foundation
import FuzzSupport
import ImageCodec

/// JPEG bytes decoded to RGBA8 through libjpeg-turbo, at full size and scaled down as a photo
/// thumbnail is. `ImageCodecError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    FuzzOutcome.run("JPEG") { _ = try RGBAImage(jpegData: data) }
    FuzzOutcome.run("JPEG scaled") { _ = try RGBAImage(jpegData: data, minimumSide: 16) }
    return 0
}

@main
enum FuzzJPEGMain {
    static func main() { FuzzDriver.run() }
}
