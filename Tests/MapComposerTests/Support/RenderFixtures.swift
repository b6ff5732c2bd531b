import Foundation
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport

/// Shared inputs for the composer's tests: the repository's styles and bundled basemap, and one
/// `MapData` for every test, as a long-running process would keep it.
enum RenderFixtures {
    static let data = MapData(basemapDirectory: RepositoryFiles.basemap)
    static let snapshotter = MapSnapshotter(data: data)

    static func style(_ name: String) throws -> Style {
        try Style.named(name, in: RepositoryFiles.styles).style
    }

    /// A style with only a plain background, so marker tests see nothing else.
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
}
