extension RGBAImage {
    /// The region of `regionWidth` × `regionHeight` pixels from column `x` and row `y` (which
    /// must lie inside the image), enlarged to `width` × `height` pixels by bilinear
    /// interpolation between pixel centres, edges clamped: how a map shows a parent tile's
    /// quarter (or smaller part) in place of a child tile not drawn yet. Colours are interpolated
    /// in straight alpha, which suits opaque images; the edges of transparent shapes may fringe.
    public func enlarged(x: Int, y: Int, regionWidth: Int, regionHeight: Int, toWidth width: Int, height: Int)
        -> RGBAImage
    {
        precondition(
            regionWidth > 0 && regionHeight > 0 && x >= 0 && y >= 0 && x + regionWidth <= self.width
                && y + regionHeight <= self.height)
        var output = [UInt8](repeating: 0, count: width * height * 4)
        let xScale = Double(regionWidth) / Double(width)
        let yScale = Double(regionHeight) / Double(height)
        let maxX = x + regionWidth - 1
        let maxY = y + regionHeight - 1
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    let sourceY = min(max((Double(row) + 0.5) * yScale - 0.5, 0), Double(regionHeight - 1)) + Double(y)
                    let y0 = Int(sourceY)
                    let y1 = min(y0 + 1, maxY)
                    let fy = sourceY - Double(y0)
                    for column in 0..<width {
                        let sourceX =
                            min(max((Double(column) + 0.5) * xScale - 0.5, 0), Double(regionWidth - 1)) + Double(x)
                        let x0 = Int(sourceX)
                        let x1 = min(x0 + 1, maxX)
                        let fx = sourceX - Double(x0)
                        let a = (y0 * self.width + x0) * 4
                        let b = (y0 * self.width + x1) * 4
                        let c = (y1 * self.width + x0) * 4
                        let d = (y1 * self.width + x1) * 4
                        let out = (row * width + column) * 4
                        for channel in 0..<4 {
                            let top = Double(source[a + channel]) * (1 - fx) + Double(source[b + channel]) * fx
                            let bottom = Double(source[c + channel]) * (1 - fx) + Double(source[d + channel]) * fx
                            target[out + channel] = UInt8((top * (1 - fy) + bottom * fy).rounded())
                        }
                    }
                }
            }
        }
        return RGBAImage(width: width, height: height, pixels: output)
    }
}
