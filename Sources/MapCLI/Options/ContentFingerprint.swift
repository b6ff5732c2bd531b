import Foundation
import MapCore
import MapUtilities
import PhotoSources

/// What tiles are made from besides their addresses and tile options, in one line: the style
/// file's bytes, the raster source, the photos (see ``photos(_:)``), the overlays and the options
/// that change what is drawn. `tiles export --resume` checks it; `serve` keys its overlay cache by it.
enum ContentFingerprint {
    /// The photos, as `COUNT:HASH`: every field an overlay tile or its callout may draw (id,
    /// place, title, subtitle, photographer, altitude, accuracy, date, image and thumbnail), in
    /// order. `serve --library` records it in its cache files.
    static func photos(_ photos: [Photo]) -> String {
        var hash = FNV1a()
        func text(_ value: String?) {
            // A length before each text, so fields cannot run into one another; -1 for none.
            withUnsafeBytes(of: Int64(value?.utf8.count ?? -1)) { hash.combine($0) }
            if let value { hash.combine(value.utf8) }
        }
        func number(_ value: Double?) {
            withUnsafeBytes(of: value?.bitPattern ?? UInt64.max) { hash.combine($0) }
        }
        for photo in photos {
            text(photo.id)
            number(photo.coordinate.latitude)
            number(photo.coordinate.longitude)
            text(photo.title)
            text(photo.subtitle)
            text(photo.photographer)
            number(photo.altitudeMeters)
            number(photo.horizontalAccuracyMeters)
            number(photo.dateTaken?.timeIntervalSince1970)
            text(photo.storedImage)
            text(photo.storedThumbnail)
        }
        return "\(photos.count):\(hash.hexDigits)"
    }

    ///
    /// - Parameter photosFingerprint: The photos' ``photos(_:)``, worked out once by the caller
    ///   (`serve` records it in its cache files too).
    static func text(styleOptions: StyleOptions, style: String, photosFingerprint: String, overlayOptions: OverlayOptions, drawn: String) -> String {
        var styleHash = FNV1a()
        if let bytes = try? Data(contentsOf: styleOptions.styleFileURL(named: style)) { styleHash.combine(bytes) } else { styleHash.combine(Array(style.utf8)) }
        var overlays = FNV1a()
        for path in overlayOptions.tracks + overlayOptions.overlays {
            if let bytes = try? Data(contentsOf: URL(fileURLWithPath: path)) { overlays.combine(bytes) }
        }
        overlays.combine(Array((overlayOptions.circles + overlayOptions.greatCircles + [overlayOptions.overlayLevel.rawValue]).joined(separator: "|").utf8))
        return "style \(styleHash.hexDigits) raster \(styleOptions.rasterSource ?? "-") vector \(styleOptions.vectorSourceIdentity) photos \(photosFingerprint) "
            + "overlays \(overlays.hexDigits) drawn \(drawn)"
    }
}
