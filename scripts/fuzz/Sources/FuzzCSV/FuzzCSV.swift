import FuzzSupport
import PhotoSources

/// A CSV photo file: the header, quoting, every row's coordinates and text columns, and the
/// image paths resolved against the file's folder. `PhotoSourceError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let file = FuzzInputFile.write(start, count, name: "photos.csv")
    FuzzOutcome.run("CSV") { _ = try CSVPhotoSource(url: file).load() }
    return 0
}

@main
enum FuzzCSVMain {
    static func main() { FuzzDriver.run() }
}
