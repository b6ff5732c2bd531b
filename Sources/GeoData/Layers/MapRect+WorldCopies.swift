public import MapCore

/// The part of a map rect that falls in one copy of the world, moved into the central copy.
///
/// Map space repeats every ``WebMercator/worldSize`` on x: a viewport whose rect reaches past
/// the antimeridian (maxX > worldSize) shows the start of the next copy. Data lives in the
/// central copy, [0, worldSize]; a query looks there with ``rect``, and whatever it finds is
/// drawn at x + ``offsetX``.
public struct WorldCopy: Hashable, Sendable {
    /// The part of the rect within one world copy, shifted into [0, worldSize] on x.
    public var rect: MapRect
    /// What to add to x to draw data of the central copy in this copy: a multiple of worldSize.
    public var offsetX: Double

    /// Creates a world copy.
    public init(rect: MapRect, offsetX: Double) {
        self.rect = rect
        self.offsetX = offsetX
    }
}

extension MapRect {
    /// The world copies this rect overlaps, west to east.
    ///
    /// For example, a rect from x = worldSize − 100 to worldSize + 50 gives two copies:
    /// (worldSize − 100 ..< worldSize, offset 0) and (0 ..< 50, offset worldSize). A rect
    /// within the central copy gives itself with offset 0; a null rect gives none.
    public var worldCopies: [WorldCopy] {
        let size = WebMercator.worldSize
        guard !isNull, minX.isFinite, maxX.isFinite, abs(minX) < 1e12, abs(maxX) < 1e12 else { return [] }
        let first = Int((minX / size).rounded(.down))
        let last = Int((maxX / size).rounded(.down))
        var copies: [WorldCopy] = []
        for copy in first...last {
            let offset = Double(copy) * size
            let west = max(minX, offset)
            let east = min(maxX, offset + size)
            guard east > west || (copy == first && east == west) else { continue }
            copies.append(
                WorldCopy(rect: MapRect(x: west - offset, y: minY, width: east - west, height: height), offsetX: offset)
            )
        }
        return copies
    }
}
