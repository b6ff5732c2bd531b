import Foundation
import MapStyle

/// A paint property or the light changing over time, as GL eases a `setPaintProperty` or
/// `setLight` from the old value to the new: it starts at the first `wait` after the change and
/// lasts the property's `-transition` (else the style's `transition`, else 300 ms, no delay).
struct Transition {
    enum Target {
        /// A layer's paint property.
        case paint(layer: String, property: String)
        /// The style's `light`.
        case light
    }

    let target: Target
    let from: Any
    let to: Any
    let durationMilliseconds: Double
    let delayMilliseconds: Double
    /// The clock when it started: the first `wait` after the change; nil before.
    var startMilliseconds: Double?

    /// The value shown at `clock`: eased as GL eases (cubic in and out); nil once it has ended,
    /// before it started (the render then shows the new value), or for values that do not blend.
    func value(at clock: Double) -> Any? {
        guard let t = progress(at: clock) else { return nil }
        let eased = t <= 0 ? 0 : 4 * (t < 0.5 ? t * t * t : 3 * (t - t * t) + t * t * t - 0.75)
        return Transition.blend(from, to, eased)
    }

    /// How far it has come at `clock`, below 1; nil before it started or once it has ended.
    func progress(at clock: Double) -> Double? {
        guard let start = startMilliseconds, durationMilliseconds > 0 else { return nil }
        let t = (clock - start - delayMilliseconds) / durationMilliseconds
        return t < 1 ? t : nil
    }

    /// Numbers, colours and arrays of numbers blended as GL interpolates them; nil for others.
    static func blend(_ from: Any, _ to: Any, _ t: Double) -> Any? {
        if let a = number(from), let b = number(to) { return a + (b - a) * t }
        if let a = from as? [Any], let b = to as? [Any], a.count == b.count {
            let x = a.compactMap(number)
            let y = b.compactMap(number)
            guard x.count == a.count, y.count == b.count else { return nil }
            return zip(x, y).map { $0 + ($1 - $0) * t }
        }
        if let a = from as? String, let b = to as? String, let x = try? Color(css: a), let y = try? Color(css: b) {
            // GL blends premultiplied colours.
            func mix(_ p: Double, _ q: Double) -> Double { p + (q - p) * t }
            let alpha = mix(x.alpha, y.alpha)
            let channels = [
                mix(x.red * x.alpha, y.red * y.alpha), mix(x.green * x.alpha, y.green * y.alpha),
                mix(x.blue * x.alpha, y.blue * y.alpha),
            ]
            .map { alpha > 0 ? $0 / alpha * 255 : 0 }
            return "rgba(\(channels[0]), \(channels[1]), \(channels[2]), \(alpha))"
        }
        return nil
    }

    /// A JSON number (not a boolean), or a Swift one.
    private static func number(_ value: Any) -> Double? {
        if let number = value as? NSNumber {
            // JSONSerialization's true and false are the NSNumbers of objCType "c".
            return String(cString: number.objCType) == "c" ? nil : number.doubleValue
        }
        if let number = value as? Double { return number }
        if let number = value as? Int { return Double(number) }
        return nil
    }

    /// The defaults of the paint properties a transition may start from when the style leaves
    /// them out (the style specification's); other unset properties do not blend.
    static var paintDefaults: [String: Any] {
        [
            "background-color": "#000000", "background-opacity": 1, "fill-color": "#000000", "fill-opacity": 1,
            "line-color": "#000000", "line-opacity": 1, "line-width": 1, "circle-color": "#000000", "circle-opacity": 1,
            "circle-radius": 5, "raster-opacity": 1, "fill-extrusion-color": "#000000", "fill-extrusion-opacity": 1,
        ]
    }

    /// The light's defaults, for a light that blends from the style specification's.
    static var lightDefaults: [String: Any] {
        ["anchor": "viewport", "position": [1.15, 210, 30], "color": "#ffffff", "intensity": 0.5]
    }
}

extension StyleDocument {
    /// The transition the style gives a paint property: its `-transition`, else the style's
    /// `transition`, else 300 ms without delay.
    func transitionOptions(layer: [String: Any]?, property: String?) -> (duration: Double, delay: Double) {
        let own = property.flatMap { ((layer?["paint"] as? [String: Any])?[$0 + "-transition"]) as? [String: Any] }
        let style = json["transition"] as? [String: Any]
        func option(_ key: String, _ fallback: Double) -> Double {
            (own?[key] as? NSNumber)?.doubleValue ?? (style?[key] as? NSNumber)?.doubleValue ?? fallback
        }
        return (option("duration", 300), option("delay", 0))
    }

    /// Records a paint property's change, for a later `wait` to ease it.
    mutating func recordPaintTransition(layerID: String, property: String, from old: Any?, to new: Any) {
        guard !property.hasSuffix("-transition") else { return }
        let layer = ((json["layers"] as? [Any]) ?? []).lazy.compactMap { $0 as? [String: Any] }.first {
            $0["id"] as? String == layerID
        }
        guard let from = old ?? Transition.paintDefaults[property] else { return }
        let options = transitionOptions(layer: layer, property: property)
        transitions.removeAll { if case .paint(layerID, property) = $0.target { return true } else { return false } }
        transitions.append(
            Transition(
                target: .paint(layer: layerID, property: property), from: from, to: new,
                durationMilliseconds: options.duration, delayMilliseconds: options.delay))
    }

    /// Records the light's change, each of its values easing from the old light's (or the default's).
    mutating func recordLightTransition(from old: Any?, to new: Any?) {
        guard let new = new as? [String: Any] else { return }
        let options = transitionOptions(layer: nil, property: nil)
        var from = Transition.lightDefaults
        var to = Transition.lightDefaults
        from.merge((old as? [String: Any]) ?? [:]) { $1 }
        to.merge(new) { $1 }
        transitions.removeAll { if case .light = $0.target { return true } else { return false } }
        transitions.append(
            Transition(
                target: .light, from: from, to: to, durationMilliseconds: options.duration,
                delayMilliseconds: options.delay))
    }

    /// `wait` (or `sleep`) for `milliseconds`: transitions not yet begun begin now; nil waits for
    /// the map to be idle, every transition over.
    mutating func advanceClock(by milliseconds: Double?) {
        for index in transitions.indices where transitions[index].startMilliseconds == nil {
            transitions[index].startMilliseconds = clockMilliseconds
        }
        guard let milliseconds else {
            transitions.removeAll()
            return
        }
        clockMilliseconds += milliseconds
    }

    /// Writes the values the transitions still in progress show into the style, for the render.
    mutating func applyTransitions() throws {
        for transition in transitions {
            switch transition.target {
            case .paint(let layerID, let property):
                guard let value = transition.value(at: clockMilliseconds) else { continue }
                try changeLayer(layerID) { layer in
                    var paint = (layer["paint"] as? [String: Any]) ?? [:]
                    paint[property] = value
                    layer["paint"] = paint
                }
            case .light:
                guard transition.progress(at: clockMilliseconds) != nil, let from = transition.from as? [String: Any],
                    let to = transition.to as? [String: Any]
                else { continue }
                var light = to
                for (key, new) in to {
                    guard let old = from[key],
                        let eased = Transition(
                            target: .light, from: old, to: new, durationMilliseconds: transition.durationMilliseconds,
                            delayMilliseconds: transition.delayMilliseconds,
                            startMilliseconds: transition.startMilliseconds
                        ).value(at: clockMilliseconds)
                    else { continue }
                    light[key] = eased
                }
                json["light"] = light
            }
        }
        transitions.removeAll()
    }
}
