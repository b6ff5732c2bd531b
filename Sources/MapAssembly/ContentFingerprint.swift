import Foundation
import MapCore
import MapUtilities
public import PhotoSources

/// What tiles are made from besides their addresses and tile options, in one line: the style
/// file's bytes, the raster and vector sources, the photos (see ``photos(_:)``), the overlays
/// and the options that change what is drawn. `tiles export --resume` checks it; `serve` keys
/// its overlay cache by it.
public enum ContentFingerprint {
    /// A file, as `PATH:SIZE:MODIFIED`, so that what is drawn from a replaced file is drawn
    /// again (size -1 and time 0 for a file that is not there).
    static func file(_ path: String) -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(path):\(size):\(modified)"
    }

    /// The photos, as `COUNT:HASH`: every field an overlay tile or its callout may draw (id,
    /// place, title, subtitle, photographer, altitude, accuracy, date, image and thumbnail), in
    /// order. `serve --library` records it in its cache files.
    public static func photos(_ photos: [Photo]) -> String {
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

    /// The fingerprint's line.
    ///
    /// - Parameters:
    ///   - style: The style's name or path, as asked for (its file's bytes are hashed; its name
    ///     when the file cannot be read).
    ///   - map: Where the style's file and sources are.
    ///   - photosFingerprint: The photos' ``photos(_:)``, worked out once by the caller.
    ///   - overlays: The overlays: their files' bytes and their shapes' texts are hashed.
    ///   - drawn: The drawing options as text (see ``PhotoDrawing/fingerprint``).
    public static func text(
        style: String, map: MapInputs, photosFingerprint: String, overlays: OverlayInputs, drawn: String
    ) -> String {
        var styleHash = FNV1a()
        if let bytes = try? Data(contentsOf: map.styleFileURL(named: style)) {
            styleHash.combine(bytes)
        } else {
            styleHash.combine(Array(style.utf8))
        }
        var overlayHash = FNV1a()
        for path in overlays.files {
            if let bytes = try? Data(contentsOf: URL(fileURLWithPath: path)) { overlayHash.combine(bytes) }
        }
        overlayHash.combine(Array(overlays.shapeTexts.joined(separator: "|").utf8))
        return
            "style \(styleHash.hexDigits) raster \(map.rasterSource ?? "-") vector \(map.vectorSourceIdentity) photos \(photosFingerprint) "
            + "overlays \(overlayHash.hexDigits) drawn \(drawn)"
    }
}
