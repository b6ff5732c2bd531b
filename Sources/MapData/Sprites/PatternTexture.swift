package import ImageCodec

/// A sprite image ready to be sampled as GL samples a pattern from its atlas: premultiplied
/// colours, bilinear between texel centres, wrapping at the edges (the atlas pads a pattern with
/// its wrapped border).
package struct PatternTexture: Sendable {
    /// The image's pixels, premultiplied RGBA in [0, 1], row-major.
    package let texels: [Float]
    package let width: Int, height: Int
    /// Each texel as Cairo's ARGB32 pixel (``argbWord(_:)``), what an icon drawn at full
    /// opacity and its own pixel ratio copies: made once, when the sprite loads.
    package let words: [UInt32]

    /// The texture of an image's pixels.
    package init(_ image: RGBAImage) {
        let rgba = image.pixels
        width = image.width
        height = image.height
        var texels = [Float](repeating: 0, count: width * height * 4)
        for pixel in 0..<(width * height) {
            let alpha = Float(rgba[pixel * 4 + 3]) / 255
            for channel in 0..<3 { texels[pixel * 4 + channel] = Float(rgba[pixel * 4 + channel]) / 255 * alpha }
            texels[pixel * 4 + 3] = alpha
        }
        self.texels = texels
        words = (0..<(width * height)).map { pixel in
            Self.argbWord((texels[pixel * 4], texels[pixel * 4 + 1], texels[pixel * 4 + 2], texels[pixel * 4 + 3]))
        }
    }

    /// A premultiplied colour in floats as Cairo's ARGB32 pixel: each channel × 255, rounded
    /// half away from zero and kept to 0...255.
    package static func argbWord(_ pixel: (Float, Float, Float, Float)) -> UInt32 {
        func byte(_ value: Float) -> UInt32 {
            let scaled = value * 255
            // `rounded()` without the library call for what lies in 0...255: truncated by the
            // conversion, then the half added back; the call for the rest.
            if scaled >= 0, scaled <= 255 {
                let whole = Float(Int32(scaled))
                return UInt32(scaled - whole >= 0.5 ? whole + 1 : whole)
            }
            return UInt32(max(0, min(255, scaled.rounded())))
        }
        return byte(pixel.3) << 24 | byte(pixel.0) << 16 | byte(pixel.1) << 8 | byte(pixel.2)
    }

    /// The premultiplied colour at `x` across the image and `y` down it (0...1 span the image;
    /// beyond, it wraps), into `color`.
    package func sample(x: Double, y: Double, into color: inout (Float, Float, Float, Float)) {
        // Texel centres at .5.
        let u = x * Double(width) - 0.5
        let v = y * Double(height) - 0.5
        let u0 = Int(u.rounded(.down))
        let v0 = Int(v.rounded(.down))
        let fu = Float(u - Double(u0))
        let fv = Float(v - Double(v0))
        func wrap(_ value: Int, _ size: Int) -> Int { ((value % size) + size) % size }
        let x0 = wrap(u0, width)
        let x1 = wrap(u0 + 1, width)
        let y0 = wrap(v0, height)
        let y1 = wrap(v0 + 1, height)
        let a = (y0 * width + x0) * 4
        let b = (y0 * width + x1) * 4
        let c = (y1 * width + x0) * 4
        let d = (y1 * width + x1) * 4
        func channel(_ k: Int) -> Float {
            let top = texels[a + k] + (texels[b + k] - texels[a + k]) * fu
            let bottom = texels[c + k] + (texels[d + k] - texels[c + k]) * fu
            return top + (bottom - top) * fv
        }
        color = (channel(0), channel(1), channel(2), channel(3))
    }
}

extension PatternTexture {
    /// The premultiplied colour at texel coordinates `u` across and `v` down (texel centres at
    /// .5), bilinear between texels, transparent beyond the edges: how GL samples an icon from
    /// its atlas, where each image has a transparent border.
    package func sampleBordered(u: Double, v: Double) -> (Float, Float, Float, Float) {
        let x = u - 0.5
        let y = v - 0.5
        let x0 = Int(x.rounded(.down))
        let y0 = Int(y.rounded(.down))
        let fx = Float(x - Double(x0))
        let fy = Float(y - Double(y0))
        var result: (Float, Float, Float, Float) = (0, 0, 0, 0)
        // The four texels in this order, each added when it weighs something and lies inside
        // (written out: a literal array of them was allocated per sample, per icon pixel).
        texels.withUnsafeBufferPointer { texels in
            @inline(__always) func add(_ column: Int, _ row: Int, _ weight: Float) {
                guard weight > 0, column >= 0, column < width, row >= 0, row < height else { return }
                let offset = (row * width + column) * 4
                result.0 += texels[offset] * weight
                result.1 += texels[offset + 1] * weight
                result.2 += texels[offset + 2] * weight
                result.3 += texels[offset + 3] * weight
            }
            add(x0, y0, (1 - fx) * (1 - fy))
            add(x0 + 1, y0, fx * (1 - fy))
            add(x0, y0 + 1, (1 - fx) * fy)
            add(x0 + 1, y0 + 1, fx * fy)
        }
        return result
    }

    /// The premultiplied colour of the texel holding texel coordinates `u`, `v` (GL's nearest
    /// sampling); transparent beyond the edges.
    package func sampleNearest(u: Double, v: Double) -> (Float, Float, Float, Float) {
        let column = Int(u.rounded(.down))
        let row = Int(v.rounded(.down))
        guard column >= 0, column < width, row >= 0, row < height else { return (0, 0, 0, 0) }
        let offset = (row * width + column) * 4
        return (texels[offset], texels[offset + 1], texels[offset + 2], texels[offset + 3])
    }
}
