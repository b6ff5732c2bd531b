public import Foundation
public import MapData

/// What the renderer keeps with one ``MapData`` for as long as the data lives, kept on it as its
/// attached state (`MapData.attachedState(make:)`): the data knows nothing of fonts or lines.
final class RendererState: Sendable {
    /// The fonts text is drawn with: the data's ``MapData/fontsDirectory``, then the pinned fonts.
    let fonts: FontConfiguration
    /// The line rasteriser's coverage buffers, kept from one render to the next.
    let lineScratches = LineRasteriser.ScratchPool()

    init(fontsDirectory: URL?) {
        fonts = FontConfiguration(fontsDirectory: fontsDirectory)
    }
}

extension MapData {
    /// The renderer's state for this data, made on first use.
    var rendererState: RendererState {
        attachedState { RendererState(fontsDirectory: fontsDirectory) }
    }

    /// The fonts text is drawn with: ``fontsDirectory``, then the pinned fonts.
    var fonts: FontConfiguration { rendererState.fonts }

    /// The line rasteriser's coverage buffers, kept from one render to the next.
    var lineScratches: LineRasteriser.ScratchPool { rendererState.lineScratches }

    /// Starts loading the fonts text is drawn with (fontconfig's configurations and font lists,
    /// about 10 ms) on another thread, and returns at once: call it as soon as the data is made,
    /// so that the first text a render lays out finds them loaded. Optional: the first text
    /// loads them anyway.
    public func prepareFonts() {
        fonts.prepareInBackground()
    }

    /// Where the fonts text is drawn with come from, for map data whose fonts folder is
    /// `fontsDirectory` (nil: the pinned fonts only): the font folders, in order, and the
    /// fontconfig file used instead of them (`MAPWRIGHT_FONTCONFIG_FILE`; nil when unset). What
    /// `serve` generates GL clients' glyphs from, so they are the faces the renderer draws.
    public static func fontSources(fontsDirectory: URL?) -> (directories: [String], configurationFile: String?) {
        let configuration = FontConfiguration(fontsDirectory: fontsDirectory)
        return (configuration.fontDirectories, configuration.configurationFile)
    }

    /// Starts loading the fonts of map data whose fonts folder is `fontsDirectory` (nil: the
    /// pinned fonts only) before the data is made, as ``prepareFonts()`` does once it is: for a
    /// program that knows it will draw text before it knows what (a command line being parsed).
    public static func prepareFonts(fontsDirectory: URL?) {
        FontConfiguration(fontsDirectory: fontsDirectory).prepareInBackground()
    }
}
