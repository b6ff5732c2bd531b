import Foundation
import ImageCodec
import MapCore
import MapData
import MapJSON
import MapStyle

/// `icon-text-fit`: an icon stretched round its text, as GL fits it (`fitIconToText`) and cuts it
/// into stretched and fixed pieces (`getIconQuads`): the image's `stretchX`/`stretchY` zones take
/// the stretch, the rest keeps its pixels, and its `content` box is what covers the text.
extension SymbolIcon {
    /// One cut across a fitted icon: where it lies from the anchor, in view points, and the texel
    /// there (texel -1 and the image's size plus 1 are GL's transparent border).
    struct StretchCut: Hashable, Sendable {
        let points: Double
        let texel: Double
    }

    /// The icon as `symbol`'s `icon-text-fit` fits it to `textBox` (the text block round the
    /// anchor, view points); itself without a fit or text.
    func fitted(toTextOf symbol: SymbolLayer, textBox: ViewRect?, properties: [String: FeatureValue], zoom: Double)
        -> SymbolIcon
    {
        let fit = symbol.iconTextFit.value(atZoom: zoom)
        guard fit != .none, let textBox else { return self }
        return fitted(
            toText: textBox, fit: fit, padding: symbol.iconTextFitPadding.value(atZoom: zoom),
            offset: symbol.iconOffset.value(atZoom: zoom, properties: properties),
            size: symbol.iconSize.value(atZoom: zoom, properties: properties))
    }

    /// The icon fitted to `text`, the text block's box round the anchor in view points (unturned).
    ///
    /// - Parameters:
    ///   - fit: Which sides follow the text; the others keep the image's size, centred on the text.
    ///   - padding: `icon-text-fit-padding`: top, right, bottom, left, in points.
    ///   - offset: `icon-offset`, in points.
    ///   - size: `icon-size`, which scales the stretched parts (GL's em offsets), not the fixed ones.
    func fitted(toText text: ViewRect, fit: IconTextFit, padding: [Double], offset: Translation, size: Double)
        -> SymbolIcon
    {
        guard fit != .none, padding.count == 4 else { return self }
        let entry = image.entry
        let ratio = image.pixelRatio
        let displayWidth = image.widthPoints
        let displayHeight = image.heightPoints
        /// One side's extent: the text's plus padding when fitted; else the image's own size
        /// centred on the text, the padding still added (as GL's expected images show: the
        /// suite's width-padding test).
        func span(
            fitted: Bool, textLow: Double, textHigh: Double, display: Double, padBefore: Double, padAfter: Double,
            offset: Double
        ) -> (Double, Double) {
            let low = fitted ? textLow : (textLow + textHigh - display) / 2
            let high = fitted ? textHigh : low + display
            return (offset + low - padBefore, offset + high + padAfter)
        }
        let (left, right) = span(
            fitted: fit == .width || fit == .both, textLow: text.minX, textHigh: text.maxX, display: displayWidth,
            padBefore: padding[3], padAfter: padding[1], offset: offset.xPoints)
        let (top, bottom) = span(
            fitted: fit == .height || fit == .both, textLow: text.minY, textHigh: text.maxY, display: displayHeight,
            padBefore: padding[0], padAfter: padding[2], offset: offset.yPoints)
        // GL's collision box spans the fitted box, widened by the image outside its content.
        var box = ViewRect(x: left, y: top, width: right - left, height: bottom - top)
        if let content = entry.content, content.count == 4 {
            let padLeft = content[0] / ratio
            let padTop = content[1] / ratio
            let padRight = displayWidth - content[2] / ratio
            let padBottom = displayHeight - content[3] / ratio
            box = ViewRect(
                x: left - padLeft, y: top - padTop, width: right - left + padLeft + padRight,
                height: bottom - top + padTop + padBottom)
        }
        box = ViewRect(
            x: box.minX * size, y: box.minY * size, width: box.size.width * size, height: box.size.height * size)
        let stretches = !entry.stretchX.isEmpty || !entry.stretchY.isEmpty
        let content = entry.content.flatMap { $0.count == 4 ? $0 : nil }
        let columns = Self.cuts(
            zones: entry.stretchX, stretches: stretches, content: content.map { ($0[0], $0[2]) },
            imageSize: Double(image.pixels.width),
            start: left, length: right - left, pixelRatio: ratio, size: size)
        let rows = Self.cuts(
            zones: entry.stretchY, stretches: stretches, content: content.map { ($0[1], $0[3]) },
            imageSize: Double(image.pixels.height),
            start: top, length: bottom - top, pixelRatio: ratio, size: size)
        guard let first = columns.first, let last = columns.last, let firstRow = rows.first, let lastRow = rows.last
        else { return self }
        var fitted = SymbolIcon(
            name: name, image: image,
            quad: ViewRect(
                x: first.points, y: firstRow.points, width: last.points - first.points,
                height: lastRow.points - firstRow.points),
            rotationRadians: rotationRadians, box: box, paddingPoints: paddingPoints, opacity: opacity, isLinear: true,
            sdf: sdf,
            translation: translation)
        fitted.columnCuts = columns
        fitted.rowCuts = rows
        return fitted
    }

    /// GL's cuts along one side: the stretch zones' ends (or, for an image without zones, its
    /// whole width as one zone and only its two bordered ends), each placed by its stretched part
    /// over the content's stretch (in em offsets, times `icon-size`) plus its fixed part (in the
    /// image's pixels over its pixel ratio, unscaled).
    static func cuts(
        zones: [ClosedRange<Double>], stretches: Bool, content: (Double, Double)?, imageSize: Double, start: Double,
        length: Double,
        pixelRatio: Double, size: Double
    ) -> [StretchCut] {
        let zones = zones.isEmpty ? [0...imageSize] : zones
        let stretchSize = zones.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
        let fixedSize = imageSize - stretchSize
        func sumWithin(_ low: Double, _ high: Double) -> Double {
            zones.reduce(0) { sum, zone in
                sum + max(low, min(high, zone.upperBound)) - max(low, min(high, zone.lowerBound))
            }
        }
        var stretchOffset = 0.0
        var stretchContent = stretchSize
        var fixedOffset = 0.0
        var fixedContent = fixedSize
        if let (low, high) = content, stretches {
            stretchOffset = sumWithin(0, low)
            stretchContent = sumWithin(low, high)
            fixedOffset = low - stretchOffset
            fixedContent = high - low - stretchContent
        }
        var raw: [(fixed: Double, stretch: Double)]
        if stretches {
            raw = [(-1, 0)]
            for zone in zones {
                let last = raw[raw.count - 1]
                raw.append((zone.lowerBound - last.stretch, last.stretch))
                raw.append((zone.lowerBound - last.stretch, last.stretch + zone.upperBound - zone.lowerBound))
            }
            raw.append((fixedSize + 1, stretchSize))
        } else {
            raw = [(0, -1), (0, imageSize + 1)]
        }
        guard stretchContent > 0, stretchSize > 0 else { return [] }
        return raw.map { cut in
            let em = (cut.stretch - stretchOffset) / stretchContent * length + start
            let pixels = (cut.fixed - fixedOffset) - fixedContent * cut.stretch / stretchSize
            return StretchCut(points: em * size + pixels / pixelRatio, texel: cut.stretch + cut.fixed)
        }
    }

    /// The texel at `position` (view points from the anchor) along `cuts`; nil outside them.
    static func texel(at position: Double, along cuts: [StretchCut]) -> Double? {
        guard let first = cuts.first, let last = cuts.last, position >= first.points, position < last.points else {
            return nil
        }
        var index = 0
        while index + 2 < cuts.count, position >= cuts[index + 1].points { index += 1 }
        let a = cuts[index]
        let b = cuts[index + 1]
        guard b.points > a.points else { return nil }
        return a.texel + (position - a.points) / (b.points - a.points) * (b.texel - a.texel)
    }
}
