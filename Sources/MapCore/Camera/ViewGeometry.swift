/// A point in a view, in points: origin at the top-left corner, x right, y down.
public struct ViewPoint: Hashable, Sendable, Codable {
    /// Points right of the view's left edge.
    public var x: Double
    /// Points below the view's top edge.
    public var y: Double

    /// Creates a view point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A size in view points. Pixels are points × the viewport's scale.
public struct ViewSize: Hashable, Sendable, Codable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double

    /// Creates a view size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle in view points.
public struct ViewRect: Hashable, Sendable, Codable {
    /// The top-left corner.
    public var origin: ViewPoint
    /// Width and height in points.
    public var size: ViewSize

    /// Creates a view rect from its top-left corner and size.
    public init(origin: ViewPoint, size: ViewSize) {
        self.origin = origin
        self.size = size
    }

    /// Creates a view rect from its top-left corner coordinates and size in points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: ViewPoint(x: x, y: y), size: ViewSize(width: width, height: height))
    }

    /// The smallest rect containing every point; `nil` for none.
    public init?<S: Sequence>(enclosing points: S) where S.Element == ViewPoint {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        for point in points {
            minX = min(minX, point.x)
            maxX = max(maxX, point.x)
            minY = min(minY, point.y)
            maxY = max(maxY, point.y)
        }
        guard minX.isFinite else { return nil }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }

    /// The rect shrunk by `dx` on the left and right and `dy` at the top and bottom; negative
    /// values grow it, as MapRect's and CGRect's `insetBy` do.
    public func insetBy(dx: Double, dy: Double) -> ViewRect {
        ViewRect(x: minX + dx, y: minY + dy, width: size.width - 2 * dx, height: size.height - 2 * dy)
    }
}

/// Distances in view points by which content is kept away from each edge of a view
/// (MapKit's edgePadding).
public struct EdgeInsets: Hashable, Sendable, Codable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    /// Creates insets for each edge, in points.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every edge.
    public init(all points: Double) {
        self.init(top: points, left: points, bottom: points, right: points)
    }

    /// No inset.
    public static let zero = EdgeInsets()
}
