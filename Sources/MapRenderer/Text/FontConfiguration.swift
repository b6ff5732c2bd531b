import Foundation
import MapUtilities

/// The fonts Pango may use: only the ones `scripts/setup.sh` installs (and the fonts folder a
/// ``MapData`` names), so the same inputs render the same glyphs on every machine, whatever else
/// is installed.
///
/// DejaVu Sans covers Latin, Greek, Cyrillic, Arabic and Hebrew; WenQuanYi Micro Hei covers
/// Chinese, Japanese and Korean; Noto fills other scripts. The fonts come from, in order:
///
/// 1. `MAPWRIGHT_FONTCONFIG_FILE`, a fontconfig file used instead of everything below;
/// 2. the map data's fonts folder (``MapData/fontsDirectory``; the assembly passes a data
///    folder's `Fonts/`), searched before
/// 3. ``systemFontDirectories``, the folders of the font packages setup.sh installs.
///
/// The configuration is Mapwright's own (an `FcConfig` per configuration, handed to Pango's font
/// maps through each canvas, see `FontConfiguration+Pango.swift`): the process's environment and
/// fontconfig's current configuration are left alone. Fontconfig's cache goes to ``cacheDirectory``, a folder only
/// the user may write.
struct FontConfiguration: Hashable, Sendable {
    /// The folders of the pinned font packages: `fonts-dejavu-core`, `fonts-wqy-microhei`,
    /// `fonts-noto-core`, and `fonts-open-sans` and `fonts-roboto-unhinted`, the families public
    /// styles name in `text-font` (found by family and weight, ``FontSpec/init(fontStack:sizePoints:)``).
    static let systemFontDirectories = [
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/truetype/wqy",
        "/usr/share/fonts/truetype/noto",
        "/usr/share/fonts/truetype/open-sans",
        "/usr/share/fonts/truetype/roboto/unhinted",
    ]

    /// The family list labels and callouts fall back through, in order.
    static let fallbackFamilies = "DejaVu Sans, WenQuanYi Micro Hei, Noto Sans"

    /// The font folders, in order: the fonts folder given, then ``systemFontDirectories``.
    var fontDirectories: [String]
    /// Fontconfig's cache folder: `fontconfig/` in the user's cache folder
    /// (`~/.cache/mapwright/fontconfig` by default).
    var cacheDirectory: URL
    /// A fontconfig file used instead of ``fontDirectories`` (`MAPWRIGHT_FONTCONFIG_FILE`, a
    /// relative path being relative to the working directory); nil for none.
    var configurationFile: String?

    /// The configuration for `fontsDirectory` (searched before the pinned fonts; nil for none),
    /// with the cache folder and fontconfig file `environment` names (read, never changed); see
    /// the type's documentation for the order.
    init(fontsDirectory: URL?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        fontDirectories = (fontsDirectory.map { [$0.path] } ?? []) + FontConfiguration.systemFontDirectories
        cacheDirectory = UserDirectories(environment: environment).cacheDirectory.appendingPathComponent(
            "fontconfig", isDirectory: true)
        configurationFile = environment["MAPWRIGHT_FONTCONFIG_FILE"].flatMap {
            $0.isEmpty ? nil : URL(fileURLWithPath: $0).path
        }
    }

    /// The pinned fonts only: what text drawn without a ``MapData`` uses.
    static let pinned = FontConfiguration(fontsDirectory: nil)

    /// The fontconfig document listing only ``fontDirectories``, with `cacheDirectory` as its
    /// cache when given (nil: fonts are scanned in memory), never rescanned while running.
    func document(cacheDirectory: URL?) -> String {
        FontconfigDocument.text(fontDirectories: fontDirectories, cacheDirectory: cacheDirectory)
    }

    /// ``cacheDirectory``, made when missing (each missing folder with mode 0700), when it is a
    /// real folder (not a link) owned by this user that no one else may write; nil otherwise,
    /// so fontconfig never reads or writes a cache another user could have planted.
    func privateCacheDirectory() -> URL? {
        var path = ""
        for component in cacheDirectory.standardizedFileURL.pathComponents.dropFirst() {
            path += "/" + component
            if mkdir(path, 0o700) != 0, errno != EEXIST { return nil }
        }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(),
            status.st_mode & 0o022 == 0
        else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}
