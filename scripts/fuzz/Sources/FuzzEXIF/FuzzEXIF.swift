import FuzzSupport
import PhotoSources

/// A JPEG file's head and EXIF block, as a folder of photos reads each file: the segments up to
/// the image data, then libexif on the APP1 payload and every tag Mapwright reads (GPS position,
/// altitude, accuracy, date, title, artist). `PhotoSourceError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let file = FuzzInputFile.write(start, count, name: "photo.jpg")
    FuzzOutcome.run("EXIF") { _ = try JPEGFolderSource.facts(ofJPEG: file) }
    return 0
}

@main
enum FuzzEXIFMain {
    static func main() { FuzzDriver.run() }
}
