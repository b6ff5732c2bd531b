import GeoData
import MapCore
import Testing

struct ClippingTests {
    private let rect = MapRect(x: 0, y: 0, width: 100, height: 100)

    private func ring(_ pairs: [(Double, Double)]) -> [MapPoint] {
        pairs.map { MapPoint(x: $0.0, y: $0.1) }
    }

    /// The unsigned area of a closed ring (shoelace formula).
    private func area(_ ring: [MapPoint]) -> Double {
        abs(zip(ring, ring.dropFirst()).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }) / 2
    }

    @Test func ringHalfOutsideKeepsTheAreaInside() throws {
        let square = ring([(50, 50), (150, 50), (150, 150), (50, 150), (50, 50)])
        let clipped = try #require(Clipping.clipRing(square, to: rect))
        #expect(clipped.first == clipped.last)
        #expect(abs(area(clipped) - 2500) < 1e-9)
        #expect(clipped.allSatisfy { rect.insetBy(dx: -1e-9, dy: -1e-9).contains($0) })
    }

    @Test func concaveRingKeepsItsAreaInside() throws {
        // A U shape whose arms poke out of the top of the rect.
        let shape = ring([
            (10, -50), (30, -50), (30, 60), (70, 60), (70, -50), (90, -50), (90, 80), (10, 80), (10, -50),
        ])
        let clipped = try #require(Clipping.clipRing(shape, to: rect))
        // Inside the rect: the base 80 × 20 plus two arms 20 × 60.
        #expect(abs(area(clipped) - (80 * 20 + 2 * 20 * 60)) < 1e-9)
    }

    @Test func ringInsideIsUnchangedAndRingOutsideIsGone() {
        let inside = ring([(10, 10), (20, 10), (20, 20), (10, 10)])
        #expect(Clipping.clipRing(inside, to: rect) == inside)
        let outside = ring([(200, 200), (300, 200), (300, 300), (200, 200)])
        #expect(Clipping.clipRing(outside, to: rect) == nil)
    }

    @Test func lineLeavingAndReturningSplitsIntoPieces() {
        let line = ring([(-50, 50), (50, 50), (50, 150), (80, 150), (80, 50), (90, 50)])
        let pieces = Clipping.clipLine(line, to: rect)
        #expect(
            pieces == [
                ring([(0, 50), (50, 50), (50, 100)]),
                ring([(80, 100), (80, 50), (90, 50)]),
            ])
    }

    @Test func lineOutsideIsGone() {
        #expect(Clipping.clipLine(ring([(-10, -10), (-20, 50), (-5, 200)]), to: rect).isEmpty)
    }

    @Test func polygonHoleSurvivesClipping() throws {
        let rings = [
            [(0.0, 0.0), (20, 0), (20, 20), (0, 20), (0, 0)],
            [(8.0, 8.0), (8, 12), (12, 12), (12, 8), (8, 8)],
        ].map { $0.map(Position.init) }
        let prepared = PreparedGeometry(projecting: .polygon(rings), tolerance: 0)
        let center = MapPoint(try Coordinate(latitude: 10, longitude: 10))
        let window = MapRect(x: center.x - 1e6, y: center.y - 1e6, width: 2e6, height: 2e6)
        let clipped = prepared.clipped(to: window)
        #expect(clipped.polygons.count == 1)
        #expect(clipped.polygons.first?.count == 2)
        #expect(!clipped.contains(center))
        #expect(clipped.bounds.width <= window.width + 1e-6)
    }
}
