import MapCore
import Testing

@testable import MapRenderer

/// Labels are placed region by region at deep zooms; each label belongs to one region.
@Suite struct PlacementRegionTests {
    @Test func zoomsUpTo8192PointsWideArePlacedWhole() {
        for (zoom, size) in [(5, 256), (4, 512)] {
            let regions = PlacementRegion.regions(
                meeting: ViewRect(x: 100, y: 100, width: 256, height: 256), zoom: zoom, tileSizePoints: size)
            #expect(regions.count == 1 && regions[0].isWorld)
            #expect(
                regions[0].keeps(
                    anchor: ViewPoint(x: 8_000, y: 10), bounds: ViewRect(x: 7_000, y: 0, width: 1_192, height: 20)))
        }
    }

    @Test func aWindowAsksTheRegionsWithinReach() {
        // Zoom 6 at 256 points: 16,384 points wide, two regions a side.
        let middle = PlacementRegion.regions(
            meeting: ViewRect(x: 2_000, y: 2_000, width: 512, height: 512), zoom: 6, tileSizePoints: 256)
        #expect(middle.map { [$0.column, $0.row] } == [[0, 0]])
        let edge = PlacementRegion.regions(
            meeting: ViewRect(x: 7_680, y: 7_680, width: 512, height: 512), zoom: 6, tileSizePoints: 256)
        #expect(edge.map { [$0.column, $0.row] } == [[0, 0], [1, 0], [0, 1], [1, 1]], "in row order")
        // Deep zooms: only the regions near the window, never wrapping round the world.
        let deep = PlacementRegion.regions(
            meeting: ViewRect(x: 0, y: 0, width: 256, height: 256), zoom: 16, tileSizePoints: 256)
        #expect(deep.map { [$0.column, $0.row] } == [[0, 0]])
    }

    @Test func aLabelBelongsToTheRegionOfItsAnchorAndReachesLittleBeyond() {
        // The window is within reach of both regions of its row; the eastern one is its own.
        let regions = PlacementRegion.regions(
            meeting: ViewRect(x: 9_000, y: 100, width: 10, height: 10), zoom: 6, tileSizePoints: 256)
        #expect(regions.map(\.column) == [0, 1])
        let region = regions[1]
        #expect(region.rect.minX == 8_192)
        let label = ViewRect(x: 8_000, y: 100, width: 400, height: 20)
        #expect(
            region.keeps(anchor: ViewPoint(x: 8_200, y: 110), bounds: label), "across the west edge, anchored inside")
        #expect(!region.keeps(anchor: ViewPoint(x: 8_190, y: 110), bounds: label), "anchored in the western neighbour")
        #expect(
            !region.keeps(
                anchor: ViewPoint(x: 8_200, y: 110), bounds: ViewRect(x: 6_000, y: 100, width: 4_000, height: 20)),
            "a label reaching over 1,024 points beyond its region")
    }
}
