import Foundation
import MapComposer
import MapCore
import MapRenderer
import MapTestSupport
import PhotoSources
import Testing

/// The sample photos at world zoom, as `mapwright render --photos Samples/photos --size 800x500`
/// draws them: Ansel Adams's and Dorothea Lange's clusters over California used to lie one on
/// the other.
struct PhotoMapBuilderSpreadClustersTests {
    @Test func theSamplePhotographersClustersOverCaliforniaDoNotOverlap() throws {
        let photos = try PhotoCollection.load(from: RepositoryFiles.samples.appendingPathComponent("photos")).photos
        let options = try PhotoMapBuilder(data: RenderFixtures.data).options(
            for: PhotoMapRequest(
                photos: photos, style: try RenderFixtures.style("standard"), size: ViewSize(width: 800, height: 500)))
        #expect(options.clusterIndex != nil)
        let frames = RenderFixtures.snapshotter.layout(options).markerFrames
        // Cluster frames are squares around discs: no two discs may meet. (Pins' frames are not
        // square; the sample's pins stand far apart at this zoom.)
        let discs = frames.filter { $0.size.width == $0.size.height }
        #expect(discs.count >= 4, "\(frames)")
        for i in discs.indices {
            for j in discs.indices where j > i {
                let distance = hypot(discs[i].midX - discs[j].midX, discs[i].midY - discs[j].midY)
                #expect(
                    distance >= (discs[i].size.width + discs[j].size.width) / 2, "\(discs[i]) and \(discs[j]) overlap")
            }
        }
    }
}
