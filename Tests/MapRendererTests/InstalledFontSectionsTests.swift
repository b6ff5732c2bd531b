import Foundation
import ImageCodec
import MapCore
import MapData
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
        let viewport = try Viewport(
            center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 160, height: 80))
        let image = try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
            .snapshot(MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)).image
        // The red section's ink: left of the blue's and about twice as tall.
        var red: (columns: Set<Int>, rows: Set<Int>) = ([], [])
        var blue: (columns: Set<Int>, rows: Set<Int>) = ([], [])
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x: x, y: y]
                if pixel.red > 180 && pixel.green < 80 && pixel.blue < 80 {
                    red.columns.insert(x)
                    red.rows.insert(y)
                }
                if pixel.blue > 180 && pixel.red < 80 && pixel.green < 80 {
                    blue.columns.insert(x)
                    blue.rows.insert(y)
                }
            }
        }
        #expect(!red.rows.isEmpty && !blue.rows.isEmpty)
        #expect(red.columns.max()! < blue.columns.min()!)
        let redHeight = Double(red.rows.max()! - red.rows.min()! + 1)
        let blueHeight = Double(blue.rows.max()! - blue.rows.min()! + 1)
        #expect(redHeight > 1.5 * blueHeight, "\(redHeight) against \(blueHeight)")
        // One baseline: the small text's bottom level with the big text's.
        #expect(abs(red.rows.max()! - blue.rows.max()!) <= 1)
    }

    /// An image section draws its sprite image at its own size in the line, its bottom on the
    /// baseline; a label of an image alone draws the image; `vertical-align: top` raises a
    /// smaller section to the larger text's top.
    @Test func imageSectionsAndVerticalAlignment() throws {
        let folder = try TemporaryDirectory()
        let icons = folder.url.appendingPathComponent("icons", isDirectory: true)
        try FileManager.default.createDirectory(at: icons, withIntermediateDirectories: true)
        try Data(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12"><rect width="12" height="12" fill="#0000ff"/></svg>"##
                .utf8
        )
        .write(to: icons.appendingPathComponent("square.svg"))
        func render(_ field: String) throws -> (
            red: (columns: Set<Int>, rows: Set<Int>), blue: (columns: Set<Int>, rows: Set<Int>)
        ) {
            let json = """
                {"version": 8, "sprite": "icons",
                 "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
                 "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                            {"id": "label", "type": "symbol", "source": "p",
                             "layout": {"text-field": \(field), "text-font": ["Noto Sans Regular"], "text-size": 16},
                             "paint": {"text-color": "#ff0000"}}]}
                """
            let loaded = try Style.parse(Data(json.utf8), file: "style.json", baseURL: folder.url)
            #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
            let viewport = try Viewport(
                center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 160, height: 80))
            let image = try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
                .snapshot(MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)).image
            var red: (columns: Set<Int>, rows: Set<Int>) = ([], [])
            var blue: (columns: Set<Int>, rows: Set<Int>) = ([], [])
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let pixel = image[x: x, y: y]
                    if pixel.red > 180 && pixel.green < 80 && pixel.blue < 80 {
                        red.columns.insert(x)
                        red.rows.insert(y)
                    }
                    if pixel.blue > 180 && pixel.red < 80 && pixel.green < 80 {
                        blue.columns.insert(x)
                        blue.rows.insert(y)
                    }
                }
            }
            return (red, blue)
        }
        // "AB", the square, "CD": the square 12 x 12 between the letters, its bottom on their baseline.
        let inside = try render(#"["format", "AB", {}, ["image", "square"], {}, "CD", {}]"#)
        #expect(
            (11...13).contains(inside.blue.columns.count) && (11...13).contains(inside.blue.rows.count),
            "\(inside.blue)")
        #expect(
            inside.red.columns.min()! < inside.blue.columns.min()!
                && inside.red.columns.max()! > inside.blue.columns.max()!)
        #expect(
            abs(inside.blue.rows.max()! - inside.red.rows.max()!) <= 1,
            "square \(inside.blue.rows.sorted()), text \(inside.red.rows.sorted())")
        // The image alone, centred on the point.
        let alone = try render(#"["format", ["image", "square"], {}]"#)
        #expect(alone.red.rows.isEmpty && (11...13).contains(alone.blue.rows.count))
        #expect(abs(Double(alone.blue.columns.min()! + alone.blue.columns.max()!) / 2 - 80) <= 1.5)
        // Small red text after big blue text: on the baseline by default, raised with top.
        func smallText(_ alignment: String) throws -> (small: ClosedRange<Int>, big: ClosedRange<Int>) {
            let rendered = try render(
                ##"["format", "BIG", {"font-scale": 2, "text-color": "#0000ff"}, "x", {"vertical-align": "\##(alignment)"}]"##
            )
            return (
                rendered.red.rows.min()!...rendered.red.rows.max()!,
                rendered.blue.rows.min()!...rendered.blue.rows.max()!
            )
        }
        let bottom = try smallText("bottom")
        let top = try smallText("top")
        #expect(abs(bottom.small.upperBound - bottom.big.upperBound) <= 1)
        #expect(top.small.lowerBound < bottom.small.lowerBound - 4, "top \(top.small), bottom \(bottom.small)")
    }
}
