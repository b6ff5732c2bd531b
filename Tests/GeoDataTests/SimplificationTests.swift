import GeoData
import MapCore
import Testing

struct SimplificationTests {
    /// A zigzag along x with bumps of ±`amplitude` map points.
    private func zigzag(count: Int, amplitude: Double) -> [MapPoint] {
        (0..<count).map { MapPoint(x: Double($0) * 10, y: $0.isMultiple(of: 2) ? amplitude : -amplitude) }
    }

    @Test func keepsEndpointsAndDropsDetailBelowTheTolerance() {
        let line = zigzag(count: 101, amplitude: 0.4)
        let simplified = Simplification.douglasPeucker(line, tolerance: 1)
        #expect(simplified == [line[0], line[100]])
    }

    @Test func keepsDetailAboveTheTolerance() {
        let line = zigzag(count: 101, amplitude: 5)
        #expect(Simplification.douglasPeucker(line, tolerance: 1) == line)
        let coarser = Simplification.douglasPeucker(line, tolerance: 20)
        #expect(coarser.count < line.count)
        #expect(coarser.first == line.first)
        #expect(coarser.last == line.last)
    }

    @Test func keepsTheCornerOfAnL() {
        let line = [MapPoint(x: 0, y: 0), MapPoint(x: 50, y: 0.2), MapPoint(x: 100, y: 0), MapPoint(x: 100, y: 100)]
        #expect(Simplification.douglasPeucker(line, tolerance: 1) == [line[0], line[2], line[3]])
    }

    @Test func closedRingStaysClosed() {
        let ring = [(0.0, 0.0), (50, 0.1), (100, 0), (100, 100), (0, 100), (0, 0)].map { MapPoint(x: $0.0, y: $0.1) }
        let simplified = Simplification.douglasPeucker(ring, tolerance: 1)
        #expect(simplified.count == 5)
        #expect(simplified.first == simplified.last)
    }

    @Test func zeroToleranceKeepsEveryPoint() {
        let line = zigzag(count: 10, amplitude: 0.001)
        #expect(Simplification.douglasPeucker(line, tolerance: 0) == line)
    }

    @Test func preparedGeometryDropsRingsSmallerThanAPixel() {
        let island = Geometry.polygon([[(0, 0), (0.001, 0), (0.001, 0.001), (0, 0)].map(Position.init)])
        let tolerance = PreparedLayer.tolerance(zoomLevel: 0, screenScale: 1)
        #expect(PreparedGeometry(projecting: island, tolerance: tolerance).isEmpty)
        #expect(PreparedGeometry(projecting: island, tolerance: 0).polygons.count == 1)
    }
}
