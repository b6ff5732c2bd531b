import ImageDiff
import MapCore

/// A rendered map image and the viewport it shows (MapKit's MKMapSnapshotter.Snapshot).
public struct MapSnapshot: Sendable {
    /// The pixels: the viewport's size in points × its scale.
    public let image: RGBAImage
    /// The viewport the image shows.
    public let viewport: Viewport

    /// Where a coordinate appears in the image, in points (multiply by the scale for pixels);
    /// `nil` behind the camera.
    public func point(for coordinate: Coordinate) -> ViewPoint? {
        viewport.point(for: coordinate)
    }
}
