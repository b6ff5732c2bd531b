import Foundation
import ImageCodec
import ImageCompare
import MapComposer
import MapCore
import MapStyle
import MapTestSupport
import Testing

@testable import MapRenderer

/// Tiles meet without seams: a grid of tiles cut from several metatiles, stitched, equals one
/// render of the same area, with labels, pins, a cluster, a callout and overlays placed across
/// tile and metatile edges (see `TileFixtures`).
struct TileSeamTests {
    /// Holds the fixture's style and places file; removed when the test ends.
    private let directory: TemporaryDirectory
    private let style: Style

    init() throws {
        directory = try TemporaryDirectory()
        style = try TileFixtures.style(in: directory.url)
    }

    private func renderer(
        scale: Int = 1, metatileSize: Int = 8, layers: TileRenderOptions.Layers = .all, maximumWindowPixels: Int = 4_096
    ) throws -> MapTileRenderer {
        try MapTileRenderer(
            data: RenderFixtures.data, style: style, content: try TileFixtures.content(style: style),
            options: TileRenderOptions(scale: scale, metatileSize: metatileSize, layers: layers),
            maximumWindowPixels: maximumWindowPixels)
    }

    /// The 3 × 3 block's tiles, rendered metatile by metatile (four of them).
    private func blockTiles(_ renderer: MapTileRenderer) throws -> [RenderedTile] {
        let wanted = try TileFixtures.rows.flatMap { row in
            try TileFixtures.columns.map { try TileID(z: TileFixtures.zoom, x: $0, y: row) }
        }
        let metatiles = Set(wanted.map(renderer.metatile(containing:)))
        #expect(metatiles.count == 4, "the block should span four metatiles")
        return try metatiles.sorted().flatMap { try renderer.renderMetatile($0, only: wanted) }
    }

    @Test(arguments: [1, 2])
    func stitchedTilesFromFourMetatilesEqualOneRenderOfTheArea(scale: Int) throws {
        let renderer = try renderer(scale: scale)
        let tiles = try blockTiles(renderer)
        #expect(tiles.count == 9)
        #expect(tiles.allSatisfy { $0.image.width == 256 * scale && $0.image.height == 256 * scale })
        let stitched = TileFixtures.stitch(tiles, columns: TileFixtures.columns, rows: TileFixtures.rows)
        let whole = try renderer.image(zoom: TileFixtures.zoom, columns: TileFixtures.columns, rows: TileFixtures.rows)
        try TileFixtures.expectSameRender(whole, stitched, "stitched tiles against one render")
        if scale == 1 { assertRenderMatches(whole, named: "tiles-seams-z6") }
    }

    /// The fixture does catch seams: tiles rendered one by one as images (labels placed in each
    /// tile's own view, the callout kept inside it) do not stitch into the one render.
    @Test func tilesRenderedAsSeparateImagesWouldShowSeams() throws {
        let renderer = try renderer()
        let whole = try renderer.image(zoom: TileFixtures.zoom, columns: TileFixtures.columns, rows: TileFixtures.rows)
        let snapshotter = MapSnapshotter(data: RenderFixtures.data)
        var tiles: [RenderedTile] = []
        for row in TileFixtures.rows {
            for column in TileFixtures.columns {
                let tile = try TileID(z: TileFixtures.zoom, x: column, y: row)
                let viewport = try Viewport(
                    centerMapPoint: tile.mapRect.center, zoomLevel: Double(tile.z),
                    size: ViewSize(width: 256, height: 256))
                var options = MapSnapshotOptions(
                    viewport: viewport, style: style, annotations: renderer.content.annotations,
                    clusterIndex: renderer.content.clusterIndex,
                    selectedAnnotationID: renderer.content.selectedAnnotationID, overlays: renderer.content.overlays,
                    showsAttribution: false)
                options.clusterMemberName = renderer.content.clusterMemberName
                var pass = RenderPass()
                pass.clipMarginPixels = RenderPass.tileClipMarginPixels
                let canvas = try Canvas(widthPoints: 256, heightPoints: 256, scale: 1, target: .image, fonts: .pinned)
                try snapshotter.draw(options, pass: pass, in: canvas.cairo, pixelScale: 1)
                tiles.append(RenderedTile(tile: tile, image: canvas.rgbaImage(x: 0, y: 0, width: 256, height: 256)))
            }
        }
        let stitched = TileFixtures.stitch(tiles, columns: TileFixtures.columns, rows: TileFixtures.rows)
        let result = try compare(whole, stitched, options: DiffOptions(threshold: 0.1, includeAntiAliased: true))
        #expect(
            result.differentPixels > 500,
            "only \(result.differentPixels) pixels differ: the fixture should put labels across edges")
    }

    /// What the seam test relies on really is on the edges: labels, the callout and a cluster
    /// across metatile edges, pins whose tips lie on them.
    @Test func theFixtureCrossesTheEdges() throws {
        let renderer = try renderer()
        let columns = TileFixtures.columns
        let rows = TileFixtures.rows
        let placement = try renderer.placement(
            forTileZoom: TileFixtures.zoom,
            meeting: ViewRect(
                x: Double(columns.lowerBound * 256), y: Double(rows.lowerBound * 256),
                width: Double(columns.count * 256), height: Double(rows.count * 256)))
        let edgeX = 32.0 * 256
        let edgeY = 24.0 * 256
        let tileEdgeX = 33.0 * 256
        func label(_ text: String) -> ViewRect? { placement.labels.first { $0.text == text }?.frame }
        // The metatile edge at x 8,192 is also where zoom 6's two label regions meet (see PlacementRegion).
        #expect(
            PlacementRegion.regions(
                meeting: ViewRect(x: edgeX - 1, y: 0, width: 2, height: 1), zoom: TileFixtures.zoom, tileSizePoints: 256
            )
            .map(\.rect.minX) == [0, edgeX])
        let meridian = try #require(label("Meridian Crossing"), "the label on the metatile edge should be placed")
        #expect(meridian.minX < edgeX && meridian.maxX > edgeX)
        let parallel = try #require(label("Parallel Crossing"))
        #expect(parallel.minY < edgeY && parallel.maxY > edgeY)
        let tileEdge = try #require(label("Tile Edge Town"))
        #expect(tileEdge.minX < tileEdgeX && tileEdge.maxX > tileEdgeX)
        let callout = try #require(placement.callout, "the selected pin's callout should be placed")
        #expect(callout.inkFrame.minX < edgeX && callout.inkFrame.maxX > edgeX)
        // The corner's six photos are one cluster at zoom 6, its disc across the metatile edges.
        let index = try #require(renderer.content.clusterIndex)
        let clusters = index.items(in: MapRect.world, zoomLevel: 6).compactMap { item -> Cluster? in
            if case .cluster(let cluster) = item.item { return cluster }
            return nil
        }
        let corner = try #require(clusters.first { $0.count == 6 })
        let center = MapPoint(corner.coordinate)
        let radius = 16.0 * WebMercator.worldSize / (256 * 64)  // the smallest disc's radius, in map points
        #expect(
            abs(center.x - WebMercator.worldSize / 2) < radius
                && abs(center.y - edgeY * WebMercator.worldSize / (256 * 64)) < radius)
    }

    @Test func aMetatileCutIntoTilesEqualsItsOneRenderAndItsWindows() throws {
        // 256-point tiles @2x in metatiles of 2 x 2: one 1024-pixel render, cut into four; and
        // the same metatile drawn in four windows of one tile each.
        let whole = try renderer(scale: 2, metatileSize: 2)
        let windowed = try renderer(scale: 2, metatileSize: 2, maximumWindowPixels: 512)
        let metatile = try MetatileID(z: TileFixtures.zoom, x: 16, y: 11, size: 2)  // columns 32...33, rows 22...23
        let one = try whole.image(zoom: metatile.z, columns: metatile.tileColumns, rows: metatile.tileRows)
        let tiles = try whole.renderMetatile(metatile)
        let windowTiles = try windowed.renderMetatile(metatile)
        #expect(tiles.map(\.tile) == metatile.tiles && windowTiles.map(\.tile) == metatile.tiles)
        for (tile, windowTile) in zip(tiles, windowTiles) {
            let x = (tile.tile.x - metatile.tileColumns.lowerBound) * 512
            let y = (tile.tile.y - metatile.tileRows.lowerBound) * 512
            let expected = TileFixtures.crop(one, x: x, y: y, width: 512, height: 512)
            #expect(tile.image == expected, "\(tile.tile): cut from the metatile's render, it should be the same bytes")
            try TileFixtures.expectSameRender(expected, windowTile.image, "\(tile.tile) drawn in its own window")
        }
    }

    @Test func aBufferChangesNothingVisible() throws {
        let buffered = try MapTileRenderer(
            data: RenderFixtures.data, style: style, content: try TileFixtures.content(style: style),
            options: TileRenderOptions(bufferPoints: 128))
        let plain = try renderer()
        let metatile = try MetatileID(z: TileFixtures.zoom, x: 4, y: 2)
        let wanted = [try TileID(z: 6, x: 32, y: 23), try TileID(z: 6, x: 33, y: 23)]
        for (withBuffer, without) in zip(
            try buffered.renderMetatile(metatile, only: wanted), try plain.renderMetatile(metatile, only: wanted))
        {
            try TileFixtures.expectSameRender(
                without.image, withBuffer.image, "\(without.tile) with a buffer of 128 points")
        }
    }
}
