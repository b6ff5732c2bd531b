import Foundation
import ImageCodec
import MapCore
import MapData
import MapStyle
import MapTestSupport
import Testing

@testable import MapRenderer

/// `text-variable-anchor`, `text-radial-offset` and `text-variable-anchor-offset`: the text tries
/// its anchors in turn and stays at the first where it fits, offset from each as GL offsets it;
/// and `symbol-avoid-edges`. (The GL suite here has no tests of them: these pin the rules.)
struct VariableAnchorTests {
    /// Renders `layout` for two points at the view's centre (one 256-point view, GL zoom 1,
    /// black text over white) and returns the image and the load's warnings.
    private func render(_ layout: String, at coordinates: [String] = ["[0, 0]", "[0, 0]"]) throws -> (
        image: RGBAImage, warnings: [String]
    ) {
        let features = coordinates.enumerated().map { index, position in
            #"{"type": "Feature", "properties": {"name": "Mmmm\#(index)"}, "geometry": {"type": "Point", "coordinates": \#(position)}}"#
        }.joined(separator: ",")
        let json = """
            {"version": 8, "metadata": {"mapwright": {"labels": {"placement": "maplibre"}}},
             "sources": {"points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}},
             "layers": [{"id": "paper", "type": "background", "paint": {"background-color": "#ffffff"}},
                        {"id": "names", "type": "symbol", "source": "points",
                         "layout": {"text-field": "{name}", "text-size": 16, \(layout)}, "paint": {"text-color": "#000000"}}]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "variable.json", baseURL: nil)
        let viewport = try Viewport(
            center: try Coordinate(latitude: 0, longitude: 0), zoomLevel: 2, size: ViewSize(width: 256, height: 256))
        let image = try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
            .snapshot(MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)).image
        return (image, loaded.warnings.map(\.description))
    }

    /// Dark pixels in the columns `columns` (of every row).
    private func ink(_ image: RGBAImage, columns: Range<Int>, rows: Range<Int> = 0..<256) -> Int {
        var count = 0
        for y in rows {
            for x in columns where image[x: x, y: y].red < 128 { count += 1 }
        }
        return count
    }

    /// Two labels at one point: the first takes the first anchor (`left`: text right of the
    /// point), the second, which collides there, the next (`right`: text left of it). With
    /// `text-anchor` alone the second is dropped.
    @Test func aLabelThatCollidesMovesToTheNextAnchor() throws {
        let variable = try render(#""text-variable-anchor": ["left", "right"], "text-radial-offset": 0.5"#)
        #expect(variable.warnings.isEmpty, "\(variable.warnings)")
        #expect(ink(variable.image, columns: 134..<256) > 50, "a label right of the point")
        #expect(ink(variable.image, columns: 0..<122) > 50, "a label left of the point")
        #expect(ink(variable.image, columns: 123..<133) == 0, "the radial offset keeps both off the point")

        let fixed = try render(#""text-anchor": "left", "text-offset": [0.5, 0]"#)
        #expect(ink(fixed.image, columns: 134..<256) > 50)
        #expect(ink(fixed.image, columns: 0..<122) == 0, "one anchor: the second label is dropped")
    }

    /// `text-variable-anchor-offset` gives each anchor its own offset (positive right and
    /// down), and overrides `text-variable-anchor`.
    @Test func anchorOffsetPairsPlaceEachAnchorAtItsOwnOffset() throws {
        let pairs = try render(
            #""text-variable-anchor-offset": ["top", [0, 2], "bottom", [0, -2]], "text-variable-anchor": ["left"]"#)
        #expect(pairs.warnings.isEmpty, "\(pairs.warnings)")
        // `top` 2 ems down puts the first label's top 32 points below the point; `bottom` 2
        // ems up puts the second's bottom 32 points above it.
        #expect(ink(pairs.image, columns: 0..<256, rows: 160..<200) > 50, "the first label below")
        #expect(ink(pairs.image, columns: 0..<256, rows: 56..<96) > 50, "the second label above")
        #expect(ink(pairs.image, columns: 0..<256, rows: 100..<156) == 0, "nothing near the point")
    }

    /// GL's offsets: a radial offset runs to the text's nearest edge (along the diagonal for a
    /// corner), `text-offset` is taken as distances pointed away from the anchor, and both move
    /// vertical anchors by GL's baseline shift of 7/24 em.
    @Test func offsetsFollowGL() throws {
        var symbol = SymbolLayer()
        symbol.textVariableAnchor = .constant([.top, .bottomLeft, .right])
        symbol.textRadialOffset = .constant(1)
        let radial = LabelCandidate.variableAnchors(of: symbol, properties: [:], zoom: 10)
        let baseline = 7.0 / 24
        let diagonal = 1 / 2.0.squareRoot()
        #expect(radial.map(\.anchor) == [.top, .bottomLeft, .right])
        #expect(abs(radial[0].offsetEms.yPoints - (1 - baseline)) < 1e-9 && radial[0].offsetEms.xPoints == 0)
        #expect(
            abs(radial[1].offsetEms.xPoints - diagonal) < 1e-9
                && abs(radial[1].offsetEms.yPoints - (baseline - diagonal)) < 1e-9)
        #expect(radial[2].offsetEms.xPoints == -1 && radial[2].offsetEms.yPoints == 0)

        symbol.textRadialOffset = nil
        symbol.textOffset = .constant(Translation(xPoints: -2, yPoints: 3))
        let axes = LabelCandidate.variableAnchors(of: symbol, properties: [:], zoom: 10)
        #expect(abs(axes[0].offsetEms.yPoints - (3 - baseline)) < 1e-9 && axes[0].offsetEms.xPoints == 0)
        #expect(axes[1].offsetEms.xPoints == 2 && abs(axes[1].offsetEms.yPoints - (baseline - 3)) < 1e-9)
        #expect(axes[2].offsetEms.xPoints == -2)
    }

    /// `symbol-avoid-edges`: a label across the edges of its source tile (at GL zoom 1 the
    /// view's centre is a corner of four tiles) is not placed; one inside a tile is.
    @Test func symbolAvoidEdgesDropsALabelAcrossItsTile() throws {
        let across = try render(#""symbol-avoid-edges": true, "text-allow-overlap": true"#, at: ["[0, 0]"])
        #expect(across.warnings.isEmpty, "\(across.warnings)")
        #expect(ink(across.image, columns: 0..<256) == 0)
        let inside = try render(#""symbol-avoid-edges": true"#, at: ["[20, 20]"])
        #expect(ink(inside.image, columns: 128..<256, rows: 0..<128) > 50)
        let without = try render(#""text-allow-overlap": true"#, at: ["[0, 0]"])
        #expect(ink(without.image, columns: 0..<256) > 50)
    }
}
