import Foundation
import FuzzSupport
import MapStyle

/// A style document from memory: JSON, then the style (sources, layers, filters, expressions,
/// colours, Mapwright's own section), with its warnings. `StyleError` is a pass.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    FuzzOutcome.run("style") {
        let (style, _) = try Style.parse(data, file: "fuzz.json")
        _ = style.layers(visibleAtZoom: 10)
    }
    return 0
}

@main
enum FuzzStyleMain {
    static func main() { FuzzDriver.run() }
}
