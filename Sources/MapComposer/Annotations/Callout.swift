import CCairo
import Foundation
import ImageCodec
import MapCore
import MapRenderer
import MapStyle
import MapUtilities

/// A laid-out callout: the bubble over a selected annotation, its pointer at the marker.
///
/// Left accessory: the thumbnail, ``MapAnnotation/thumbnailSizePoints`` square. Right
/// accessory: a detail-disclosure button. The bubble sits above the marker and shifts sideways
/// to stay inside the view; when there is no room above, it hangs below the marker instead.
struct Callout {
    static let paddingPoints: Double = 8
    static let pointerHeightPoints: Double = 10
    static let pointerHalfWidthPoints: Double = 10
    static let disclosureRadiusPoints: Double = 11
    static let marginPoints: Double = 4
    /// The room a callout widened for its title leaves on each side of the image, and a callout
    /// shifted to stay inside it keeps when it can, in points: 12, as much as a fitted map leaves
    /// around what it shows (the shadow stays inside it).
    static let growthMarginPoints: Double = 12

    let bubble: ViewRect
    /// Where the pointer's tip is.
    let pointerTip: ViewPoint
    let pointsDown: Bool
    let title: TextLayout
    let subtitle: TextLayout?
    let thumbnail: RGBAImage?
    let appearance: MapwrightMetadata.Callout

    /// Lays out a callout for an annotation whose marker top is at `anchor` (and whose tip is at
    /// `tip`, for a callout hanging below), within a view of `viewSize` points.
    init(
        title titleText: String,
        subtitle subtitleText: String?,
        thumbnail: RGBAImage?,
        anchor: ViewPoint,
        tip: ViewPoint,
        viewSize: ViewSize,
        appearance: MapwrightMetadata.Callout,
        cairo: OpaquePointer
    ) {
        let padding = Callout.paddingPoints
        let fixedWidth =
            padding * 2 + (thumbnail != nil ? MapAnnotation.thumbnailSizePoints + padding : 0)
            + Callout.disclosureRadiusPoints * 2 + padding
        // The title is cut only when the image has no more room: the callout grows past the
        // style's max-width for it, up to the image's width less the growth margins (never
        // narrower than max-width allows). The subtitle stays within max-width, or the title's
        // width when that is wider.
        let styleWidth = min(appearance.maxWidth, viewSize.width - 2 * Callout.marginPoints)
        let maximumWidth = max(styleWidth, viewSize.width - 2 * Callout.growthMarginPoints)
        title = TextLayout(
            titleText, font: FontSpec(styleFontName: appearance.titleFont, sizePoints: appearance.titleSize),
            in: cairo, maximumWidth: max(40, maximumWidth - fixedWidth))
        let subtitleWidth = max(40, styleWidth - fixedWidth, title.size.width)
        subtitle = subtitleText.flatMap { $0.isEmpty ? nil : $0 }.map {
            TextLayout(
                $0, font: FontSpec(styleFontName: appearance.subtitleFont, sizePoints: appearance.subtitleSize),
                in: cairo, maximumWidth: subtitleWidth)
        }
        let textSize = ViewSize(
            width: max(title.size.width, subtitle?.size.width ?? 0),
            height: title.size.height + (subtitle?.size.height ?? 0) + (subtitle != nil ? 2 : 0)
        )
        let thumbnailHeight = thumbnail != nil ? MapAnnotation.thumbnailSizePoints : 0
        let contentHeight = max(thumbnailHeight, textSize.height, Callout.disclosureRadiusPoints * 2)
        let width = min(maximumWidth, fixedWidth + textSize.width)
        let height = contentHeight + 2 * padding

        let above = anchor.y - Callout.pointerHeightPoints - height >= Callout.marginPoints
        pointsDown = above
        pointerTip = above ? ViewPoint(x: anchor.x, y: anchor.y - 1) : ViewPoint(x: tip.x, y: tip.y + 2)
        let pointerHeight = Callout.pointerHeightPoints
        let top = above ? pointerTip.y - pointerHeight - height : pointerTip.y + pointerHeight
        // Shifted sideways to stay in the image: as far from its edges as the growth margin,
        // when the image has that room, else at least `marginPoints`.
        let sideMargin = max(Callout.marginPoints, min(Callout.growthMarginPoints, (viewSize.width - width) / 2))
        let left = min(max(sideMargin, anchor.x - width / 2), viewSize.width - sideMargin - width)
        bubble = ViewRect(x: left, y: top, width: width, height: height)
        self.thumbnail = thumbnail
        self.appearance = appearance
    }

    /// The area the callout covers, pointer included.
    var frame: ViewRect {
        let pointer = Callout.pointerHeightPoints
        return ViewRect(
            x: bubble.minX, y: pointsDown ? bubble.minY : bubble.minY - pointer,
            width: bubble.size.width, height: bubble.size.height + pointer)
    }

    /// Draws the bubble with its shadow, thumbnail, text and disclosure button.
    func draw(in cairo: OpaquePointer) {
        // A soft shadow: a few widening translucent outlines.
        for step in stride(from: 4.0, through: 1.0, by: -1.0) {
            addOutline(to: cairo, grownBy: step, offsetY: 1.5)
            cairo_set_source_rgba(cairo, 0, 0, 0, 0.05)
            cairo_fill(cairo)
        }
        addOutline(to: cairo, grownBy: 0, offsetY: 0)
        cairo.setSource(appearance.background)
        cairo_fill_preserve(cairo)
        cairo_set_source_rgba(cairo, 0, 0, 0, 0.18)
        cairo_set_line_width(cairo, 0.5)
        cairo_stroke(cairo)

        let padding = Callout.paddingPoints
        var textLeft = bubble.minX + padding
        if let thumbnail {
            let frame = ViewRect(
                x: bubble.minX + padding, y: bubble.midY - MapAnnotation.thumbnailSizePoints / 2,
                width: MapAnnotation.thumbnailSizePoints, height: MapAnnotation.thumbnailSizePoints)
            ImagePainter.draw(thumbnail, in: frame, cornerRadius: 4, cairo: cairo)
            textLeft = frame.maxX + padding
        }
        let textHeight = title.size.height + (subtitle.map { $0.size.height + 2 } ?? 0)
        var y = bubble.midY - textHeight / 2
        title.draw(at: ViewPoint(x: textLeft, y: y), color: appearance.textColor)
        y += title.size.height + 2
        subtitle?.draw(at: ViewPoint(x: textLeft, y: y), color: appearance.subtitleColor)
        drawDisclosureButton(
            center: ViewPoint(x: bubble.maxX - padding - Callout.disclosureRadiusPoints, y: bubble.midY), in: cairo)
    }

    /// The bubble and its pointer as one path.
    private func addOutline(to cairo: OpaquePointer, grownBy grow: Double, offsetY: Double) {
        cairo_new_path(cairo)
        let rect = ViewRect(
            x: bubble.minX - grow, y: bubble.minY - grow + offsetY,
            width: bubble.size.width + 2 * grow, height: bubble.size.height + 2 * grow)
        let radius = appearance.cornerRadius + grow
        let halfWidth = Callout.pointerHalfWidthPoints + grow
        let pointerX = min(max(pointerTip.x, rect.minX + radius + halfWidth), rect.maxX - radius - halfWidth)
        let tip = ViewPoint(x: pointerTip.x, y: pointerTip.y + offsetY + (pointsDown ? grow : -grow))
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, rect.minX + radius, rect.minY + radius, radius, .pi, 1.5 * .pi)
        if !pointsDown {
            cairo_line_to(cairo, pointerX - halfWidth, rect.minY)
            cairo_line_to(cairo, tip.x, tip.y)
            cairo_line_to(cairo, pointerX + halfWidth, rect.minY)
        }
        cairo_arc(cairo, rect.maxX - radius, rect.minY + radius, radius, 1.5 * .pi, 2 * .pi)
        cairo_arc(cairo, rect.maxX - radius, rect.maxY - radius, radius, 0, 0.5 * .pi)
        if pointsDown {
            cairo_line_to(cairo, pointerX + halfWidth, rect.maxY)
            cairo_line_to(cairo, tip.x, tip.y)
            cairo_line_to(cairo, pointerX - halfWidth, rect.maxY)
        }
        cairo_arc(cairo, rect.minX + radius, rect.maxY - radius, radius, 0.5 * .pi, .pi)
        cairo_close_path(cairo)
    }

    /// MapKit's detail-disclosure button: an "i" in a ring.
    private func drawDisclosureButton(center: ViewPoint, in cairo: OpaquePointer) {
        let radius = Callout.disclosureRadiusPoints - 1
        cairo_new_path(cairo)
        cairo.setSource(appearance.accessoryColor)
        cairo_set_line_width(cairo, 1.5)
        cairo_arc(cairo, center.x, center.y, radius, 0, 2 * .pi)
        cairo_stroke(cairo)
        cairo_arc(cairo, center.x, center.y - radius * 0.45, 1.3, 0, 2 * .pi)
        cairo_fill(cairo)
        cairo_set_line_width(cairo, 2)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
        cairo_move_to(cairo, center.x, center.y - radius * 0.1)
        cairo_line_to(cairo, center.x, center.y + radius * 0.5)
        cairo_stroke(cairo)
    }
}
