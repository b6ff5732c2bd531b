public import MapCore

/// A style's own view: its root `center`, `zoom`, `bearing` and `pitch` (MapLibre Style
/// Specification, "Root"), which MapLibre opens the map at. Mapwright draws it when nothing else
/// frames the map (no photos, track, overlay, region or `--center`), as `mbgl-render` does.
public struct StyleCamera: Hashable, Sendable {
    /// `center`. Required: a style without it has no camera.
    public var center: Coordinate
    /// `zoom`. The default is 0.
    public var zoomLevel: Double = 0
    /// `bearing`, in degrees clockwise from north. The default is 0.
    public var headingDegrees: Double = 0
    /// `pitch`, in degrees from straight down. The default is 0.
    public var pitchDegrees: Double = 0

    /// Creates a camera.
    public init(center: Coordinate, zoomLevel: Double = 0, headingDegrees: Double = 0, pitchDegrees: Double = 0) {
        self.center = center
        self.zoomLevel = zoomLevel
        self.headingDegrees = headingDegrees
        self.pitchDegrees = pitchDegrees
    }
}
