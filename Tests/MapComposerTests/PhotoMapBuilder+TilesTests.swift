import ImageCodec
import MapComposer
import MapCore
import MapRenderer
import PhotoSources
import Testing

struct PhotoMapBuilderTilesTests {
    /// Two photographers' photos around Paris, one with a known accuracy.
    private func photos() throws -> [Photo] {
        [
            Photo(
                id: "eiffel", title: "Eiffel Tower", coordinate: try RenderFixtures.coordinate(48.8584, 2.2945),
                photographer: "Ansel Adams"),
            Photo(
                id: "louvre", title: "Louvre", coordinate: try RenderFixtures.coordinate(48.8606, 2.3376),
                photographer: "Ansel Adams"),
            Photo(
                id: "sacre", title: "Sacré-Cœur", coordinate: try RenderFixtures.coordinate(48.8867, 2.3431),
                horizontalAccuracyMeters: 400,
                photographer: "Dorothea Lange"),
        ]
    }

    @Test func tilesDrawTheAnnotationsAMapOfTheRequestDrawsWithOneClusterIndex() throws {
        let style = try RenderFixtures.style("standard")
        let builder = PhotoMapBuilder(data: RenderFixtures.data)
        let request = PhotoMapRequest(
            photos: try photos(), style: style, selection: .photo("louvre"), showsAccuracy: true)
        let content = try builder.tileContent(for: request)
        let map = try builder.options(for: request)
        #expect(content.annotations.map(\.id) == map.annotations.map(\.id))
        #expect(content.annotations.map(\.marker) == map.annotations.map(\.marker))
        #expect(content.selectedAnnotationID == "louvre")
        #expect(content.clusterMemberName == "photos")
        #expect(content.overlays.count == 1, "the accuracy circle")
        // Automatic clustering gives the index, whatever the framing; never and none do not.
        #expect(content.clusterIndex?.inputCount == 3)
        #expect(
            try builder.tileContent(for: PhotoMapRequest(photos: try photos(), style: style, clustering: .never))
                .clusterIndex == nil)
        #expect(
            try builder.tileContent(for: PhotoMapRequest(photos: try photos(), style: style, clusterGrouping: .none))
                .clusterIndex == nil)
        #expect(throws: PhotoMapError.self) {
            try builder.tileContent(
                for: PhotoMapRequest(photos: try photos(), style: style, selection: .photo("nowhere")))
        }
    }

    @Test func overlayTilesOfThePhotosShowTheirClusterAndLeaveTheRestTransparent() throws {
        let style = try RenderFixtures.style("standard")
        let content = try PhotoMapBuilder(data: RenderFixtures.data).tileContent(
            for: PhotoMapRequest(photos: try photos(), style: style))
        let renderer = try MapTileRenderer(
            data: RenderFixtures.data, style: style, content: content, options: TileRenderOptions(layers: .overlays))
        // At zoom 10 the two Ansel Adams photos are one cluster; Dorothea Lange's stands alone.
        let items = try #require(content.clusterIndex).items(in: MapRect.world, zoomLevel: 10)
        #expect(items.count == 2)
        let tile = try TileID(coordinate: try RenderFixtures.coordinate(48.87, 2.32), zoom: 10)
        let image = try renderer.renderMetatile(renderer.metatile(containing: tile), only: [tile])[0].image
        let drawn = stride(from: 3, to: image.pixels.count, by: 4).filter { image.pixels[$0] > 0 }.count
        #expect(
            drawn > 500 && drawn < image.width * image.height / 4,
            "\(drawn) pixels drawn: a cluster and a pin on a transparent tile")
    }
}
