import Foundation
import ImageCodec
import MapCore
import MapStyle
import MapTestSupport
import Testing

@testable import MapRenderer

/// `format` sections of labels drawn with the installed fonts (a style without local glyphs):
/// each section in its own colour, size and font, through Pango attributes.
struct InstalledFontSectionsTests {
    @Test func sectionsKeepTheirColourAndScale() throws {
        let json = """
            {"version": 8,
             "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "label", "type": "symbol", "source": "p",
                         "layout": {"text-field": ["format", "BIG", {"font-scale": 2, "text-color": "#ff0000"}, " small", {}],
                                    "text-font": ["Noto Sans Regular"], "text-size": 12},
                         "paint": {"text-color": "#0000ff"}}]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "sections.json")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let viewport = try Viewport(center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 160, height: 80))
        let image = try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
            .snapshot(MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)).image
        // The red section's ink: left of the blue's and about twice as tall.
        var red: (columns: Set<Int>, rows: Set<Int>) = ([], []), blue: (columns: Set<Int>, rows: Set<Int>) = ([], [])
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x: x, y: y]
                if pixel.red > 180 && pixel.green < 80 && pixel.blue < 80 { red.columns.insert(x); red.rows.insert(y) }
                if pixel.blue > 180 && pixel.red < 80 && pixel.green < 80 { blue.columns.insert(x); blue.rows.insert(y) }
            }
        }
        #expect(!red.rows.isEmpty && !blue.rows.isEmpty)
        #expect(red.columns.max()! < blue.columns.min()!)
        let redHeight = Double(red.rows.max()! - red.rows.min()! + 1), blueHeight = Double(blue.rows.max()! - blue.rows.min()! + 1)
        #expect(redHeight > 1.5 * blueHeight, "\(redHeight) against \(blueHeight)")
        // One baseline: the small text's bottom level with the big text's.
        #expect(abs(red.rows.max()! - blue.rows.max()!) <= 1)
    }
}
