import Foundation
import ImageCodec
import MapComposer
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport
import PhotoSources
import Testing

/// docs/render.md's street-level example: the Helsinki sample photos on the streets style over the
/// Helsinki vector tiles, fitted, the first photo's callout open.
struct PhotoMapBuilderStreetsTests {
    @Test func helsinkiPhotosOnStreets() throws {
        let samples = RepositoryFiles.samples.appendingPathComponent("helsinki")
        let collection = try PhotoCollection.load(from: samples.appendingPathComponent("photos.csv"))
        #expect(collection.photos.count == 23)
        let style = try Style.named("streets", in: RepositoryFiles.styles).style
            .configuringVectorSources(samples.appendingPathComponent("helsinki.mbtiles"))
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        let request = PhotoMapRequest(photos: collection.photos, style: style, selection: .first, scale: 2)
        let options = try PhotoMapBuilder(data: data).options(for: request)
        // Every photo stands on the map, inside the sample's streets.
        for photo in collection.photos {
            let point = try #require(options.viewport.point(for: photo.coordinate))
            #expect(point.x > 12 && point.x < 1188 && point.y > 12 && point.y < 788, "\(photo.title ?? photo.id)")
        }
        assertRenderMatches(try MapSnapshotter(data: data).snapshot(options).image, named: "helsinki-photos-streets@2x")
    }
}
