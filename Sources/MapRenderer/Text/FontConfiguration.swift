import Foundation
import MapUtilities

/// Pins the fonts Pango may use to the ones `scripts/setup.sh` installs, so the same inputs
/// render the same glyphs on every machine, whatever else is installed.
///
/// DejaVu Sans covers Latin, Greek, Cyrillic, Arabic and Hebrew; WenQuanYi Micro Hei covers
/// Chinese, Japanese and Korean; Noto fills other scripts. Fontconfig reads `FONTCONFIG_FILE`
/// once, when Pango first asks for a font, so ``pin()`` must run before any text is laid out.
enum FontConfiguration {
    /// The font folders Mapwright renders with.
    static let fontDirectories = [
        "/usr/share/fonts/truetype/dejavu",
        "/usr/share/fonts/truetype/wqy",
        "/usr/share/fonts/truetype/noto",
    ]

    /// The family list labels and callouts fall back through, in order.
    static let fallbackFamilies = "DejaVu Sans, WenQuanYi Micro Hei, Noto Sans"

    /// Writes a fontconfig file listing only ``fontDirectories`` and points fontconfig at it;
    /// the first call does the work, later calls return at once. An explicit
    /// `MAPWRIGHT_FONTCONFIG_FILE` is honoured instead.
    static func pin() {
        _ = pinned
    }

    private static let pinned: Bool = {
        if let explicit = ProcessInfo.processInfo.environment["MAPWRIGHT_FONTCONFIG_FILE"] {
            setenv("FONTCONFIG_FILE", explicit, 1)
            return true
        }
        let cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("mapwright-fontconfig-\(getuid())")
        try? FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        let directories = fontDirectories.map { "  <dir>\($0)</dir>" }.joined(separator: "\n")
        let configuration = """
            <?xml version="1.0"?>
            <!DOCTYPE fontconfig SYSTEM "fonts.dtd">
            <fontconfig>
            \(directories)
              <cachedir>\(cacheDirectory.path)</cachedir>
              <config><rescan><int>0</int></rescan></config>
            </fontconfig>
            """
        let file = cacheDirectory.appendingPathComponent("fonts.conf")
        if (try? String(contentsOf: file, encoding: .utf8)) != configuration {
            try? AtomicFile.write(Data(configuration.utf8), to: file)
        }
        setenv("FONTCONFIG_FILE", file.path, 1)
        return true
    }()
}
