import FuzzSupport
import GeoData

/// A GeoPackage geometry blob (the GeoPackageBinaryHeader, then ISO WKB) and the same bytes as
/// bare WKB, as a GeoPackage feature table's geometry column is read. `GeoDataError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    FuzzOutcome.run("GeoPackage geometry") { _ = try GeoPackageGeometry(decoding: bytes) }
    FuzzOutcome.run("WKB") {
        var reader = WKBReader(bytes: bytes)
        _ = try reader.readGeometry()
    }
    return 0
}

@main
enum FuzzWKBMain {
    static func main() { FuzzDriver.run() }
}
