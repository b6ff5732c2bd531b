import CCairo
import Foundation
import MapCore
import MapUtilities
import Synchronization

extension FontConfiguration {
    /// A Pango layout for `cairo` whose fonts come from the configuration the canvas was made
    /// with (``attach(to:)``; ``pinned`` for a context without one): what
    /// `pango_cairo_create_layout` makes, with this thread's own font map in place of Pango's
    /// default. The caller owns the layout (`g_object_unref`).
    static func makeLayout(for cairo: OpaquePointer) -> OpaquePointer {
        let context = pango_font_map_create_context(threadFontMap(for: attached(to: cairo) ?? .pinned))
        pango_cairo_update_context(cairo, context)
        let layout = pango_layout_new(context)!
        g_object_unref(UnsafeMutableRawPointer(context))
        return layout
    }

    /// The configuration ``attach(to:)`` gave `cairo`; nil for none.
    static func attached(to cairo: OpaquePointer) -> FontConfiguration? {
        cairo_get_user_data(cairo, userDataKey).map {
            Unmanaged<Box>.fromOpaque($0).takeUnretainedValue().configuration
        }
    }

    /// Makes text drawn on `cairo` use this configuration (released with the context).
    func attach(to cairo: OpaquePointer) {
        let box = Unmanaged.passRetained(Box(self)).toOpaque()
        cairo_set_user_data(cairo, FontConfiguration.userDataKey, box) { Unmanaged<Box>.fromOpaque($0!).release() }
    }

    /// A configuration kept on a Cairo context.
    private final class Box {
        let configuration: FontConfiguration
        init(_ configuration: FontConfiguration) { self.configuration = configuration }
    }

    /// The key of ``attach(to:)``'s user data: Cairo compares its address, so it is allocated once.
    nonisolated(unsafe) private static let userDataKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(
        capacity: 1)

    /// Each configuration's `FcConfig`, built once on first use and kept for the process: a
    /// handful exist (one per fonts folder), each never changed after it is built, and fontconfig
    /// reads a built configuration from any thread. A nil entry: fontconfig could not build one,
    /// and Pango uses fontconfig's default configuration.
    private static let loadedConfigs = Mutex<[FontConfiguration: UnsafeTransfer<OpaquePointer?>]>([:])

    /// Builds this configuration's `FcConfig` and fontconfig's default one (which every new
    /// Pango font map waits for, on a thread of Pango's) on another thread, and returns at once:
    /// a render's first text then finds both built, or waits for them less.
    func prepareInBackground() {
        let configuration = self
        DispatchQueue.global(qos: .userInitiated).async {
            _ = configuration.loadedConfig()
            _ = FontConfiguration.defaultConfigurationLoaded
        }
    }

    /// fontconfig's default configuration, loaded once (`FcInit`): two threads calling `FcInit`
    /// at once each load it whole and one is thrown away (Pango's own thread for it started while
    /// ``prepareInBackground()``'s was still loading, and took ~4 ms of the other core while the
    /// tiles were being decoded); a second caller here waits for the first.
    private static let defaultConfigurationLoaded: Bool = FcInit() != 0

    /// This configuration's `FcConfig`, built on first use.
    private func loadedConfig() -> OpaquePointer? {
        FontConfiguration.loadedConfigs.withLock { configs in
            if let loaded = configs[self] { return loaded }
            let loaded = UnsafeTransfer(load())
            configs[self] = loaded
            return loaded
        }.wrappedValue
    }

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
        let temporaryCache =
            privateCache == nil
            ? AtomicFile.makeUniqueDirectory(
                in: FileManager.default.temporaryDirectory, prefix: "mapwright-fontconfig-") : nil
        defer { if let temporaryCache { try? FileManager.default.removeItem(at: temporaryCache) } }
        let bytes = Array(document(cacheDirectory: privateCache ?? temporaryCache).utf8) + [0]
        guard
            bytes.withUnsafeBufferPointer({ FcConfigParseAndLoadFromMemory(config, $0.baseAddress, FcBool(FcTrue)) })
                != 0,
            FcConfigBuildFonts(config) != 0
        else {
            FcConfigDestroy(config)
            return nil
        }
        return config
    }

    /// Each thread's font maps, one per configuration: Pango's font maps are not thread-safe
    /// (its default one is per thread too). Released when the thread ends.
    private final class ThreadFontMaps {
        var maps: [FontConfiguration: UnsafeMutablePointer<PangoFontMap>] = [:]
        /// Layouts shaped on this thread and kept for the next text like theirs (see
        /// ``sharedLayout(for:key:configure:)``), in two generations: the newer, and the one
        /// before it, whose layouts move to the newer when asked for again.
        var layouts: [LayoutKey: KeptLayout] = [:]
        var olderLayouts: [LayoutKey: KeptLayout] = [:]

        deinit {
            layouts = [:]
            olderLayouts = [:]
            for fontMap in maps.values { g_object_unref(fontMap) }
        }
    }

    /// A layout kept on its thread, with what it measures, found once (Pango asks HarfBuzz for
    /// every glyph's extents each time a layout is measured).
    final class KeptLayout {
        /// The layout (a reference this object owns).
        let layout: OpaquePointer
        /// The layout's logical rectangle in points, once measured.
        var logicalRect: ViewRect?
        /// What the layout's context was last brought up to date with; nil before.
        private var context: ContextState?

        /// What `pango_cairo_update_layout` reads of a Cairo context: its target's kind (and so
        /// its font options) and its transformation less translation.
        private struct ContextState: Equatable {
            var surfaceType: UInt32
            var xx, yx, xy, yy: Double

            init(_ cairo: OpaquePointer) {
                surfaceType = cairo_surface_get_type(cairo_get_target(cairo)).rawValue
                var matrix = cairo_matrix_t()
                cairo_get_matrix(cairo, &matrix)
                (xx, yx, xy, yy) = (matrix.xx, matrix.yx, matrix.xy, matrix.yy)
            }
        }

        init(taking layout: OpaquePointer, madeFor cairo: OpaquePointer) {
            self.layout = layout
            context = ContextState(cairo)
        }

        deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

        /// Brings the layout's context up to date with `cairo` (`pango_cairo_update_layout`)
        /// when what it reads of it differs from last time. Pango marks the layout changed at
        /// every update, even to the same state, and shapes its text again on the next use: a
        /// label measured on one context and drawn on another (a band's) was shaped twice.
        func update(to cairo: OpaquePointer) {
            let state = ContextState(cairo)
            guard state != context else { return }
            pango_cairo_update_layout(cairo, layout)
            context = state
        }
    }

    /// What a kept layout was made from: text laid out alike has the same key.
    struct LayoutKey: Hashable {
        var text: String
        var font: FontSpec
        var maximumWidth: Double?
        var wraps: Bool
        var configuration: FontConfiguration
    }

    /// How many layouts a generation of a thread's kept layouts holds: 2,048, so a thread keeps at
    /// most 4,096 (a few MB): more than the labels of several views of a dense city.
    static let keptLayoutsPerGeneration = 2_048

    /// A layout of `key`'s text for `cairo`, configured by `configure` (the font, width and text
    /// set on a new layout): one this thread shaped before for the same key, brought up to date
    /// with `cairo` (as a new layout would be made for it), or a new one, kept. Holders must not
    /// change the layout's text, attributes or font, which other holders on this thread share;
    /// they may update it to a context (`pango_cairo_update_layout`), as drawing does. Only image
    /// surfaces keep layouts (vector surfaces merge font options of their own): for others the
    /// layout is new and held by the caller alone.
    ///
    /// Shaping (HarfBuzz through Pango) was a fifth of a warm render's CPU for a public style at
    /// street zoom: labels come back render after render, tile after tile, as MapLibre Native keeps
    /// a tile's shaped text in its buckets.
    static func sharedLayout(for cairo: OpaquePointer, key: LayoutKey, configure: (OpaquePointer) -> Void)
        -> KeptLayout
    {
        guard cairo_surface_get_type(cairo_get_target(cairo)) == CAIRO_SURFACE_TYPE_IMAGE else {
            let layout = makeLayout(for: cairo)
            configure(layout)
            return KeptLayout(taking: layout, madeFor: cairo)
        }
        let maps = threadMaps()
        if let kept = maps.layouts[key] ?? maps.olderLayouts.removeValue(forKey: key) {
            if maps.layouts[key] == nil { keep(kept, as: key, in: maps) }
            kept.update(to: cairo)
            return kept
        }
        let layout = makeLayout(for: cairo)
        configure(layout)
        let kept = KeptLayout(taking: layout, madeFor: cairo)
        keep(kept, as: key, in: maps)
        return kept
    }

    /// Keeps `layout` in the newer generation, which, when full, becomes the older one (the
    /// older one's layouts let go).
    private static func keep(_ layout: KeptLayout, as key: LayoutKey, in maps: ThreadFontMaps) {
        if maps.layouts.count >= keptLayoutsPerGeneration {
            maps.olderLayouts = maps.layouts
            maps.layouts = [:]
        }
        maps.layouts[key] = layout
    }

    /// This thread's font maps and kept layouts, made on first use.
    private static func threadMaps() -> ThreadFontMaps {
        if let existing = pthread_getspecific(fontMapKey) {
            return Unmanaged<ThreadFontMaps>.fromOpaque(existing).takeUnretainedValue()
        }
        let maps = ThreadFontMaps()
        pthread_setspecific(fontMapKey, Unmanaged.passRetained(maps).toOpaque())
        return maps
    }

    private static let fontMapKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { maps in Unmanaged<ThreadFontMaps>.fromOpaque(maps!).release() }
        return key
    }()

    /// This thread's font map for `configuration`, made on first use: a Cairo fontconfig font
    /// map (as Pango's default) given the configuration's `FcConfig`.
    private static func threadFontMap(for configuration: FontConfiguration) -> UnsafeMutablePointer<PangoFontMap> {
        let maps = threadMaps()
        if let fontMap = maps.maps[configuration] { return fontMap }
        // Pango's first font map starts a thread of its own calling `FcInit`, and every font map
        // waits for it: found loaded (or loading, by ``prepareInBackground()``), it is not loaded
        // a second time beside the first.
        _ = defaultConfigurationLoaded
        let fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)!
        if let config = configuration.loadedConfig() {
            pango_fc_font_map_set_config(OpaquePointer(fontMap), config)
        }
        maps.maps[configuration] = fontMap
        return fontMap
    }
}
