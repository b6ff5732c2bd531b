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

    public init(url: URL, corners: [Coordinate]) {
        self.url = url
        self.corners = corners
    }
}
