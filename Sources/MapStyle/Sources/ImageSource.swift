public import Foundation
public import MapCore

/// An image source: one PNG or JPEG file stretched over the map between four corners (MapLibre
/// Style Specification, "Sources: image"). Raster layers draw it, with their paint.
///
/// The corners need not make a rectangle: as MapLibre does, the picture is drawn as two
/// triangles (top-left, top-right, bottom-left and top-right, bottom-left, bottom-right), each
/// mapped linearly.
public struct ImageSource: Hashable, Sendable {
    /// `url`: the image file (a path or `file://` URL, relative to the style file).
    public var url: URL
    /// `coordinates`: the image's top-left, top-right, bottom-right and bottom-left corners, in
    /// that order (clockwise from the top left).
    public var corners: [Coordinate]
    /// The corners' longitudes as written, aligned with ``corners``: beyond ±180 for an image
    /// that crosses the antimeridian (`[-270, 90]` spans one world from 90° W of the
    /// antimeridian), where ``corners`` hold them wrapped. The default is the corners' own.
    public var longitudes: [Double]

    public init(url: URL, corners: [Coordinate], longitudes: [Double]? = nil) {
        self.url = url
        self.corners = corners
        self.longitudes = longitudes ?? corners.map(\.longitude)
    }
}
