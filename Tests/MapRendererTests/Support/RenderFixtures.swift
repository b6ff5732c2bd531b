import Foundation
import ImageCodec
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport

/// Shared inputs for render tests: the repository's styles, samples and bundled basemap, and one
/// `MapData` for every test, as a long-running process would keep it.
enum RenderFixtures {
    static let repository = RepositoryFiles.root
    static let styles = RepositoryFiles.styles
    static let samples = RepositoryFiles.samples
    static let data = MapData(basemapDirectory: RepositoryFiles.basemap)
    static let snapshotter = MapSnapshotter(data: data)

    static func style(_ name: String) throws -> Style {
        try Style.named(name, in: styles).style
    }

    /// A style with only a plain background, so marker and overlay tests see nothing else.
    static func plainStyle(_ background: String = "#f4f1ea") throws -> Style {
        let json = """
            {"version": 8, "name": "plain", "sources": {},
             "layers": [{"id": "background", "type": "background", "paint": {"background-color": "\(background)"}}]}
            """
        return try Style.parse(Data(json.utf8), file: "plain.json").style
    }

    static func coordinate(_ latitude: Double, _ longitude: Double) throws -> Coordinate {
        try Coordinate(latitude: latitude, longitude: longitude)
    }

    /// A 92 × 92 stand-in photo thumbnail: a sky gradient over a green hill.
    static func thumbnail() -> RGBAImage {
        let size = 92
        var pixels = [UInt8](repeating: 255, count: size * size * 4)
        for y in 0..<size {
            for x in 0..<size {
                let offset = (y * size + x) * 4
                let hill = Double(y) > 60 - 18 * sin(Double(x) / 92 * .pi)
                pixels[offset] = hill ? 60 : UInt8(120 + y)
                pixels[offset + 1] = hill ? 140 : UInt8(170 + y / 2)
                pixels[offset + 2] = hill ? 70 : 235
            }
        }
        return RGBAImage(width: size, height: size, pixels: pixels)
    }
}
