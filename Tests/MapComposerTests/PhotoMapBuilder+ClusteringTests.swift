import MapComposer
import MapCore
import MapRenderer
import PhotoSources
import Testing

struct PhotoMapBuilderClusteringTests {
    @Test func overlappingPinsClusterAutomaticallyAndSeparatePinsDoNot() throws {
        let style = try RenderFixtures.style("standard")
        let builder = PhotoMapBuilder(data: RenderFixtures.data)
        let close = [
            Photo(id: "a", title: "A", coordinate: try RenderFixtures.coordinate(48.8584, 2.2945), photographer: "P"),
            Photo(id: "b", title: "B", coordinate: try RenderFixtures.coordinate(48.8585, 2.2946), photographer: "P"),
        ]
        let framing = PhotoMapRequest.Framing.center(try RenderFixtures.coordinate(48.86, 2.3), zoomLevel: 12)
        #expect(
            try builder.options(for: PhotoMapRequest(photos: close, style: style, framing: framing)).clusterIndex != nil
        )
        #expect(
            try builder.options(for: PhotoMapRequest(photos: close, style: style, framing: framing, clustering: .never))
                .clusterIndex == nil)
        #expect(
            try builder.options(
                for: PhotoMapRequest(photos: close, style: style, framing: framing, clusterGrouping: .none)
            ).clusterIndex == nil)
        let apart = [
            close[0],
            Photo(id: "c", title: "C", coordinate: try RenderFixtures.coordinate(48.80, 2.40), photographer: "P"),
        ]
        #expect(
            try builder.options(for: PhotoMapRequest(photos: apart, style: style, framing: framing)).clusterIndex == nil
        )
        // `--cluster` (always) differs from the default: the index is used though no pins overlap.
        #expect(
            try builder.options(
                for: PhotoMapRequest(photos: apart, style: style, framing: framing, clustering: .always)
            ).clusterIndex != nil)
        // Pins crowded together outside the image do not make the map cluster.
        let crowdedElsewhere =
            apart + [
                Photo(id: "d", title: "D", coordinate: try RenderFixtures.coordinate(45.0, 5.0), photographer: "P"),
                Photo(
                    id: "e", title: "E", coordinate: try RenderFixtures.coordinate(45.0001, 5.0001), photographer: "P"),
            ]
        #expect(
            try builder.options(for: PhotoMapRequest(photos: crowdedElsewhere, style: style, framing: framing))
                .clusterIndex == nil)
    }
}
