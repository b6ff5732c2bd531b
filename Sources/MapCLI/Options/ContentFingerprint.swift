import Foundation
import MapUtilities
import PhotoSources

/// What tiles are made from besides their addresses and tile options, in one line: the style
/// file's bytes, the raster source, the photos (ids and places), the overlays and the options
/// that change what is drawn. `tiles export --resume` checks it; `serve` keys its overlay cache by it.
enum ContentFingerprint {
    static func text(styleOptions: StyleOptions, style: String, photos: [Photo], overlayOptions: OverlayOptions, drawn: String) -> String {
        var styleHash = FNV1a()
        if let bytes = try? Data(contentsOf: styleOptions.styleFileURL(named: style)) { styleHash.combine(bytes) } else { styleHash.combine(Array(style.utf8)) }
        var photoHash = FNV1a()
        for photo in photos {
            photoHash.combine(Array(photo.id.utf8))
            withUnsafeBytes(of: photo.coordinate.latitude.bitPattern) { photoHash.combine($0) }
            withUnsafeBytes(of: photo.coordinate.longitude.bitPattern) { photoHash.combine($0) }
        }
        var overlays = FNV1a()
        for path in overlayOptions.tracks + overlayOptions.overlays {
            if let bytes = try? Data(contentsOf: URL(fileURLWithPath: path)) { overlays.combine(bytes) }
        }
        overlays.combine(Array((overlayOptions.circles + overlayOptions.greatCircles + [overlayOptions.overlayLevel.rawValue]).joined(separator: "|").utf8))
        return "style \(styleHash.hexDigits) raster \(styleOptions.rasterSource ?? "-") vector \(styleOptions.vectorSourceIdentity) photos \(photos.count):\(photoHash.hexDigits) "
            + "overlays \(overlays.hexDigits) drawn \(drawn)"
    }
}
