import MapData

extension StyleImage {
    /// A Cairo ARGB32 surface (premultiplied) of the pixels; nil when Cairo cannot make one.
    /// The caller destroys it.
    func makeSurface() -> OpaquePointer? { ImagePainter.makeSurface(pixels) }
}
