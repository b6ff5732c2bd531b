import CCairo
import Foundation
import MapCore
import MapStyle

/// The annotations that show in a view, where their markers sit, and how to draw them.
struct AnnotationLayout {
    struct Placed {
        let annotation: MapAnnotation
        /// The marker's anchor: the pin's tip, on the coordinate, in view points.
        let tip: ViewPoint
        /// What the marker covers (shadow included), in view points.
        let frame: ViewRect
        /// What the marker's body covers, kept free of labels.
        let bodyFrame: ViewRect
    }

    let viewSize: ViewSize
    /// Visible annotations, north first, so drawing in order puts southern markers on top.
    let placed: [Placed]

    init(annotations: [MapAnnotation], viewport: Viewport) {
        viewSize = viewport.size
        let view = ViewRect(x: 0, y: 0, width: viewport.size.width, height: viewport.size.height)
        placed = annotations.compactMap { annotation -> Placed? in
            guard let tip = viewport.point(for: annotation.coordinate) else { return nil }
            let (bounds, body) = AnnotationLayout.bounds(of: annotation.marker)
            let frame = bounds.offsetBy(tip), bodyFrame = body.offsetBy(tip)
            // Only markers that can touch the image are drawn.
            guard frame.maxX > view.minX, frame.minX < view.maxX, frame.maxY > view.minY, frame.minY < view.maxY else { return nil }
            return Placed(annotation: annotation, tip: tip, frame: frame, bodyFrame: bodyFrame)
        }
        .sorted {
            if $0.tip.y != $1.tip.y { return $0.tip.y < $1.tip.y }
            if $0.tip.x != $1.tip.x { return $0.tip.x < $1.tip.x }
            return $0.annotation.id < $1.annotation.id
        }
    }

    /// The markers' bodies, which labels avoid.
    var bodyFrames: [ViewRect] { placed.map(\.bodyFrame) }

    /// The frame of a marker and of its body, relative to its anchor.
    static func bounds(of marker: MapAnnotation.Marker) -> (frame: ViewRect, body: ViewRect) {
        switch marker {
        case .pin:
            return (PinMarker.bounds, PinMarker.bodyBounds)
        case .image(_, let size, let anchor):
            let frame = ViewRect(x: -anchor.x, y: -anchor.y, width: size.width, height: size.height)
            return (frame, frame)
        }
    }

    /// The callout for a selected annotation, when its marker shows in the view.
    func callout(for annotation: MapAnnotation, appearance: MapwrightMetadata.Callout, cairo: OpaquePointer) -> Callout? {
        guard let marker = placed.first(where: { $0.annotation.id == annotation.id }) else { return nil }
        return Callout(
            title: annotation.calloutTitle,
            subtitle: annotation.calloutTitle == annotation.subtitle ? nil : annotation.subtitle,
            thumbnail: annotation.thumbnail,
            anchor: ViewPoint(x: marker.tip.x, y: marker.bodyFrame.minY),
            tip: marker.tip,
            viewSize: viewSize,
            appearance: appearance,
            cairo: cairo)
    }

    /// Draws every marker: all pin shadows first, then the markers north to south, the selected
    /// one last so it stands in front.
    ///
    /// The shadows are drawn opaque into one group, clipped to where they fall, that is painted at
    /// the shadow opacity, so where shadows overlap they do not darken each other.
    ///
    /// - Parameter sprites: Pixel-aligned pin bitmaps for image output; `nil` draws pins as paths
    ///   (PDF, SVG).
    func draw(selectedID: String?, pins: MapwrightMetadata.Pins, sprites: PinSprites?, cairo: OpaquePointer) {
        let pinned = placed.filter { if case .pin = $0.annotation.marker { return true }; return false }
        if let shadowArea = ViewRect(enclosing: pinned.flatMap { [$0.frame.origin, ViewPoint(x: $0.frame.maxX, y: $0.frame.maxY)] }) {
            cairo_save(cairo)
            cairo_rectangle(cairo, shadowArea.minX - 1, shadowArea.minY - 1, shadowArea.size.width + 2, shadowArea.size.height + 2)
            cairo_clip(cairo)
            cairo_push_group(cairo)
            for marker in pinned {
                if let sprites {
                    sprites.paintShadow(color: pins.shadowColor, at: marker.tip, cairo: cairo)
                } else {
                    PinMarker.drawShadow(at: marker.tip, in: cairo, color: pins.shadowColor)
                }
            }
            cairo_pop_group_to_source(cairo)
            cairo_paint_with_alpha(cairo, pins.shadowOpacity)
            cairo_restore(cairo)
        }
        let ordered = placed.filter { $0.annotation.id != selectedID } + placed.filter { $0.annotation.id == selectedID }
        for marker in ordered {
            switch marker.annotation.marker {
            case .pin(let color):
                if let sprites {
                    sprites.paintPin(color: color, at: marker.tip, cairo: cairo)
                } else {
                    PinMarker.drawPin(at: marker.tip, color: color, in: cairo)
                }
            case .image(let image, _, _):
                ImagePainter.draw(image, in: marker.frame, cornerRadius: 0, cairo: cairo)
            }
        }
    }
}

extension ViewRect {
    /// The rect moved by a point's coordinates.
    func offsetBy(_ point: ViewPoint) -> ViewRect {
        ViewRect(x: minX + point.x, y: minY + point.y, width: size.width, height: size.height)
    }
}
