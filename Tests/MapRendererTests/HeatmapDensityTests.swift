import Foundation
import MapStyle
import Testing

@testable import MapRenderer

struct HeatmapDensityTests {
    @Test func aPointsKernelPeaksAtWeightOverRootTwoPiAndFallsOffAsAGaussian() {
        var density = HeatmapDensity(pixelWidth: 64, pixelHeight: 64)
        // The centre of cell (8, 8) is pixel 34; a 20-pixel radius spans 5 cells.
        density.add(x: 34, y: 34, radius: 20, weight: 1)
        #expect(abs(density.value(column: 8, row: 8) - HeatmapDensity.gaussianCoefficient) < 1e-3)
        // Five cells (20 pixels, one radius) away: e^(−4.5) of the peak.
        let atRadius = density.value(column: 13, row: 8) / density.value(column: 8, row: 8)
        #expect(abs(atRadius - exp(-4.5)) < 1e-3)
        // Half a radius: e^(−1.125).
        let halfway =
            density.value(column: 8, row: 10).isZero
            ? 0 : density.value(column: 8, row: 10) / density.value(column: 8, row: 8)
        #expect(abs(halfway - exp(-4.5 * 0.16)) < 2e-3)
        // Beyond the kernel's square, nothing.
        #expect(density.value(column: 15, row: 8) == 0)
    }

    @Test func weightAndIntensityScaleTheKernel() {
        var single = HeatmapDensity(pixelWidth: 64, pixelHeight: 64)
        single.add(x: 34, y: 34, radius: 20, weight: 1)
        var double = HeatmapDensity(pixelWidth: 64, pixelHeight: 64)
        double.add(x: 34, y: 34, radius: 20, weight: 2)
        var twice = HeatmapDensity(pixelWidth: 64, pixelHeight: 64)
        twice.add(x: 34, y: 34, radius: 20, weight: 1)
        twice.add(x: 34, y: 34, radius: 20, weight: 1)
        #expect(abs(double.value(column: 8, row: 8) - 2 * single.value(column: 8, row: 8)) < 1e-3)
        #expect(abs(twice.value(column: 8, row: 8) - double.value(column: 8, row: 8)) < 1e-3)
        // A weight too small to rise above GL's effective zero draws nothing.
        var faint = HeatmapDensity(pixelWidth: 64, pixelHeight: 64)
        faint.add(x: 34, y: 34, radius: 20, weight: 0.0005)
        #expect(faint.value(column: 8, row: 8) == 0)
    }

    @Test func densityIsColouredThroughTheRamp() {
        let ramp = HeatmapLayer().colorRamp(atZoom: 0)
        #expect(HeatmapImage.color(density: 0, ramp: ramp).alpha == 0)
        let red = HeatmapImage.color(density: 3, ramp: ramp)
        #expect(red.red == 1 && red.green == 0 && red.alpha == 1)
        let mid = HeatmapImage.color(density: 0.5, ramp: ramp)
        #expect(mid.green == 1 && mid.alpha == 1)
    }
}
