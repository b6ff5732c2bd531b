import Foundation
import MapCore

/// Finds the closest north-up view that shows a set of things whose drawings reach a fixed
/// number of points around their anchors (pins above their tips, a callout above its pin, lines
/// of some width), each whole and a margin away from the edges.
///
/// Padding alone cannot do that: it applies the largest reach to every coordinate, so a callout
/// 320 points wide would push every pin 160 points from both sides. Here each thing keeps its
/// own reach. Map distances scale with the zoom while reaches do not, so the solver searches the
/// zoom factor `k` (relative to a first view) for the largest one at which the things' extent,
/// `max(k·a + right) − min(k·a − left)`, fits between the margins on both axes, and then centres
/// that extent between them.
struct FitSolver {
    /// Something drawn: its anchor in the first view, in points, and how far it reaches from it.
    struct Item: Hashable {
        var anchor: ViewPoint
        var reach: EdgeInsets
    }

    /// The things, reduced to what decides the fit: of the items that share a reach, only the
    /// ones furthest out on each side matter.
    private let items: [Item]

    init(_ items: [Item]) {
        var extremes: [EdgeInsets: (minX: Item, maxX: Item, minY: Item, maxY: Item)] = [:]
        for item in items {
            guard var found = extremes[item.reach] else {
                extremes[item.reach] = (item, item, item, item)
                continue
            }
            if item.anchor.x < found.minX.anchor.x { found.minX = item }
            if item.anchor.x > found.maxX.anchor.x { found.maxX = item }
            if item.anchor.y < found.minY.anchor.y { found.minY = item }
            if item.anchor.y > found.maxY.anchor.y { found.maxY = item }
            extremes[item.reach] = found
        }
        self.items = Array(Set(extremes.values.flatMap { [$0.minX, $0.maxX, $0.minY, $0.maxY] }))
    }

    /// What ``solve(from:margins:)`` found.
    struct Solution {
        var viewport: Viewport
        /// Whether every item fits inside the margins; false when the reaches are too large for
        /// the image, or would need a view so far out that the world repeats across it.
        var fitsWholly: Bool
    }

    /// The closest view, no closer than `first`, with every item inside `margins`. The view is
    /// never zoomed out so far that the world shows more than once across it, unless `first`
    /// already is: when the items need more room than that, the farthest such view is returned,
    /// centred, with `fitsWholly` false.
    ///
    /// - Parameters:
    ///   - first: A north-up view showing every anchor; the result zooms out from it.
    ///   - margins: The space kept free at each edge, in points.
    func solve(from first: Viewport, margins: EdgeInsets) -> Solution? {
        guard !items.isEmpty else { return Solution(viewport: first, fitsWholly: true) }
        let size = first.size
        let available = (
            x: size.width - margins.left - margins.right,
            y: size.height - margins.top - margins.bottom
        )
        // Offsets from the view's centre; y grows downwards.
        let offsets = items.map { (a: $0.anchor.x - size.width / 2, b: $0.anchor.y - size.height / 2, reach: $0.reach) }
        func extent(_ k: Double) -> (lowX: Double, highX: Double, lowY: Double, highY: Double) {
            var lowX = Double.infinity
            var highX = -Double.infinity
            var lowY = Double.infinity
            var highY = -Double.infinity
            for item in offsets {
                lowX = min(lowX, k * item.a - item.reach.left)
                highX = max(highX, k * item.a + item.reach.right)
                lowY = min(lowY, k * item.b - item.reach.top)
                highY = max(highY, k * item.b + item.reach.bottom)
            }
            return (lowX, highX, lowY, highY)
        }
        func fits(_ k: Double) -> Bool {
            let e = extent(k)
            return e.highX - e.lowX <= available.x && e.highY - e.lowY <= available.y
        }
        // The extent is convex in k, so the k that fit form an interval from 0. The smallest k
        // allowed keeps the world at least as wide as the view (or at zoom 0).
        let worldWidthPoints = WebMercator.worldSize * ZoomLevel.zoomScale(atZoomLevel: first.zoomLevel)
        let smallest = min(1, max(pow(2, -first.zoomLevel), size.width / worldWidthPoints))
        var k = 1.0
        var fitsWholly = true
        if !fits(smallest) {
            k = smallest
            fitsWholly = false
        } else if !fits(k) {
            var low = smallest
            var high = 1.0
            for _ in 0..<60 {
                let middle = (low + high) / 2
                if fits(middle) { low = middle } else { high = middle }
            }
            k = low
        }
        // Centre the extent between the margins: move the view's centre by d (points of the
        // first view), which moves every item by -k·d.
        let e = extent(k)
        let wantedCenter = (x: (margins.left - margins.right) / 2, y: (margins.top - margins.bottom) / 2)
        let shift = (x: wantedCenter.x - (e.lowX + e.highX) / 2, y: wantedCenter.y - (e.lowY + e.highY) / 2)
        let newCenter = ViewPoint(x: size.width / 2 - shift.x / k, y: size.height / 2 - shift.y / k)
        guard let center = first.coordinate(for: newCenter) else { return nil }
        let zoom = max(Viewport.zoomLevelRange.lowerBound, first.zoomLevel + log2(k))
        return (try? Viewport(center: center, zoomLevel: zoom, size: size, scale: first.scale))
            .map { Solution(viewport: $0, fitsWholly: fitsWholly) }
    }
}
