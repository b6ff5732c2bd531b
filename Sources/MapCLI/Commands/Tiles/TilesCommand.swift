import ArgumentParser

/// `mapwright tiles`: tilesets in MBTiles and PMTiles files: export, inspect, convert, compare.
struct TilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Export, inspect, convert and compare tilesets (MBTiles and PMTiles files).",
        subcommands: [
            TilesExportCommand.self, TilesInfoCommand.self, TilesValidateCommand.self, TilesConvertCommand.self,
            TilesMergeCommand.self, TilesExtractCommand.self, TilesImportCommand.self, TilesDiffCommand.self,
        ]
    )
}
