import Foundation
import MapCore
import MapRenderer
import PhotoSources
import Synchronization
import Testing

@testable import MapComposer

/// Fitting a map lays out each candidate framing once, and builds the request's cluster index
/// once, however many framings it tries.
struct PhotoMapBuilderOncePerFramingTests {
    @Test func eachCandidateFramingIsLaidOutOnceAndTheClusterIndexBuiltOnce() throws {
        let measured = Mutex<[Viewport]>([])
        let indexes = Mutex(0)
        var builder = PhotoMapBuilder(
            data: RenderFixtures.data,
            thumbnails: ThumbnailCache(
                directory: FileManager.default.temporaryDirectory
                    .appendingPathComponent("mapwright-thumbnails-tests")))
        builder.onLayoutMeasured = { viewport in measured.withLock { $0.append(viewport) } }
        builder.onClusterIndexBuilt = { indexes.withLock { $0 += 1 } }
        // Crowded pins (clusters, which are larger than pins, widen the margins for another fit)
        // and one far away with its callout: a fit of several rounds.
        var photos: [Photo] = []
        for index in 0..<40 {
            photos.append(
                Photo(
                    id: "p\(index)", title: "Photo \(index)",
                    coordinate: try RenderFixtures.coordinate(
                        48.85 + Double(index % 7) * 0.001, 2.35 + Double(index / 7) * 0.001),
                    photographer: "Imogen Cunningham"))
        }
        photos.append(
            Photo(
                id: "far", title: "Far away", coordinate: try RenderFixtures.coordinate(48.95, 2.6),
                photographer: "Imogen Cunningham"))
        let request = PhotoMapRequest(
            photos: photos, style: try RenderFixtures.plainStyle(), selection: .photo("far"),
            size: ViewSize(width: 600, height: 400))
        let options = try builder.options(for: request)
        let viewports = measured.withLock { $0 }
        #expect(!viewports.isEmpty && viewports.count <= 4, "\(viewports.count) layouts")
        #expect(Set(viewports).count == viewports.count, "a framing was laid out twice: \(viewports)")
        #expect(options.clusterIndex != nil)
        #expect(indexes.withLock { $0 } == 1)
    }
}
