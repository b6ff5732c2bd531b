public import ImageCodec
public import MapComposer
public import MapCore
public import MapRenderer
public import MapStyle
public import PhotoSources

extension PhotoDrawing {
    /// The request for `photos` and `overlays` over `style`, their pins drawn as these options
    /// say (``apply(to:)``): the one place the assembly makes a ``MapComposer/PhotoMapRequest``
    /// for `render`, `flyover`, `tiles export` and `serve`. Its framing is the default, fitting
    /// what it shows; the caller sets another.
    ///
    /// - Parameter markerImage: Drawn as every marker instead of a pin; nil (the default) draws pins.
    public func request(
        photos: [Photo], style: Style, overlays: [MapOverlay], size: ViewSize, scale: Double,
        markerImage: RGBAImage? = nil
    ) -> PhotoMapRequest {
        var request = PhotoMapRequest(photos: photos, style: style, overlays: overlays, size: size, scale: scale)
        apply(to: &request)
        request.markerImage = markerImage
        return request
    }

    /// Reads `photos` (``PhotoInputs/load(requireLocated:)``: photos asked for but none located
    /// is an error) and `overlays` in `style`'s overlay look, appending what reading them noticed
    /// to `warnings` as it is found (also when a later input throws), and makes the
    /// ``request(photos:style:overlays:size:scale:markerImage:)`` for them.
    ///
    /// - Throws: ``AssemblyError`` naming the photo source or overlay file at fault.
    public func request(
        loading photos: PhotoInputs, overlays: OverlayInputs, style: Style, size: ViewSize, scale: Double,
        markerImage: RGBAImage? = nil,
        warnings: inout [String]
    ) throws(AssemblyError) -> PhotoMapRequest {
        let loadedPhotos = try photos.load()
        warnings += loadedPhotos.warnings
        let builtOverlays = try overlays.mapOverlays(look: style.mapwright.overlay)
        warnings += builtOverlays.warnings
        return request(
            photos: loadedPhotos.photos, style: style, overlays: builtOverlays.overlays, size: size, scale: scale,
            markerImage: markerImage)
    }
}
