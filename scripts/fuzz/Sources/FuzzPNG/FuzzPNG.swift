import Foundation
import FuzzSupport
import ImageCodec

/// PNG bytes decoded to RGBA8 through libpng (CPNGShim). `ImageCodecError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    FuzzOutcome.run("PNG") { _ = try RGBAImage(pngData: data) }
    return 0
}

@main
enum FuzzPNGMain {
    static func main() { FuzzDriver.run() }
}
