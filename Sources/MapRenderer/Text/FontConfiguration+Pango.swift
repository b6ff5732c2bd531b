import CCairo
import Foundation
import MapUtilities

extension FontConfiguration {
    /// A Pango layout for `cairo` whose fonts come from ``current`` only; what
    /// `pango_cairo_create_layout` makes, with this thread's own font map in place of Pango's default.
    /// The caller owns the layout (`g_object_unref`).
    static func makeLayout(for cairo: OpaquePointer) -> OpaquePointer {
        let context = pango_font_map_create_context(threadFontMap())
        pango_cairo_update_context(cairo, context)
        let layout = pango_layout_new(context)!
        g_object_unref(UnsafeMutableRawPointer(context))
        return layout
    }

    /// The configuration every font map uses, loaded once: ``current``'s file, else its document
    /// with its private cache folder. Nil when fontconfig cannot make one: Pango then uses
    /// fontconfig's default configuration.
    ///
    /// `nonisolated(unsafe)`: the configuration is never changed after it is built, and
    /// fontconfig reads a built configuration from any thread.
    nonisolated(unsafe) private static let loadedConfig: OpaquePointer? = current.load()

    /// Builds an `FcConfig` for this configuration, scanning (or reading the cache of) its fonts.
    private func load() -> OpaquePointer? {
        if let configurationFile, let config = FcConfigCreate() {
            if FcConfigParseAndLoad(config, configurationFile, FcBool(FcTrue)) != 0, FcConfigBuildFonts(config) != 0 {
                return config
            }
            FcConfigDestroy(config)
        }
        guard let config = FcConfigCreate() else { return nil }
        // Without a usable cache folder fontconfig prints "No writable cache directories" on
        // every scan, so the fonts are scanned with a fresh private folder (mkdtemp: a random
        // name, mode 0700) that is removed once they are built: the built configuration is kept
        // in memory and never rescanned.
        let privateCache = privateCacheDirectory()
        let temporaryCache = privateCache == nil
            ? AtomicFile.makeUniqueDirectory(in: FileManager.default.temporaryDirectory, prefix: "mapwright-fontconfig-") : nil
        defer { if let temporaryCache { try? FileManager.default.removeItem(at: temporaryCache) } }
        let bytes = Array(document(cacheDirectory: privateCache ?? temporaryCache).utf8) + [0]
        guard bytes.withUnsafeBufferPointer({ FcConfigParseAndLoadFromMemory(config, $0.baseAddress, FcBool(FcTrue)) }) != 0,
              FcConfigBuildFonts(config) != 0
        else {
            FcConfigDestroy(config)
            return nil
        }
        return config
    }

    /// Each thread's font map: Pango's font maps are not thread-safe (its default one is per
    /// thread too). Released when the thread ends.
    private static let fontMapKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { fontMap in g_object_unref(fontMap) }
        return key
    }()

    /// This thread's font map, made on first use: a Cairo fontconfig font map (as Pango's
    /// default) given ``loadedConfig``.
    private static func threadFontMap() -> UnsafeMutablePointer<PangoFontMap> {
        if let existing = pthread_getspecific(fontMapKey) { return existing.assumingMemoryBound(to: PangoFontMap.self) }
        let fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)!
        if let loadedConfig {
            pango_fc_font_map_set_config(OpaquePointer(fontMap), loadedConfig)
        }
        pthread_setspecific(fontMapKey, fontMap)
        return fontMap
    }
}
