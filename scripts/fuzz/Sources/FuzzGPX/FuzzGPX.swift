import Foundation
import FuzzSupport
import GeoData

/// A GPX 1.1 document from memory: waypoints, routes and tracks. `GeoDataError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    FuzzOutcome.run("GPX") { _ = try GPXReader.read(data: data, path: "fuzz.gpx") }
    return 0
}

@main
enum FuzzGPXMain {
    static func main() { FuzzDriver.run() }
}
