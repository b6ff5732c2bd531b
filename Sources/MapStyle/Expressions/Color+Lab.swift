import Foundation

/// CIE Lab and HCL conversions (D50 white, as d3-color and MapLibre have them), for
/// `interpolate-lab` and `interpolate-hcl`.
extension Color {
    private static let xn = 0.96422, yn = 1.0, zn = 0.82521
    private static let t0 = 4.0 / 29, t1 = 6.0 / 29, t2 = 3 * t1 * t1, t3 = t1 * t1 * t1

    /// `[l, a, b]` of the (unpremultiplied) colour.
    var lab: (l: Double, a: Double, b: Double) {
        func linear(_ x: Double) -> Double { x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
        func f(_ t: Double) -> Double { t > Self.t3 ? pow(t, 1.0 / 3) : t / Self.t2 + Self.t0 }
        let r = linear(red)
        let g = linear(green)
        let b = linear(blue)
        let y = f((0.2225045 * r + 0.7168786 * g + 0.0606169 * b) / Self.yn)
        let x: Double
        let z: Double
        if r == g && g == b {
            x = y
            z = y
        } else {
            x = f((0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / Self.xn)
            z = f((0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / Self.zn)
        }
        let l = 116 * y - 16
        return (l < 0 ? 0 : l, 500 * (x - y), 200 * (y - z))
    }

    init(lab l: Double, _ a: Double, _ b: Double, alpha: Double) {
        func f(_ t: Double) -> Double { t > Self.t1 ? t * t * t : Self.t2 * (t - Self.t0) }
        func gamma(_ x: Double) -> Double {
            let v = x <= 0.00304 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
            return min(1, max(0, v))
        }
        var y = (l + 16) / 116
        var x = a.isNaN ? y : y + a / 500
        var z = b.isNaN ? y : y - b / 200
        y = Self.yn * f(y)
        x = Self.xn * f(x)
        z = Self.zn * f(z)
        self.init(
            red: gamma(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
            green: gamma(-0.9787684 * x + 1.9161415 * y + 0.0334540 * z),
            blue: gamma(0.0719453 * x - 0.2289914 * y + 1.4052427 * z), alpha: alpha)
    }

    /// `[h, c, l]`; the hue is NaN for greys.
    var hcl: (h: Double, c: Double, l: Double) {
        let (l, a, b) = lab
        let c = (a * a + b * b).squareRoot()
        var h = (c * 10000).rounded() != 0 ? atan2(b, a) * 180 / .pi : .nan
        if h < 0 { h += 360 }
        return (h, c, l)
    }

    func interpolatedLab(to end: Color, fraction t: Double) -> Color {
        let a = lab
        let b = end.lab
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        return Color(lab: mix(a.l, b.l), mix(a.a, b.a), mix(a.b, b.b), alpha: mix(alpha, end.alpha))
    }

    func interpolatedHCL(to end: Color, fraction t: Double) -> Color {
        let from = hcl
        let to = end.hcl
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        var hue: Double
        var chroma: Double?
        if !from.h.isNaN && !to.h.isNaN {
            var dh = to.h - from.h
            if to.h > from.h && dh > 180 { dh -= 360 } else if to.h < from.h && from.h - to.h > 180 { dh += 360 }
            hue = from.h + t * dh
        } else if !from.h.isNaN {
            hue = from.h
            if to.l == 1 || to.l == 0 { chroma = from.c }
        } else if !to.h.isNaN {
            hue = to.h
            if from.l == 1 || from.l == 0 { chroma = to.c }
        } else {
            hue = .nan
        }
        let c = chroma ?? mix(from.c, to.c)
        let l = mix(from.l, to.l)
        let radians = hue.isNaN ? 0 : hue * .pi / 180
        return Color(lab: l, cos(radians) * c, sin(radians) * c, alpha: mix(alpha, end.alpha))
    }
}

/// A cubic Bézier easing from (0, 0) to (1, 1) with control points (x1, y1), (x2, y2), as CSS
/// and `["cubic-bezier", ...]` define it.
struct UnitBezier {
    let cx, bx, ax, cy, by, ay: Double

    init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    private func x(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func y(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func dx(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    func solve(_ target: Double, epsilon: Double = 1e-6) -> Double {
        if target <= 0 { return 0 }
        if target >= 1 { return 1 }
        var t = target
        for _ in 0..<8 {
            let error = x(t) - target
            if abs(error) < epsilon { return y(t) }
            let slope = dx(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var low = 0.0
        var high = 1.0
        t = target
        while low < high {
            let value = x(t)
            if abs(value - target) < epsilon { return y(t) }
            if target > value { low = t } else { high = t }
            t = (high - low) * 0.5 + low
            if high - low < 1e-12 { break }
        }
        return y(t)
    }
}
