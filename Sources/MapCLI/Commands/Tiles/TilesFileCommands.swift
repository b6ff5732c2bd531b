public import ArgumentParser
import Foundation
import MBTiles
import MapCore
import MapJSON
import MapUtilities
import TileSources
public import TilesetTools
import Tilesets

/// Opens a tileset for a `tiles` subcommand: a file, or a PMTiles archive's `http(s)` URL; its
/// error names the file or URL.
func openTileset(_ path: String) throws(TilesetsError) -> any TileSource {
    try TileSourceLocation.file(HTTPRangeSource.remoteURL(path) ?? URL(fileURLWithPath: path)).open()
}

/// Checks that `path` names a tileset to write (`.mbtiles` or `.pmtiles`) in a folder that can
/// be written; `option` (such as `--output`) starts the message when the path is an option's.
func checkTilesetOutput(_ path: String, option: String?) throws {
    do throws(TilesetsError) { _ = try TilesetFormat(path: path) } catch {
        throw ValidationError("\(option.map { "\($0): " } ?? "")'\(path)' must end in .mbtiles or .pmtiles")
    }
    try OutputPath.checkWritable(path, option: option ?? "the output")
}

/// Writes one line to standard error.
func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// `mapwright tiles info`.
struct TilesInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a tileset's metadata, tiles and bytes per zoom, and how much deduplication saves.")

    @Argument(help: "An MBTiles or PMTiles file.")
    var file: String

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let tileset = try openTileset(file)
        let summary = try TilesetSummary(of: tileset)
        if json {
            var writer = JSONWriter()
            writer.value(
                .object([
                    "path": .string(summary.path), "format": .string(summary.format.rawValue),
                    "layout": .string(summary.layout),
                    "metadata": .object(summary.metadataRows.mapValues { .string($0) }),
                    "zoomLevels": .array(
                        summary.zoomLevels.map {
                            .object([
                                "zoom": .number(Double($0.zoom)), "tiles": .number(Double($0.tileCount)),
                                "bytes": .number(Double($0.tileBytes)),
                            ])
                        }),
                    "tiles": .number(Double(summary.tileCount)), "tileBytes": .number(Double(summary.tileBytes)),
                    "fileBytes": .number(Double(summary.fileBytes)),
                    "storedTiles": .number(Double(summary.storedTileCount)),
                    "deduplicationRatio": .number((summary.deduplicationRatio * 100).rounded() / 100),
                ]))
            print(writer.text)
            return
        }
        var lines = ["\(summary.path): \(summary.format == .mbtiles ? "MBTiles" : "PMTiles v3"), \(summary.layout)"]
        for key in summary.metadataRows.keys.sorted() {
            let value = summary.metadataRows[key]!
            lines.append("  \(key): \(value.count > 100 ? String(value.prefix(97)) + "..." : value)")
        }
        lines.append("zoom  tiles        bytes")
        for level in summary.zoomLevels {
            let tiles = level.tileCount.groupedText
            lines.append(
                "\(String(repeating: " ", count: max(0, 4 - "\(level.zoom)".count)))\(level.zoom)  \(tiles)\(String(repeating: " ", count: max(1, 13 - tiles.count)))\(Data.byteCountText(Int(level.tileBytes)))"
            )
        }
        lines.append(
            "total \(summary.tileCount.groupedText) tiles, \(Data.byteCountText(Int(summary.tileBytes))) of tiles, "
                + "\(summary.storedTileCount.groupedText) stored (\(String(format: "%.2f", summary.deduplicationRatio)) tiles each), "
                + "file \(Data.byteCountText(Int(summary.fileBytes)))")
        print(lines.joined(separator: "\n"))
    }
}

/// `mapwright tiles validate`.
struct TilesValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract:
            "Check a tileset: SQLite's integrity_check and agg_tiles_hash for MBTiles, every directory and tile for PMTiles.",
        discussion:
            "Exit status 0 when valid, 1 when a problem is found (each printed on its own line), 2 when the file cannot be opened."
    )

    @Argument(help: "An MBTiles or PMTiles file.")
    var file: String

    func run() throws {
        let tileset = try openTileset(file)
        let result = try TilesetValidation(of: tileset)
        for warning in result.warnings { Mapwright.warn("\(result.path): \(warning)") }
        guard result.isValid else {
            for problem in result.problems { print("\(result.path): \(problem)") }
            throw CommandFailure("\(result.path) is not valid: \(result.problems.count) problem(s)", status: 1)
        }
        print("\(result.path): valid")
    }
}

/// `mapwright tiles extract`: a regional tileset cut out of a local or remote one, or every
/// tile written as files.
struct TilesExtractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract:
            "Cut a regional tileset out of a local or remote one (--bbox, --zoom), or write every tile as DIR/z/x/y.png.",
        discussion: """
            With OUTPUT ending in .mbtiles or .pmtiles, the tiles of SOURCE that overlap --bbox at the --zoom \
            levels (by default the world and every zoom) are copied as stored into a new tileset, as \
            pmtiles extract does, with SOURCE's metadata, its bounds narrowed to the box. SOURCE may be \
            a .pmtiles http(s) URL, read with range requests (in parallel, kept in the user's cache). \
            Otherwise OUTPUT is a folder, new or empty, and every tile is written as DIR/z/x/y.png (XYZ, \
            y from the north) with DIR/metadata.json, each file under a temporary name and renamed.
            """)

    @Argument(help: "An MBTiles or PMTiles file, or a PMTiles archive's http(s) URL.")
    var source: String

    @Argument(
        help:
            "The tileset to write, ending in .mbtiles or .pmtiles; or a folder for z/x/y files, which must not exist or be empty."
    )
    var output: String

    @Option(
        parsing: .unconditional,
        help:
            "The area, as WEST,SOUTH,EAST,NORTH in degrees (EAST < WEST crosses the antimeridian). The default is the world."
    )
    var bbox: String?

    @Option(
        name: .customLong("zoom"), parsing: .unconditional,
        help: "The zoom levels, as MINZOOM-MAXZOOM (0-14) or one zoom. The default is the source's.")
    var zoomText: String?

    /// Whether OUTPUT names a tileset rather than a folder.
    var writesTileset: Bool { (try? TilesetFormat(path: output)) != nil }

    func validate() throws {
        if let bbox { _ = try ArgumentValues.boundingBox(bbox) }
        if let zoomText { _ = try ArgumentValues.zoomRange(zoomText) }
        if writesTileset {
            try checkTilesetOutput(output, option: nil)
        } else if bbox != nil || zoomText != nil {
            throw ValidationError("--bbox and --zoom cut a tileset: '\(output)' must end in .mbtiles or .pmtiles")
        }
    }

    func run() throws {
        let tileset = try openTileset(source)
        guard writesTileset else {
            let count = try TileFolder.extract(tileset, to: URL(fileURLWithPath: output))
            printToStandardError("wrote \(count) tiles to \(output)")
            return
        }
        var reporter: ProgressReporter?
        let report: TilesetExtraction.Report
        do {
            report = try TilesetExtraction.extract(
                tileset, to: URL(fileURLWithPath: output), region: try bbox.map { try ArgumentValues.boundingBox($0) },
                zoomLevels: try zoomText.map { try ArgumentValues.zoomRange($0) }
            ) { progress in
                if reporter == nil { reporter = ProgressReporter(total: progress.tilesTotal, output: output) }
                reporter?.report(progress)
            }
        } catch {
            reporter?.finishLine()
            throw error
        }
        reporter?.finishLine()
        let zooms = report.metadata.minZoom.flatMap { low in report.metadata.maxZoom.map { "\(low)-\($0)" } } ?? "?"
        printToStandardError("wrote \(report.tileCount) tiles to \(output) (zooms \(zooms))")
    }
}

/// `mapwright tiles import`.
struct TilesImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a folder of z/x/y tiles (XYZ) into an MBTiles or PMTiles file.",
        discussion:
            "The metadata comes from DIR/metadata.json when there is one; the zooms and bounds are computed from the tiles when missing."
    )

    @Argument(help: "A folder of z/x/y.png (or .jpg, .webp, .pbf) tiles.")
    var folder: String

    @Argument(help: "The tileset to write, ending in .mbtiles or .pmtiles.")
    var file: String

    @Option(parsing: .unconditional, help: "The tileset's name; by default metadata.json's, else the folder's name.")
    var name: String?

    func validate() throws {
        try checkTilesetOutput(file, option: nil)
    }

    func run() throws {
        let report = try TileFolder.importTiles(
            from: URL(fileURLWithPath: folder), to: URL(fileURLWithPath: file), name: name)
        if !report.skippedFiles.isEmpty {
            Mapwright.warn(
                "\(folder): \(report.skippedFiles.count) file(s) are not z/x/y tiles and were skipped, such as \(report.skippedFiles[0])"
            )
        }
        printToStandardError("wrote \(report.tileCount) tiles to \(file)")
    }
}

/// `mapwright tiles convert`.
struct TilesConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert", abstract: "Copy a tileset into the other format: MBTiles to PMTiles, or back.")

    @Argument(help: "The tileset to read, MBTiles or PMTiles.")
    var source: String

    @Argument(help: "The tileset to write, ending in .mbtiles or .pmtiles.")
    var destination: String

    func validate() throws {
        try checkTilesetOutput(destination, option: nil)
    }

    func run() throws {
        let tileset = try openTileset(source)
        let count = try TilesetConversion.convert(tileset, to: URL(fileURLWithPath: destination))
        printToStandardError("wrote \(count) tiles to \(destination)")
    }
}

/// `mapwright tiles merge`.
struct TilesMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join tilesets (such as an export's shards) into one MBTiles or PMTiles file.",
        discussion: """
            Metadata is unioned (bounds and zooms widened); a tile two inputs have with different bytes \
            is a conflict, reported on standard error: the first input's tile is kept unless \
            --on-conflict says otherwise.
            """)

    @Argument(help: "Two or more MBTiles or PMTiles files.")
    var inputs: [String]

    @Option(
        name: [.short, .long], parsing: .unconditional, help: "The tileset to write, ending in .mbtiles or .pmtiles.")
    var output: String

    @Option(
        parsing: .unconditional,
        help:
            "What to do with conflicting tiles: keep-first, keep-last, or error (write nothing, exit 1). The default is keep-first."
    )
    var onConflict: TilesetMerge.ConflictPolicy = .keepFirst

    func validate() throws {
        guard inputs.count >= 2 else { throw ValidationError("give two or more tilesets to merge") }
        try checkTilesetOutput(output, option: "--output")
    }

    func run() throws {
        let tilesets = try inputs.map(openTileset)
        let report: TilesetMerge.Report
        do throws(TilesetToolsError) {
            report = try TilesetMerge.merge(tilesets, into: URL(fileURLWithPath: output), onConflict: onConflict)
        } catch {
            if case .invalidExport(let reason) = error, onConflict == .error, reason.contains("differ") {
                throw CommandFailure(reason, status: 1)
            }
            throw error
        }
        for (path, conflict) in report.metadataConflicts {
            Mapwright.warn(
                "\(path): metadata `\(conflict.key)` is '\(conflict.otherValue)', kept '\(conflict.keptValue)'")
        }
        if let first = report.conflictingTiles.first {
            let shown = report.conflictingTiles.prefix(5).map(\.description).joined(separator: ", ")
            Mapwright.warn(
                "\(report.conflictingTiles.count) tile(s) differ between inputs (\(shown)\(report.conflictingTiles.count > 5 ? ", ..." : "")); "
                    + "kept the \(onConflict == .keepLast ? "last" : "first") input's, starting with \(first)")
        }
        printToStandardError("wrote \(report.tileCount) tiles to \(output) from \(inputs.count) tilesets")
    }
}

extension TilesetMerge.ConflictPolicy: ExpressibleByArgument {}

/// `mapwright tiles diff`.
struct TilesDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two tilesets tile by tile: missing, extra and differing tiles with their pixel counts.",
        discussion:
            "Exit status 0 when they show the same tiles, 1 when a tile is missing, extra or different, 2 on an error.")

    @Argument(help: "The expected tileset, MBTiles or PMTiles.")
    var first: String

    @Argument(help: "The tileset compared with it.")
    var second: String

    @Option(parsing: .unconditional, help: "The colour threshold from 0 to 1, as compare's. The default is 0.1.")
    var threshold: Double = 0.1

    @Flag(help: "Print one JSON object.")
    var json = false

    func validate() throws {
        guard (0...1).contains(threshold) else {
            throw ValidationError("--threshold: \(threshold) is not between 0 and 1")
        }
    }

    func run() throws {
        let (a, b) = (try openTileset(first), try openTileset(second))
        let difference = try TilesetDifference(a, b, threshold: threshold)
        func address(_ tile: TileID) -> JSONValue {
            .object(["z": .number(Double(tile.z)), "x": .number(Double(tile.x)), "y": .number(Double(tile.y))])
        }
        if json {
            var writer = JSONWriter()
            writer.value(
                .object([
                    "identical": .number(Double(difference.identicalCount)),
                    "samePixels": .array(difference.samePixels.map(address)),
                    "onlyInFirst": .array(difference.onlyInFirst.map(address)),
                    "onlyInSecond": .array(difference.onlyInSecond.map(address)),
                    "different": .array(
                        difference.different.map {
                            .object([
                                "z": .number(Double($0.tile.z)), "x": .number(Double($0.tile.x)),
                                "y": .number(Double($0.tile.y)),
                                "differentPixels": .number(Double($0.differentPixels)),
                            ])
                        }),
                ]))
            print(writer.text)
        } else {
            for tile in difference.onlyInFirst { print("\(tile): only in \(first)") }
            for tile in difference.onlyInSecond { print("\(tile): only in \(second)") }
            for tile in difference.different { print("\(tile.tile): \(tile.differentPixels) pixels differ") }
            print(
                "\(difference.identicalCount) identical, \(difference.samePixels.count) with the same pixels but other bytes, "
                    + "\(difference.different.count) different, \(difference.onlyInFirst.count) only in \(first), \(difference.onlyInSecond.count) only in \(second)"
            )
        }
        if !difference.isEmpty { throw ExitCode(1) }
    }
}
