import Foundation
import GeoData
import MapCore
import MapJSON
import Synchronization
import Testing

struct PreparedLayerTests {
    /// Two points either side of the antimeridian, and a line along the equator in Africa.
    private func makeSource() -> FeatureCollectionSource {
        FeatureCollectionSource(
            name: "test",
            collection: FeatureCollection(features: [
                Feature(geometry: .point(Position((179, 0))), properties: ["name": .string("east")]),
                Feature(geometry: .point(Position((-179, 0))), properties: ["name": .string("west")]),
                Feature(
                    geometry: .lineString([Position((10, 0)), Position((30, 0))]), properties: ["name": .string("line")]
                ),
            ]))
    }

    private func names(_ features: [PreparedFeature]) -> [String] {
        features.compactMap { $0.properties["name"]?.stringValue }
    }

    @Test func toleranceIsOnePixelInMapPoints() {
        #expect(PreparedLayer.tolerance(zoomLevel: 20, screenScale: 1) == 1)
        #expect(PreparedLayer.tolerance(zoomLevel: 0, screenScale: 2) == 524_288)
        #expect(PreparedLayer.preparationZoomLevel(for: 12.3) == 13)
        #expect(PreparedLayer.preparationZoomLevel(for: 12) == 12)
        #expect(PreparedLayer.preparationZoomLevel(for: -3) == 0)
    }

    @Test func aWideClipMarginKeepsEdgesThatCrossTheViewWhole() throws {
        // The line along the equator from 10°E to 30°E, viewed around 20°E at zoom 6.
        let layer = PreparedLayer(source: makeSource(), zoomLevel: 6, screenScale: 1)
        let center = MapPoint(try Coordinate(latitude: 0, longitude: 20))
        let view = MapRect(
            x: center.x - 128 * layer.tolerance, y: center.y - 128 * layer.tolerance, width: 256 * layer.tolerance,
            height: 256 * layer.tolerance)
        let cut = try layer.features(in: view).flatMap(\.geometry.lines)
        #expect(cut.count == 1 && cut[0].count == 2)
        #expect(abs(cut[0][0].x - (view.minX - 16 * layer.tolerance)) < 1e-6, "cut 16 pixels out by default")
        let whole = try layer.features(in: view, clipMarginPixels: 2_097_152).flatMap(\.geometry.lines)
        #expect(whole == layer.features[2].geometry.lines, "2^21 pixels out, the line is not cut")
        // Features are still only looked for near the view.
        #expect(names(try layer.features(in: view, clipMarginPixels: 2_097_152)) == ["line"])
    }

    @Test func cacheReturnsTheSameLayerForTheSameZoom() {
        let cache = PreparedLayerCache()
        let source = makeSource()
        let first = cache.preparedLayer(for: source, zoomLevel: 5, screenScale: 2)
        #expect(cache.preparedLayer(for: source, zoomLevel: 5, screenScale: 2) === first)
        #expect(cache.preparedLayer(for: source, zoomLevel: 6, screenScale: 2) !== first)
        #expect(cache.preparedLayer(for: source, zoomLevel: 5, screenScale: 1) !== first)
        #expect(cache.count == 3)
        cache.removeAll()
        #expect(cache.count == 0)
        #expect(cache.preparedLayer(for: source, zoomLevel: 5, screenScale: 2) !== first)
    }

    @Test func concurrentRequestsShareOnePreparation() {
        let cache = PreparedLayerCache()
        let source = makeSource()
        let layers = Mutex<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 32) { iteration in
            let layer = cache.preparedLayer(for: source, zoomLevel: iteration % 2, screenScale: 1)
            layers.withLock { $0.append(ObjectIdentifier(layer)) }
        }
        #expect(Set(layers.withLock { $0 }).count == 2)
        #expect(cache.count == 2)
    }

    @Test func queryAcrossTheAntimeridianMovesTheFarSideEast() throws {
        let layer = PreparedLayer(source: makeSource(), zoomLevel: 10, screenScale: 1)
        let size = WebMercator.worldSize
        // From 178°E to 178°W, around the equator.
        let rect = MapRect(x: size * (358.0 / 360), y: size / 2 - 1000, width: size * (4.0 / 360), height: 2000)
        let found = try layer.features(in: rect, marginPixels: 0)
        #expect(names(found) == ["east", "west"])
        let west = try #require(found.last?.geometry.points.first)
        #expect(abs(west.x - size * (361.0 / 360)) < 1e-6, "drawn one world east of its data")
        #expect(found.allSatisfy { $0.geometry.points.allSatisfy(rect.contains) })
    }

    @Test func queryClipsLinesToTheRectPlusMargin() throws {
        let layer = PreparedLayer(source: makeSource(), zoomLevel: 4, screenScale: 1)
        let start = MapPoint(try Coordinate(latitude: 5, longitude: 15))
        let rect = MapRect(
            x: start.x, y: start.y, width: WebMercator.worldSize / 36, height: WebMercator.worldSize / 36)
        let found = try layer.features(in: rect)
        #expect(names(found) == ["line"])
        let line = try #require(found.first?.geometry.lines.first)
        let margin = 16 * layer.tolerance
        #expect(abs(line[0].x - (rect.minX - margin)) < 1e-6)
        #expect(abs(line[line.count - 1].x - (rect.maxX + margin)) < 1e-6)
    }

    @Test func rectOutsideTheDataFindsNothing() throws {
        let layer = PreparedLayer(source: makeSource(), zoomLevel: 3, screenScale: 1)
        let arctic = MapRect(x: 0, y: 0, width: WebMercator.worldSize, height: 1000)
        #expect(try layer.features(in: arctic).isEmpty)
    }

    @Test func worldCopiesSplitAtTheAntimeridian() {
        let size = WebMercator.worldSize
        let rect = MapRect(x: size - 100, y: 10, width: 150, height: 20)
        #expect(
            rect.worldCopies == [
                WorldCopy(rect: MapRect(x: size - 100, y: 10, width: 100, height: 20), offsetX: 0),
                WorldCopy(rect: MapRect(x: 0, y: 10, width: 50, height: 20), offsetX: size),
            ])
        let westOfZero = MapRect(x: -50, y: 0, width: 100, height: 1)
        #expect(westOfZero.worldCopies.map(\.offsetX) == [-size, 0])
        #expect(MapRect.null.worldCopies.isEmpty)
    }

    @Test func sourceQueryReturnsEachFeatureOnce() throws {
        let source = makeSource()
        let everything = MapRect(x: -10, y: 0, width: WebMercator.worldSize * 2, height: WebMercator.worldSize)
        #expect(try source.features(in: everything).count == 3)
        #expect(source.bounds.minX == Position((-179, 0)).mapPoint?.x)
    }
}
