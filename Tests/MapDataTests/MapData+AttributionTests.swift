import Foundation
import MBTiles
import MapData
import MapStyle
import MapTestSupport
import Testing
import TileSources

/// The map's credit line: a vector tileset's own attribution over its style source's, and HTML
/// credits drawn as their text.
struct MapDataAttributionTests {
    private let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    private var helsinki: URL { RepositoryFiles.root.appendingPathComponent("Samples/helsinki/helsinki.mbtiles") }

    private func streets(_ name: String = "streets") throws -> Style {
        try Style.named(name, in: RepositoryFiles.styles).style.configuringVectorSources(helsinki)
    }

    @Test func theSamplesAttributionIsTheMapsCredit() throws {
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        #expect(data.attributionText(for: try streets()) == "© OpenStreetMap contributors")
        // The tileset's own credit wins over the style's for the source, which is the fallback.
        var style = try streets()
        guard case .vector(var source)? = style.sources["openmaptiles"] else {
            Issue.record("no source")
            return
        }
        source.attribution = "Tiles: me"
        style.sources["openmaptiles"] = .vector(source)
        #expect(data.attributionText(for: style) == "© OpenStreetMap contributors")

        // A tileset naming no one (as tilemaker writes them): the streets style's own credit.
        let silent = directory.file("silent.mbtiles")
        try FileManager.default.copyItem(at: helsinki, to: silent)
        try MBTilesStore(url: silent, mode: .readWrite).writeMetadata(TileMetadata(attribution: ""))
        let silentStyle = try Style.named("streets", in: RepositoryFiles.styles).style.configuringVectorSources(silent)
        #expect(
            MapData(basemapDirectory: RepositoryFiles.basemap).attributionText(for: silentStyle)
                == "© OpenStreetMap contributors")
    }

    /// OpenMapTiles and Planetiler write their credit as HTML: the map draws its text, links
    /// and entities resolved, while the credit itself (TileJSON, MBTiles metadata) keeps the HTML.
    @Test func anHTMLAttributionIsDrawnAsItsText() throws {
        let html =
            #"<a href="https://www.openmaptiles.org/" target="_blank">&copy; OpenMapTiles</a> "#
            + #"<a href="https://www.openstreetmap.org/copyright" target="_blank">&#169; OpenStreetMap&nbsp;contributors</a>"#
        #expect(MapData.plainText(ofAttribution: html) == "© OpenMapTiles © OpenStreetMap contributors")
        #expect(
            MapData.plainText(ofAttribution: "Tom &amp; Jerry &unknown; <b>bold</b> 3 < 4")
                == "Tom & Jerry &unknown; bold 3 < 4")
        let marked = directory.file("marked.mbtiles")
        try FileManager.default.copyItem(at: helsinki, to: marked)
        try MBTilesStore(url: marked, mode: .readWrite).writeMetadata(TileMetadata(attribution: html))
        let style = try Style.named("streets", in: RepositoryFiles.styles).style.configuringVectorSources(marked)
        #expect(MapData(basemapDirectory: RepositoryFiles.basemap).attributionText(for: style) == html)
    }
}
