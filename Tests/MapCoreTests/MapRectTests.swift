import Foundation
import MapCore
import Testing

struct MapRectTests {
    private let worldSize = WebMercator.worldSize

    // MARK: - Null and empty

    @Test func nullIsNullAndEmpty() {
        #expect(MapRect.null.isNull && MapRect.null.isEmpty)
        #expect(!MapRect.world.isNull && !MapRect.world.isEmpty)
        #expect(MapRect(x: 5, y: 5, width: 0, height: 3).isEmpty)
    }

    @Test func unionIgnoresNull() {
        let rect = MapRect(x: 1, y: 2, width: 3, height: 4)
        #expect(rect.union(.null) == rect)
        #expect(MapRect.null.union(rect) == rect)
        #expect(MapRect.null.union(.null).isNull)
    }

    @Test func enclosingNoPointsIsNull() {
        #expect(MapRect(enclosing: [MapPoint]()).isNull)
        let rect = MapRect(enclosing: [MapPoint(x: 3, y: 9), MapPoint(x: -1, y: 4), MapPoint(x: 2, y: 5)])
        #expect(rect == MapRect(x: -1, y: 4, width: 4, height: 5))
    }

    // MARK: - Union and intersection

    @Test func unionOfDisjointRectsCoversBoth() {
        let a = MapRect(x: 0, y: 0, width: 10, height: 10)
        let b = MapRect(x: 20, y: 30, width: 5, height: 5)
        var union = a
        union.formUnion(b)
        #expect(union == MapRect(x: 0, y: 0, width: 25, height: 35))
        #expect(union.contains(a) && union.contains(b))
    }

    @Test func intersectionOfOverlappingRectsIsTheOverlap() {
        let a = MapRect(x: 0, y: 0, width: 10, height: 10)
        let b = MapRect(x: 5, y: 6, width: 10, height: 10)
        var intersection = a
        intersection.formIntersection(b)
        #expect(intersection == MapRect(x: 5, y: 6, width: 5, height: 4))
        #expect(a.intersects(b))
    }

    @Test func intersectionOfDisjointRectsIsNull() {
        let a = MapRect(x: 0, y: 0, width: 10, height: 10)
        let b = MapRect(x: 20, y: 0, width: 10, height: 10)
        #expect(a.intersection(b).isNull)
        #expect(!a.intersects(b))
        #expect(a.intersection(.null).isNull)
    }

    @Test func intersectionOfTouchingRectsHasZeroWidth() {
        let a = MapRect(x: 0, y: 0, width: 10, height: 10)
        let b = MapRect(x: 10, y: 0, width: 10, height: 10)
        let intersection = a.intersection(b)
        #expect(!intersection.isNull && intersection.isEmpty)
        #expect(intersection.width == 0 && intersection.height == 10)
    }

    // MARK: - Containment

    @Test func containsPointIsHalfOpen() {
        let rect = MapRect(x: 0, y: 0, width: 10, height: 10)
        #expect(rect.contains(MapPoint(x: 0, y: 0)))
        #expect(rect.contains(MapPoint(x: 9.99, y: 9.99)))
        #expect(!rect.contains(MapPoint(x: 10, y: 5)))
        #expect(!rect.contains(MapPoint(x: 5, y: 10)))
    }

    @Test func containsRectNeedsItWhollyInside() {
        let rect = MapRect(x: 0, y: 0, width: 10, height: 10)
        #expect(rect.contains(MapRect(x: 0, y: 0, width: 10, height: 10)))
        #expect(!rect.contains(MapRect(x: 5, y: 5, width: 10, height: 1)))
        #expect(!rect.contains(MapRect.null))
    }

    @Test func worldContainsTheMapPointOfEveryCoordinate() throws {
        for latitude in stride(from: -85.0, through: 85, by: 17) {
            for longitude in stride(from: -180.0, to: 180, by: 45) {
                #expect(MapRect.world.contains(MapPoint(try Coordinate(latitude: latitude, longitude: longitude))))
            }
        }
    }

    // MARK: - Antimeridian

    @Test func remainderIsThePartEastOfTheAntimeridianShiftedWest() {
        let rect = MapRect(x: worldSize - 10, y: 5, width: 30, height: 7)
        #expect(rect.crossesAntimeridian)
        #expect(rect.remainder == MapRect(x: 0, y: 5, width: 20, height: 7))
    }

    @Test func remainderOfARectInsideTheWorldIsNull() {
        let rect = MapRect(x: 10, y: 5, width: 30, height: 7)
        #expect(!rect.crossesAntimeridian)
        #expect(rect.remainder.isNull)
        #expect(!MapRect.null.crossesAntimeridian)
    }

    // MARK: - Geometry

    @Test func edgesAndCentre() {
        let rect = MapRect(x: 2, y: 4, width: 6, height: 8)
        #expect(rect.minX == 2 && rect.maxX == 8 && rect.midX == 5)
        #expect(rect.minY == 4 && rect.maxY == 12 && rect.midY == 8)
        #expect(rect.center == MapPoint(x: 5, y: 8))
    }

    @Test func offsetAndInset() {
        let rect = MapRect(x: 0, y: 0, width: 10, height: 10)
        #expect(rect.offsetBy(dx: 3, dy: -2) == MapRect(x: 3, y: -2, width: 10, height: 10))
        #expect(rect.insetBy(dx: 2, dy: 3) == MapRect(x: 2, y: 3, width: 6, height: 4))
        #expect(rect.insetBy(dx: -1, dy: -1) == MapRect(x: -1, y: -1, width: 12, height: 12))
        #expect(rect.insetBy(dx: 6, dy: 0).isNull)
    }

    @Test func mapPointWrappedIsInTheCentralWorld() {
        #expect(MapPoint(x: worldSize + 5, y: 3).wrapped == MapPoint(x: 5, y: 3))
        #expect(MapPoint(x: -5, y: 3).wrapped == MapPoint(x: worldSize - 5, y: 3))
    }

    @Test func mapPointOfTheOriginIsTheWorldsCentre() throws {
        let center = MapPoint(try Coordinate(latitude: 0, longitude: 0))
        #expect(center == MapPoint(x: worldSize / 2, y: worldSize / 2))
        let back = center.coordinate
        #expect(abs(back.latitude) < 1e-12 && abs(back.longitude) < 1e-12)
    }
}
