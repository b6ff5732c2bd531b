import Foundation

/// A heatmap's kernel density over a view, as MapLibre computes it: a grid of a quarter of the
/// view's resolution (cells of 4 × 4 pixels), to which every point adds a Gaussian kernel.
///
/// A point of weight w (weight × intensity) adds `w · e^(−4.5 d²/r²) / √(2π)` at a distance d
/// from it, r the kernel's radius: the density at the point itself is w / √(2π) ≈ 0.4 w, and
/// at the radius e^(−4.5) ≈ 1.1% of that. The kernel covers a square around the point out to
/// where it falls below 1/4080 (GL's "effective zero"); cells beyond stay as they are.
struct HeatmapDensity {
    /// Cells across and down.
    let width: Int
    let height: Int
    /// Pixels per cell across and down (4, or a little more where the view's size is not a
    /// multiple of 4).
    let cellWidth: Double
    let cellHeight: Double
    /// The densities, row by row.
    private(set) var values: [Float]

    /// 1 / √(2π), the Gaussian's coefficient.
    static let gaussianCoefficient = 0.3989422804014327
    /// The density below which GL lets a kernel end.
    static let effectiveZero = 1.0 / 255.0 / 16.0

    /// An empty density grid for a view of `pixelWidth` × `pixelHeight` pixels.
    init(pixelWidth: Int, pixelHeight: Int) {
        width = max(1, pixelWidth / 4)
        height = max(1, pixelHeight / 4)
        cellWidth = Double(pixelWidth) / Double(width)
        cellHeight = Double(pixelHeight) / Double(height)
        values = [Float](repeating: 0, count: width * height)
    }

    /// How far a kernel of weight `weight` reaches, in radii: where it falls to the effective
    /// zero; nil when it is nowhere above it (nothing is drawn).
    static func reach(weight: Double) -> Double? {
        let peak = weight * gaussianCoefficient
        guard peak > effectiveZero, peak.isFinite else { return nil }
        return (-2 * log(effectiveZero / peak)).squareRoot() / 3
    }

    /// Adds a point's kernel: `x`, `y` in pixels, `radius` in pixels, `weight` the point's
    /// weight × the layer's intensity. Sums are kept at half-float precision, as GL's texture
    /// keeps them.
    mutating func add(x: Double, y: Double, radius: Double, weight: Double) {
        guard radius > 0, let reach = Self.reach(weight: weight) else { return }
        let extent = reach * radius
        // Cells whose centre lies inside the kernel's square.
        let firstColumn = max(0, Int(((x - extent) / cellWidth - 0.5).rounded(.up)))
        let lastColumn = min(width - 1, Int(((x + extent) / cellWidth - 0.5).rounded(.down)))
        let firstRow = max(0, Int(((y - extent) / cellHeight - 0.5).rounded(.up)))
        let lastRow = min(height - 1, Int(((y + extent) / cellHeight - 0.5).rounded(.down)))
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return }
        let scale = weight * Self.gaussianCoefficient
        let falloff = -4.5 / (radius * radius)
        for row in firstRow...lastRow {
            let dy = (Double(row) + 0.5) * cellHeight - y
            for column in firstColumn...lastColumn {
                let dx = (Double(column) + 0.5) * cellWidth - x
                let index = row * width + column
                values[index] = Self.halfPrecision(values[index] + Float(scale * exp(falloff * (dx * dx + dy * dy))))
            }
        }
    }

    /// Adds a point's kernel lying on the ground of a pitched view, as GL lays it: `center`
    /// and `radius` in ground points (see ``Viewport/groundPoint(for:)``), each cell weighed by
    /// the ground distance of the point it shows; `cellGround` holds each cell centre's ground
    /// point (row by row; nil above the horizon) and `cells` the cells the kernel's ground
    /// square covers.
    mutating func add(
        groundCenter center: (u: Double, v: Double), radius: Double, weight: Double,
        cellGround: [(u: Double, v: Double)?], cells: (columns: ClosedRange<Int>, rows: ClosedRange<Int>)
    ) {
        guard radius > 0, Self.reach(weight: weight) != nil else { return }
        let firstColumn = max(0, cells.columns.lowerBound)
        let lastColumn = min(width - 1, cells.columns.upperBound)
        let firstRow = max(0, cells.rows.lowerBound)
        let lastRow = min(height - 1, cells.rows.upperBound)
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return }
        let columns = firstColumn...lastColumn
        let rows = firstRow...lastRow
        let scale = weight * Self.gaussianCoefficient
        let falloff = -4.5 / (radius * radius)
        for row in rows {
            for column in columns {
                let index = row * width + column
                guard let ground = cellGround[index] else { continue }
                let du = ground.u - center.u
                let dv = ground.v - center.v
                values[index] = Self.halfPrecision(values[index] + Float(scale * exp(falloff * (du * du + dv * dv))))
            }
        }
    }

    /// The density at a cell.
    func value(column: Int, row: Int) -> Double { Double(values[row * width + column]) }

    /// The density at a pixel's centre, filtered bilinearly between the four nearest cells
    /// (clamped at the edges), as GL samples its density texture.
    func sample(pixelX: Int, pixelY: Int) -> Double {
        let u = (Double(pixelX) + 0.5) / cellWidth - 0.5
        let v = (Double(pixelY) + 0.5) / cellHeight - 0.5
        let x0 = Int(u.rounded(.down))
        let y0 = Int(v.rounded(.down))
        let fx = u - Double(x0)
        let fy = v - Double(y0)
        func at(_ column: Int, _ row: Int) -> Double {
            value(column: min(width - 1, max(0, column)), row: min(height - 1, max(0, row)))
        }
        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
        let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
        return top * (1 - fy) + bottom * fy
    }

    private static func halfPrecision(_ value: Float) -> Float {
        #if arch(x86_64) || arch(arm64)
            return Float(Float16(value))
        #else
            return value
        #endif
    }
}
