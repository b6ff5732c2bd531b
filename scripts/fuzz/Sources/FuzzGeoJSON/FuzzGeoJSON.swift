import Foundation
import FuzzSupport
import GeoData
import MapCore

/// A GeoJSON document from memory (FeatureCollection, Feature or bare geometry), and, when it
/// reads, each feature's geometry projected, simplified and clipped as the renderer prepares
/// it. `GeoDataError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    FuzzOutcome.run("GeoJSON") {
        let collection = try GeoJSONReader.read(data: data, path: "fuzz.geojson")
        let rect = MapRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        for feature in collection.features {
            guard let geometry = feature.geometry else { continue }
            _ = PreparedGeometry(projecting: geometry, tolerance: 1e-4).clipped(to: rect)
        }
    }
    return 0
}

@main
enum FuzzGeoJSONMain {
    static func main() { FuzzDriver.run() }
}
