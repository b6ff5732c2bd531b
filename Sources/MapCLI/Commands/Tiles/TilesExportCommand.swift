import ArgumentParser
import Dispatch
import Foundation
import MapAssembly
import MapCore
import MapData
import MapRenderer
import MapUtilities
import Synchronization
import TileExport
import TilesetTools
import Tilesets

/// `mapwright tiles export`: renders a region's tiles over a zoom range into an MBTiles or
/// PMTiles file, on every core, resumable and shardable.
struct TilesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Render a region's tiles over a range of zooms into an MBTiles or PMTiles file.",
        discussion: """
            Tiles are rendered a metatile at a time (8 x 8 tiles of 256 pixels by default) on every core, encoded as \
            PNG and committed in batches to OUTPUT.partial, which becomes OUTPUT when every tile is done. \
            An interrupted export (Ctrl-C, kill, a full disk) keeps what was committed: run the same \
            command with --resume to finish it. Style zooms follow MapLibre's convention (512-point \
            tiles): a 256-point tile at zoom z draws the style at z - 1.
            """
    )

    @OptionGroup var styleOptions: StyleOptions

    @OptionGroup var photoSources: PhotoSourceOptions

    @OptionGroup var overlayOptions: OverlayOptions

    @OptionGroup var drawing: TileDrawingOptions

    @OptionGroup var area: AreaOptions

    @Option(
        name: .customLong("zoom"), parsing: .unconditional,
        help: "The zoom levels, as MINZOOM-MAXZOOM (0-8) or one zoom.")
    var zoomText: String

    /// `--zoom`, parsed.
    var zoom: ClosedRange<Int> { (try? ArgumentValues.zoomRange(zoomText)) ?? 0...0 }

    @Option(
        name: [.short, .long], parsing: .unconditional, help: "The tileset to write, ending in .mbtiles or .pmtiles.")
    var output: String

    @Option(parsing: .unconditional, help: "The tile size in points: 256 or 512. The default is 256.")
    var tileSize: Int = 256

    @Option(
        parsing: .unconditional,
        help: "Pixels per point: 1, 2 or 3 (a 256-point tile @2x is 512 x 512 pixels). The default is 1.")
    var scale: Int = 1

    @Option(
        parsing: .unconditional,
        help:
            "Tiles per metatile side, 1 to 16. The default is 8 for 256-pixel tiles, fewer for larger tiles so that a metatile is at most 2048 pixels wide (4 for --tile-size 512 or --scale 2)."
    )
    var metatile: Int?

    /// --metatile, or the default for the tiles' size in pixels.
    var metatileSize: Int { metatile ?? MetatileID.defaultSize(tilePixels: tileSize * scale) }

    @Option(
        parsing: .unconditional,
        help:
            "What the tiles show: all (the style with photos and overlays), basemap (the style only) or overlays (photos and overlays on a transparent background). The default is all."
    )
    var layers: TileLayersArgument = .all

    @Option(parsing: .unconditional, help: "Rendering threads. The default is the number of cores.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(help: "Finish the export an interruption left in OUTPUT.partial, rendering only the tiles it lacks.")
    var resume = false

    @Option(
        parsing: .unconditional,
        help:
            "Export shard K of N (K from 0), in whole metatiles, e.g. 0/4; each shard writes its own file for tiles merge."
    )
    var shard: String?

    @Flag(
        help:
            "Print the tiles and metatiles per zoom and estimates of size and time, from one sample metatile; write nothing."
    )
    var dryRun = false

    @Option(
        parsing: .unconditional,
        help:
            "The most tiles an export may have, a guard against asking for the world at deep zooms by mistake. The default is 1000000000 (the planet to zoom 14 is 358 million)."
    )
    var maxTiles: Int = 1_000_000_000

    @Option(
        parsing: .unconditional,
        help: "The tileset's name in its metadata. The default is the output's file name without its extension.")
    var name: String?

    @Option(
        parsing: .unconditional,
        help: "The PNG compression level, from 0 (stored) to 9 (smallest). The default is 1, the fastest.")
    var compression: Int = 1

    @Flag(help: "Write 8-bit palette PNGs: smaller, with at most 256 colours per tile.")
    var palette = false

    func validate() throws {
        guard TileRenderOptions.tileSizesPoints.contains(tileSize) else {
            throw ValidationError("--tile-size: \(tileSize) is not 256 or 512")
        }
        guard TileRenderOptions.scaleRange.contains(scale) else {
            throw ValidationError("--scale: \(scale) is not 1, 2 or 3")
        }
        guard MetatileID.sizeRange.contains(metatileSize) else {
            throw ValidationError(
                "--metatile: \(metatileSize) is not a size from \(MetatileID.sizeRange.lowerBound) to \(MetatileID.sizeRange.upperBound) tiles a side"
            )
        }
        guard jobs >= 1 else { throw ValidationError("--jobs: \(jobs) is not a number of threads (1 or more)") }
        guard (0...9).contains(compression) else {
            throw ValidationError("--compression: \(compression) is not a level from 0 to 9")
        }
        _ = try ArgumentValues.zoomRange(zoomText)
        if let shard { _ = try ArgumentValues.shard(shard) }
        guard try area.area() != nil else {
            throw ValidationError(
                "choose the area to export: --bbox, --region or --place (--bbox -180,-85.0511,180,85.0511 is the world)"
            )
        }
        if dryRun {
            do throws(TilesetsError) { _ = try TilesetFormat(path: output) } catch {
                throw ValidationError("--output: '\(output)' must end in .mbtiles or .pmtiles")
            }
        } else {
            try checkTilesetOutput(output, option: "--output")
        }
    }

    /// The options as the assembly takes them.
    func inputs() throws -> ExportInputs {
        let chosen: ExportInputs.Area
        switch try area.area() {
        case .region(let value)?: chosen = .region(value)
        case .place(let name)?: chosen = .place(name)
        case nil: preconditionFailure("validate() requires an area")
        }
        let shardValue = try shard.map { try ArgumentValues.shard($0) }.map {
            TileExport.Shard(index: $0.index, count: $0.count)
        }
        return ExportInputs(
            style: styleOptions.style, map: styleOptions.inputs, photos: photoSources.inputs,
            overlays: try overlayOptions.inputs(),
            drawing: drawing.drawing, area: chosen, zoomLevels: zoom,
            tileOptions: TileRenderOptions(
                tileSizePoints: tileSize, scale: scale, metatileSize: metatileSize, layers: layers.layers),
            options: TileExport.Options(
                jobs: jobs, resume: resume, shard: shardValue,
                encoding: TilePNGEncoding(compressionLevel: compression, palette: palette)),
            maximumTileCount: maxTiles, name: name, version: Mapwright.version)
    }

    func run() throws {
        let made = try inputs().makeExport(output: URL(fileURLWithPath: output))
        for warning in made.warnings { Mapwright.warn(warning) }
        if dryRun {
            try printDryRun(made.export)
            return
        }
        try runExport(made.export)
    }

    // MARK: - Running

    private func runExport(_ export: TileExport) throws {
        let interrupted = Atomic<Bool>(false)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { interrupted.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        let reporter = ProgressReporter(total: export.tileCount, output: output)
        let summary: TileExport.Summary
        do {
            summary = try export.run(isCancelled: { interrupted.load(ordering: .relaxed) }) { reporter.report($0) }
        } catch {
            reporter.finishLine()
            throw error
        }
        reporter.finishLine()
        for warning in export.renderer.data.skippedDataWarnings() { Mapwright.warn(warning) }
        var line = "wrote \(summary.tileCount) tiles to \(output) in \(String(format: "%.1f", summary.seconds)) s"
        line += " (\(summary.renderedTileCount) rendered, \(String(format: "%.0f", summary.tilesPerSecond)) tiles/s"
        if summary.resumedTileCount > 0 { line += ", \(summary.resumedTileCount) from the interrupted run" }
        FileHandle.standardError.write(Data((line + ")\n").utf8))
    }

    /// The dry run's table: tiles and metatiles per zoom (``TileExport/plan()``), then estimates
    /// from one sample metatile at the deepest zoom (``TileExport/sampleEstimate()``).
    private func printDryRun(_ export: TileExport) throws {
        let plan = try export.plan()
        var lines = ["zoom  tiles        metatiles"]
        for zoom in plan.zooms {
            let tiles = zoom.tileCount.groupedText
            lines.append(
                "\(String(repeating: " ", count: max(0, 4 - "\(zoom.zoom)".count)))\(zoom.zoom)  \(tiles)\(String(repeating: " ", count: max(1, 13 - tiles.count)))\(zoom.metatileCount.groupedText)"
            )
        }
        let total = plan.tileCount
        lines.append(
            "total \(total.groupedText) tiles in \(plan.metatileCount.groupedText) metatiles"
                + (export.options.shard.map { " (shard \($0) of the \(export.cover.tileCount.groupedText) tiles)" }
                    ?? ""))
        if let sample = try export.sampleEstimate() {
            lines.append(
                "estimate: about \(Data.byteCountText(Int(sample.bytes(forTiles: total)))) before deduplication and "
                    + "\(Self.duration(sample.seconds(forTiles: total, jobs: jobs))) on \(jobs) threads "
                    + "(from \(sample.sampleTileCount) sample tiles at zoom \(sample.zoom): \(Data.byteCountText(Int(sample.bytesPerTile))) and "
                    + "\(String(format: "%.1f", sample.secondsPerTile * 1000)) ms a tile)")
        }
        print(lines.joined(separator: "\n"))
    }

    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3_600 { return String(format: "%d min %02d s", whole / 60, whole % 60) }
        return String(format: "%d h %02d min", whole / 3_600, (whole % 3_600) / 60)
    }
}

/// `--layers`: what exported tiles show.
enum TileLayersArgument: String, ExpressibleByArgument, CaseIterable {
    case all, basemap, overlays

    var layers: TileRenderOptions.Layers {
        switch self {
        case .all: .all
        case .basemap: .basemap
        case .overlays: .overlays
        }
    }
}

/// Progress on standard error: a bar redrawn in place on a terminal (at most five times a
/// second), a plain line every five seconds otherwise.
final class ProgressReporter: Sendable {
    private let total: Int
    private let output: String
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let state = Mutex<(last: UInt64, drawn: Bool)>((0, false))
    private let started = DispatchTime.now().uptimeNanoseconds

    init(total: Int, output: String) {
        self.total = total
        self.output = output
    }

    func report(_ progress: TileExport.Progress) {
        report(
            done: progress.tilesDone, isFinished: progress.tilesDone == progress.tilesTotal,
            tilesPerSecond: progress.tilesPerSecond, secondsRemaining: progress.secondsRemaining)
    }

    /// An extraction's progress (`tiles extract --bbox`), its rate measured from the reporter's start.
    func report(_ progress: TilesetExtraction.Progress) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let rate = seconds > 0 ? Double(progress.tilesDone) / seconds : 0
        report(
            done: progress.tilesDone, isFinished: progress.tilesDone == progress.tilesTotal,
            tilesPerSecond: rate,
            secondsRemaining: rate > 0 ? Double(progress.tilesTotal - progress.tilesDone) / rate : nil)
    }

    private func report(done: Int, isFinished: Bool, tilesPerSecond: Double, secondsRemaining: Double?) {
        let now = DispatchTime.now().uptimeNanoseconds
        let interval: UInt64 = isTerminal ? 200_000_000 : 5_000_000_000
        let line: String? = state.withLock { state in
            guard now - state.last >= interval || isFinished else { return nil }
            state.last = now
            state.drawn = true
            return text(done: done, tilesPerSecond: tilesPerSecond, secondsRemaining: secondsRemaining)
        }
        guard let line else { return }
        FileHandle.standardError.write(Data((isTerminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
    }

    /// Ends the bar's line on a terminal.
    func finishLine() {
        if isTerminal, state.withLock({ $0.drawn }) { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private func text(done: Int, tilesPerSecond: Double, secondsRemaining: Double?) -> String {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let eta = secondsRemaining.map { "ETA \(TilesExportCommand.duration($0))" } ?? "ETA --"
        let counts = "\(done.groupedText)/\(total.groupedText) tiles"
        let rate = String(format: "%.0f tiles/s", tilesPerSecond)
        if isTerminal {
            let width = 24
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            return "[\(bar)] \(counts) \(String(format: "%3.0f%%", fraction * 100))  \(rate)  \(eta)"
        }
        return "mapwright: \(output): \(counts) (\(String(format: "%.0f%%", fraction * 100))), \(rate), \(eta)"
    }
}
