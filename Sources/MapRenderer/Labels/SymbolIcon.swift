import CCairo
import Foundation
import MapCore
import MapData
import MapJSON
import MapStyle

/// A symbol's icon: a sprite image laid out round the symbol's anchor as GL lays it out
/// (`shapeIcon`, `getIconQuads`) and drawn as its icon shaders draw it.
///
/// The image's quad spans its size in points (pixels over its pixel ratio) times `icon-size`,
/// placed by `icon-anchor` and moved by `icon-offset` (also times `icon-size`), then turned by
/// ``rotationRadians`` round the anchor. It is sampled per device pixel: nearest texel when
/// drawn at its own size and unturned, bilinear otherwise, an SDF image always bilinear and
/// coloured by `icon-color` over its `icon-halo-*`.
struct SymbolIcon: Hashable, Sendable {
    /// The image's name, as the layer gave it.
    let name: String
    let image: StyleImage
    /// The quad before turning, relative to the anchor, in view points.
    let quad: ViewRect
    /// Clockwise, round the anchor: `icon-rotate`, plus the line's direction along lines.
    let rotationRadians: Double
    /// The collision box relative to the anchor, in view points, without padding: the quad
    /// turned by `icon-rotate` only (GL keeps an icon's box level along lines).
    let box: ViewRect
    /// `icon-padding`, in points.
    let paddingPoints: Double
    let opacity: Double
    /// Whether GL samples the image bilinearly: scaled, turned, or of another pixel ratio.
    let isLinear: Bool
    /// An SDF icon's colours; nil draws the image's own pixels.
    let sdf: SDFColors?
    /// `icon-translate` in view points, applied when drawing (not to collisions, as in GL).
    let translation: ViewPoint
    /// For an icon fitted to its text (``fitted(toText:fit:padding:offset:size:)``), where its
    /// texels lie across and down the quad; nil for an icon drawn in its own proportions.
    var columnCuts: [StretchCut]?
    var rowCuts: [StretchCut]?

    /// How an SDF icon is coloured.
    struct SDFColors: Hashable, Sendable {
        let color: Color
        let haloColor: Color
        let haloWidthPoints: Double
        let haloBlurPoints: Double
        /// `icon-size`, GL's font scale for icons.
        let size: Double
    }

    /// The box as laid out at `anchor`, padded.
    func paddedBox(at anchor: ViewPoint) -> ViewRect {
        ViewRect(
            x: anchor.x + box.minX - paddingPoints, y: anchor.y + box.minY - paddingPoints,
            width: box.size.width + 2 * paddingPoints, height: box.size.height + 2 * paddingPoints)
    }

    /// The box round the icon's quad, turned, at `anchor`, in view points.
    func bounds(at anchor: ViewPoint) -> ViewRect {
        let corners = self.corners(at: anchor)
        return ViewRect(enclosing: corners) ?? ViewRect(x: anchor.x, y: anchor.y, width: 0, height: 0)
    }

    private func corners(at anchor: ViewPoint) -> [ViewPoint] {
        let cosine = cos(rotationRadians)
        let sine = sin(rotationRadians)
        let origin = ViewPoint(x: anchor.x + translation.x, y: anchor.y + translation.y)
        return [(quad.minX, quad.minY), (quad.maxX, quad.minY), (quad.maxX, quad.maxY), (quad.minX, quad.maxY)].map {
            x, y in
            ViewPoint(x: origin.x + x * cosine - y * sine, y: origin.y + x * sine + y * cosine)
        }
    }

    /// Draws the icon at `anchor` (view points) into `cairo`, pixel by pixel in device space.
    func draw(at anchor: ViewPoint, in cairo: OpaquePointer) {
        guard opacity > 0, quad.size.width > 0, quad.size.height > 0 else { return }
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cairo, &matrix)
        // Device pixels per point, and the anchor in device pixels (the canvas only scales and moves).
        let scale = matrix.xx
        guard scale > 0, matrix.xy == 0, matrix.yx == 0 else { return }
        let origin = ViewPoint(
            x: (anchor.x + translation.x) * scale + matrix.x0, y: (anchor.y + translation.y) * scale + matrix.y0)
        let deviceCorners = corners(at: anchor).map {
            ViewPoint(x: $0.x * scale + matrix.x0, y: $0.y * scale + matrix.y0)
        }
        guard let deviceBounds = ViewRect(enclosing: deviceCorners) else { return }
        let minColumn = Int(deviceBounds.minX.rounded(.down))
        let maxColumn = Int(deviceBounds.maxX.rounded(.up))
        let minRow = Int(deviceBounds.minY.rounded(.down))
        let maxRow = Int(deviceBounds.maxY.rounded(.up))
        let width = maxColumn - minColumn
        let height = maxRow - minRow
        guard width > 0, height > 0, width * height < 16_000_000 else { return }
        let texture = image.texture
        // Device pixel → texel: undo the turn, then the quad's place and size.
        let cosine = cos(rotationRadians)
        let sine = sin(rotationRadians)
        let texelsPerPointX = Double(texture.width) / quad.size.width
        let texelsPerPointY = Double(texture.height) / quad.size.height
        let sdfParameters = sdf.map {
            SDFShading(
                color: $0.color, haloColor: $0.haloColor, haloWidthPoints: $0.haloWidthPoints,
                haloBlurPoints: $0.haloBlurPoints,
                fontScale: $0.size, devicePixelRatio: scale, opacity: opacity)
        }
        // Each column's and each row's offset from the anchor in points, worked out once.
        let columnOffsets = (0..<width).map { column in (Double(minColumn + column) + 0.5 - origin.x) / scale }
        let rowOffsets = (0..<height).map { row in (Double(minRow + row) + 0.5 - origin.y) / scale }
        if rotationRadians == 0, columnCuts == nil, rowCuts == nil, !isLinear, sdfParameters == nil {
            // Unturned nearest texels (an icon at its own pixel ratio): each column of device
            // pixels lands in one texel column and each row in one texel row (the texel
            // coordinates below are the general case's with a turn of 0), and each texel's pixel
            // is worked out once, then copied (OSM Bright's hundreds of POI icons were an eighth
            // of a street-level render, pixel by pixel).
            func texel(_ coordinate: Double, below size: Int) -> Int {
                coordinate >= 0 && coordinate < Double(size) ? Int(coordinate.rounded(.down)) : -1
            }
            let columns = columnOffsets.map { dx in texel((dx - quad.minX) * texelsPerPointX, below: texture.width) }
            let rows = rowOffsets.map { dy in texel((dy - quad.minY) * texelsPerPointY, below: texture.height) }
            let alpha = Float(opacity)
            // At full opacity each texel times 1 is itself: the words the sprite made once.
            let words =
                alpha == 1
                ? texture.words
                : texture.texels.withUnsafeBufferPointer { texels in
                    (0..<(texture.width * texture.height)).map { index in
                        PatternTexture.argbWord(
                            (
                                texels[index * 4] * alpha, texels[index * 4 + 1] * alpha,
                                texels[index * 4 + 2] * alpha, texels[index * 4 + 3] * alpha
                            ))
                    }
                }
            DevicePixels.paint(width: width, height: height, column: minColumn, row: minRow, in: cairo) {
                row, target in
                let textureRow = rows[row]
                for column in 0..<width {
                    let textureColumn = columns[column]
                    target[column] =
                        textureRow < 0 || textureColumn < 0 ? 0 : words[textureRow * texture.width + textureColumn]
                }
            }
            return
        }
        // The offsets times the turn's cosine and sine, worked out once: per pixel they are only
        // added (the same numbers as per pixel).
        let columnsAcross = columnOffsets.map { dx in dx * cosine }
        let columnsDown = columnOffsets.map { dx in -dx * sine }
        let rowsAcross = rowOffsets.map { dy in dy * sine }
        let rowsDown = rowOffsets.map { dy in dy * cosine }
        DevicePixels.paint(width: width, height: height, column: minColumn, row: minRow, in: cairo) { column, row in
            let localX = columnsAcross[column] + rowsAcross[row]
            let localY = columnsDown[column] + rowsDown[row]
            if let columnCuts, let rowCuts {
                guard let u = Self.texel(at: localX, along: columnCuts), let v = Self.texel(at: localY, along: rowCuts)
                else { return (0, 0, 0, 0) }
                if let sdfParameters { return sdfParameters.color(distance: texture.sampleBordered(u: u, v: v).3) }
                let color = texture.sampleBordered(u: u, v: v)
                let alpha = Float(opacity)
                return (color.0 * alpha, color.1 * alpha, color.2 * alpha, color.3 * alpha)
            }
            let u = (localX - quad.minX) * texelsPerPointX
            let v = (localY - quad.minY) * texelsPerPointY
            // GL fills the pixels whose centres the quad covers.
            guard u >= 0, u < Double(texture.width), v >= 0, v < Double(texture.height) else { return (0, 0, 0, 0) }
            if let sdfParameters { return sdfParameters.color(distance: texture.sampleBordered(u: u, v: v).3) }
            let color = isLinear ? texture.sampleBordered(u: u, v: v) : texture.sampleNearest(u: u, v: v)
            let alpha = Float(opacity)
            return (color.0 * alpha, color.1 * alpha, color.2 * alpha, color.3 * alpha)
        }
    }
}

extension SymbolIcon {
    /// The icon a symbol layer draws for a feature, or nil without one. A name no sprite has
    /// is counted in `missing` and draws nothing, as in MapLibre.
    ///
    /// - Parameters:
    ///   - lineAngle: The line's direction at the anchor for line placement, in radians
    ///     clockwise; nil at points.
    ///   - viewport: The view: its scale (GL samples an image of another pixel ratio
    ///     bilinearly) and heading (a point's icon aligned with the map turns with it).
    static func make(
        for symbol: SymbolLayer, properties: [String: FeatureValue], zoom: Double, images: StyleImages,
        lineAngle: Double?,
        viewport: Viewport, missing: inout Set<String>
    ) -> SymbolIcon? {
        let viewportScale = viewport.scale
        guard let name = symbol.iconName(for: properties, atZoom: zoom) else { return nil }
        guard let image = images[name] else {
            missing.insert(name)
            return nil
        }
        let size = symbol.iconSize.value(atZoom: zoom, properties: properties)
        let offset = symbol.iconOffset.value(atZoom: zoom, properties: properties)
        let anchor = symbol.iconAnchor.value(atZoom: zoom, properties: properties)
        let rotate = symbol.iconRotate.value(atZoom: zoom, properties: properties) * .pi / 180
        // GL's shapeIcon: the image's display size, placed by the anchor, moved by the offset; all times icon-size.
        let width = image.widthPoints
        let height = image.heightPoints
        let x1 = (offset.xPoints - width * anchor.horizontalAlignment) * size
        let y1 = (offset.yPoints - height * anchor.verticalAlignment) * size
        let quad = ViewRect(x: x1, y: y1, width: width * size, height: height * size)
        var box = quad
        if rotate != 0 {
            let cosine = cos(rotate)
            let sine = sin(rotate)
            let corners = [
                (quad.minX, quad.minY), (quad.maxX, quad.minY), (quad.maxX, quad.maxY), (quad.minX, quad.maxY),
            ].map { x, y in
                ViewPoint(x: x * cosine - y * sine, y: x * sine + y * cosine)
            }
            box = ViewRect(enclosing: corners) ?? quad
        }
        var rotation = rotate
        let alignment = symbol.iconRotationAlignment.value(atZoom: zoom)
        if let lineAngle, alignment != .viewport {
            var angle = lineAngle
            if symbol.iconKeepUpright.value(atZoom: zoom), angle > .pi / 2 || angle <= -.pi / 2 { angle += .pi }
            rotation += angle
        } else if lineAngle == nil, alignment == .map {
            // Aligned with the map at a point: turned as the map is.
            rotation -= viewport.camera.headingDegrees * .pi / 180
        }
        // GL samples linearly when the size is not a constant 1, the icon turns, or the image's
        // pixel ratio is not the screen's.
        let isLinear =
            symbol.iconSize.constantValue != 1 || symbol.iconRotate.constantValue != 0 || rotation != 0
            || image.pixelRatio != viewportScale
        let translate = symbol.iconTranslate.value(atZoom: zoom)
            .inView(
                anchor: symbol.iconTranslateAnchor.value(atZoom: zoom), headingDegrees: viewport.camera.headingDegrees)
        var sdf: SDFColors?
        if image.entry.sdf {
            sdf = SDFColors(
                color: symbol.iconColor.value(atZoom: zoom, properties: properties),
                haloColor: symbol.iconHaloColor.value(atZoom: zoom, properties: properties),
                haloWidthPoints: symbol.iconHaloWidth.value(atZoom: zoom, properties: properties),
                haloBlurPoints: symbol.iconHaloBlur.value(atZoom: zoom, properties: properties),
                size: size)
        }
        return SymbolIcon(
            name: name, image: image, quad: quad, rotationRadians: rotation, box: box,
            paddingPoints: symbol.iconPadding.value(atZoom: zoom),
            opacity: symbol.iconOpacity.value(atZoom: zoom, properties: properties),
            isLinear: isLinear || image.entry.sdf, sdf: sdf, translation: translate)
    }
}
