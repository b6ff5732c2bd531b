import Dispatch
import Foundation
import ImageCodec
import ImageCompare
import MapComposer
import MapCore
import MapStyle
import MapTestSupport
import Synchronization
import Testing

@testable import MapRenderer

/// Tiles' sizes, zoom convention, layers, encoding and thread safety.
struct TileRenderTests {
    private func renderer(
        style: Style? = nil, content: MapTileContent = MapTileContent(),
        _ options: TileRenderOptions = TileRenderOptions()
    ) throws -> MapTileRenderer {
        try MapTileRenderer(
            data: RenderFixtures.data, style: style ?? RenderFixtures.style("standard"), content: content,
            options: options)
    }

    // MARK: - Sizes and small zooms

    @Test(arguments: [(256, 1), (256, 2), (256, 3), (512, 1), (512, 2)])
    func tilesAreTheirSizeTimesTheirScaleInPixels(size: Int, scale: Int) throws {
        let renderer = try renderer(TileRenderOptions(tileSizePoints: size, scale: scale))
        let tiles = try renderer.renderMetatile(try MetatileID(z: 1, x: 0, y: 0))
        #expect(tiles.map(\.tile.description) == ["1/0/0", "1/1/0", "1/0/1", "1/1/1"])
        #expect(tiles.allSatisfy { $0.image.width == size * scale && $0.image.height == size * scale })
    }

    @Test func smallZoomsAreOneMetatileClippedToTheWorldAndStitchIntoTheWorld() throws {
        let renderer = try renderer()
        #expect(try renderer.renderMetatile(try MetatileID(z: 0, x: 0, y: 0)).map(\.tile.description) == ["0/0/0"])
        for zoom in 1...2 {
            let side = 1 << zoom
            let tiles = try renderer.renderMetatile(try MetatileID(z: zoom, x: 0, y: 0))
            #expect(tiles.count == side * side)
            let stitched = TileFixtures.stitch(tiles, columns: 0...side - 1, rows: 0...side - 1)
            try TileFixtures.expectSameRender(
                try renderer.image(zoom: zoom, columns: 0...side - 1, rows: 0...side - 1), stitched,
                "the world at zoom \(zoom)")
        }
    }

    // MARK: - Zoom convention

    /// A style whose background says which zoom the style is drawn at: red below 4, green from 4,
    /// blue from 5.
    private func zoomColoredStyle() throws -> Style {
        let json = """
            {"version": 8, "name": "zooms", "sources": {},
             "layers": [{"id": "background", "type": "background",
                         "paint": {"background-color": ["step", ["zoom"], "#ff0000", 4, "#00ff00", 5, "#0000ff"]}}]}
            """
        return try Style.parse(Data(json.utf8), file: "zooms.json").style
    }

    @Test func a256PointTileAtZoomZDrawsTheStyleAtZMinusOneAndA512PointTileAtZ() throws {
        #expect(TileRenderOptions(tileSizePoints: 256).styleZoomLevel(forTileZoom: 5) == 4)
        #expect(TileRenderOptions(tileSizePoints: 512).styleZoomLevel(forTileZoom: 5) == 5)
        #expect(TileRenderOptions(tileSizePoints: 256).viewportZoomLevel(forTileZoom: 5) == 5)
        #expect(TileRenderOptions(tileSizePoints: 512).viewportZoomLevel(forTileZoom: 5) == 6)
        let style = try zoomColoredStyle()
        func color(size: Int, zoom: Int) throws -> RGBAPixel {
            let renderer = try renderer(style: style, TileRenderOptions(tileSizePoints: size))
            return try renderer.renderMetatile(
                MetatileID(containing: try TileID(z: zoom, x: 0, y: 0)), only: [try TileID(z: zoom, x: 0, y: 0)])[0]
                .image[x: 10, y: 10]
        }
        let red = RGBAPixel(red: 255, green: 0, blue: 0)
        let green = RGBAPixel(red: 0, green: 255, blue: 0)
        let blue = RGBAPixel(red: 0, green: 0, blue: 255)
        #expect(try color(size: 256, zoom: 5) == green)
        #expect(try color(size: 512, zoom: 5) == blue)
        #expect(try color(size: 256, zoom: 4) == red)
        #expect(try color(size: 512, zoom: 4) == green)
        #expect(try color(size: 256, zoom: 0) == red)
    }

    /// The four 256-point tiles of zoom 5 under a 512-point tile of zoom 4 cover the same ground at
    /// the same density and draw the same style zoom (4): they stitch into that tile, labels,
    /// dashed borders and line widths included.
    @Test func fourQuarterTilesOf256PointsEqualThe512PointTileAbove() throws {
        let style = try RenderFixtures.style("standard")
        let small = try renderer(style: style, TileRenderOptions(tileSizePoints: 256))
        let large = try renderer(style: style, TileRenderOptions(tileSizePoints: 512))
        // Central Europe: 4/8/5 and its children 5/16...17/10...11.
        let parent = try TileID(z: 4, x: 8, y: 5)
        let children = parent.children
        let quarters = try small.renderMetatile(small.metatile(containing: children[0]), only: children)
        #expect(quarters.count == 4)
        let stitched = TileFixtures.stitch(quarters, columns: 16...17, rows: 10...11)
        let tile = try large.renderMetatile(large.metatile(containing: parent), only: [parent])[0]
        #expect(tile.image.width == 512 && stitched.width == 512)
        try TileFixtures.expectSameRender(
            tile.image, stitched, "four 256-point tiles of zoom 5 against the 512-point tile of zoom 4")
        // And they are not what style zoom 5 draws (state labels and wider borders from 5).
        let atStyleZoomFive = try large.renderMetatile(large.metatile(containing: children[0]), only: children)
        #expect(atStyleZoomFive[0].image != quarters[0].image)
    }

    // MARK: - Layers

    /// One pin and one track north of the Alps, alone.
    private func pinAndTrack() throws -> (content: MapTileContent, pin: Coordinate, track: [Coordinate]) {
        let pin = try Coordinate(latitude: 47.3, longitude: 8.5)
        let track = try [(46.8, 6.8), (47.1, 8.0), (47.6, 9.4)].map { try Coordinate(latitude: $0.0, longitude: $0.1) }
        let content = MapTileContent(
            annotations: [
                MapAnnotation(
                    id: "zurich", coordinate: pin, title: "Zürich",
                    marker: .pin(Color(red: 1, green: 0.23, blue: 0.19, alpha: 1)))
            ],
            overlays: [MapOverlay(shape: .polyline(track), lineWidthPoints: 3)])
        return (content, pin, track)
    }

    @Test func overlayTilesAreTransparentWhereNothingIsDrawn() throws {
        let (content, pin, track) = try pinAndTrack()
        let renderer = try renderer(content: content, TileRenderOptions(scale: 2, layers: .overlays))
        let tileID = try TileID(coordinate: pin, zoom: 8)
        let tile = try renderer.renderMetatile(renderer.metatile(containing: tileID), only: [tileID])[0]
        // Where things are, in the tile's points: world points at zoom 8 less the tile's corner.
        let pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: 8)
        func tilePoint(_ coordinate: Coordinate) -> ViewPoint {
            let map = MapPoint(coordinate)
            return ViewPoint(
                x: map.x * pointsPerMapPoint - Double(tileID.x * 256),
                y: map.y * pointsPerMapPoint - Double(tileID.y * 256))
        }
        let tip = tilePoint(pin)
        let pinFrame = MapAnnotation.Marker.pin(.init(red: 1, green: 0, blue: 0, alpha: 1)).frameAroundAnchor.offset(
            by: tip
        ).insetBy(dx: -1, dy: -1)
        let line = track.map(tilePoint)
        func nearTrack(_ point: ViewPoint) -> Bool {
            zip(line, line.dropFirst()).contains { a, b in
                let dx = b.x - a.x
                let dy = b.y - a.y
                let t = max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / (dx * dx + dy * dy)))
                return hypot(point.x - (a.x + t * dx), point.y - (a.y + t * dy)) <= 1.5 + 1
            }
        }
        var drawn = 0
        var stray = 0
        for y in 0..<tile.image.height {
            for x in 0..<tile.image.width where tile.image[x: x, y: y].alpha > 0 {
                drawn += 1
                let point = ViewPoint(x: (Double(x) + 0.5) / 2, y: (Double(y) + 0.5) / 2)
                if !pinFrame.contains(point), !nearTrack(point) { stray += 1 }
            }
        }
        #expect(drawn > 1_000, "the pin and the track should show")
        #expect(stray == 0, "\(stray) pixels are not transparent away from the pin and the track")
        // The pin's head is opaque, and a tile with nothing in it is transparent throughout.
        let head = ViewPoint(x: tip.x, y: tip.y - 26.5)
        #expect(tile.image[x: Int(head.x * 2), y: Int(head.y * 2)].alpha == 255)
        let empty = try TileID(z: 8, x: 10, y: 200)
        let emptyTile = try renderer.renderMetatile(renderer.metatile(containing: empty), only: [empty])[0]
        #expect(emptyTile.isUniform && emptyTile.image[x: 0, y: 0] == .transparent)
    }

    @Test func basemapTilesDoNotDependOnTheAnnotations() throws {
        let (content, pin, _) = try pinAndTrack()
        let tileID = try TileID(coordinate: pin, zoom: 7)
        func tile(_ content: MapTileContent, _ layers: TileRenderOptions.Layers) throws -> RGBAImage {
            let renderer = try renderer(content: content, TileRenderOptions(layers: layers))
            return try renderer.renderMetatile(renderer.metatile(containing: tileID), only: [tileID])[0].image
        }
        let basemap = try tile(content, .basemap)
        #expect(basemap == (try tile(MapTileContent(), .basemap)))
        #expect(
            basemap.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 },
            "a basemap tile is opaque")
        #expect(try tile(content, .all) != basemap)
    }

    // MARK: - Encoding

    @Test func pngsAreTheSameBytesEveryTimeAndDecodeToTheTiles() throws {
        let (content, _, _) = try pinAndTrack()
        let options = TileRenderOptions(metatileSize: 4)
        let metatile = try MetatileID(z: 5, x: 4, y: 2, size: 4)  // the Alps
        let first = try renderer(content: content, options).encodedTiles(of: metatile)
        let second = try renderer(content: content, options).encodedTiles(of: metatile)
        #expect(first.count == 16)
        #expect(first == second)
        let rendered = try renderer(content: content, options).renderMetatile(metatile)
        for (encoded, tile) in zip(first, rendered) {
            #expect(encoded.tile == tile.tile)
            #expect(try RGBAImage(pngData: encoded.data) == tile.image)
        }
        // Open sea (the South Pacific) is one uniform tile, encoded once and shared.
        let ocean = try MetatileID(z: 6, x: 1, y: 9, size: 4)
        let sea = try renderer(options).encodedTiles(of: ocean)
        let uniform = try renderer(options).renderMetatile(ocean).filter(\.isUniform)
        #expect(uniform.count >= 8)
        #expect(Set(sea.filter { tile in uniform.contains { $0.tile == tile.tile } }.map(\.data)).count == 1)
    }

    @Test func palettePNGsAreSmallerAndClose() throws {
        let renderer = try renderer(TileRenderOptions(scale: 2))
        let tile = try renderer.renderMetatile(
            try MetatileID(z: 5, x: 2, y: 1), only: [try TileID(z: 5, x: 17, y: 11)])[0]
        let rgba = try renderer.pngData(for: tile)
        let palette = try renderer.pngData(for: tile, encoding: TilePNGEncoding(palette: true))
        #expect(palette.count < rgba.count)
        let decoded = try RGBAImage(pngData: palette)
        let result = try compare(tile.image, decoded, options: DiffOptions(threshold: 0.1))
        #expect(result.ratio < 0.01, "\(result.differentPixels) pixels differ after palette quantization")
        #expect(throws: RendererError.self) {
            try renderer.pngData(for: tile, encoding: TilePNGEncoding(compressionLevel: 10))
        }
    }

    // MARK: - Threads

    @Test func metatilesRenderedOnManyThreadsAtOnceEqualOnesRenderedOneByOne() throws {
        let (content, _, _) = try pinAndTrack()
        let options = TileRenderOptions(metatileSize: 2)
        // Zoom 5 around the Alps, 12 metatiles of 2 x 2.
        let metatiles = try (7...9).flatMap { y in try (6...9).map { try MetatileID(z: 5, x: $0, y: y, size: 2) } }
        let serial = try renderer(content: content, options)
        let expected = try metatiles.map { try serial.encodedTiles(of: $0) }
        let shared = try renderer(content: content, options)  // places its labels under contention
        let results = Mutex<[Int: [EncodedTile]]>([:])
        DispatchQueue.concurrentPerform(iterations: metatiles.count) { index in
            let tiles = try? shared.encodedTiles(of: metatiles[index])
            results.withLock { $0[index] = tiles }
        }
        let concurrent = results.withLock { $0 }
        for (index, tiles) in expected.enumerated() {
            #expect(concurrent[index] == tiles, "\(metatiles[index]) differs when rendered among other threads")
        }
    }

    // MARK: - Errors

    @Test func badOptionsAreRefusedWithOneLine() throws {
        let style = try RenderFixtures.style("standard")
        func problem(_ options: TileRenderOptions, content: MapTileContent = MapTileContent()) -> String? {
            do {
                _ = try MapTileRenderer(data: RenderFixtures.data, style: style, content: content, options: options)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem(TileRenderOptions(tileSizePoints: 300)) == "tiles: tile size 300 is not 256 or 512 points")
        #expect(problem(TileRenderOptions(scale: 4)) == "tiles: scale 4 is not 1, 2 or 3")
        #expect(problem(TileRenderOptions(metatileSize: 0)) == "tiles: metatile size 0 is outside 1-16 tiles per side")
        #expect(problem(TileRenderOptions(bufferPoints: -1)) == "tiles: buffer -1 points is outside 0-1024")
        let (content, _, _) = try pinAndTrack()
        var mismatched = content
        mismatched.clusterIndex = ClusterIndex([])
        #expect(
            problem(TileRenderOptions(), content: mismatched)
                == "tiles: the cluster index holds 0 annotations, not the 1 given")
        #expect(problem(TileRenderOptions()) == nil)
        let renderer = try renderer()
        #expect(throws: RendererError.self) { try renderer.image(zoom: 2, columns: 3...4, rows: 0...0) }
        // A raster style without a raster source cannot draw a basemap, but can draw overlays.
        let satellite = try RenderFixtures.style("satellite")
        #expect(throws: RendererError.self) { try MapTileRenderer(data: RenderFixtures.data, style: satellite) }
        _ = try MapTileRenderer(
            data: RenderFixtures.data, style: satellite, options: TileRenderOptions(layers: .overlays))
    }
}

extension ViewRect {
    fileprivate func offset(by point: ViewPoint) -> ViewRect {
        ViewRect(x: minX + point.x, y: minY + point.y, width: size.width, height: size.height)
    }

    fileprivate func contains(_ point: ViewPoint) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }
}
