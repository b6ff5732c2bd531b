import ArgumentParser

/// `mapwright tiles export` (being written).
struct TilesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Render a region's tiles into an MBTiles or PMTiles file.")
    func run() throws { throw CommandFailure("tiles export is not built yet") }
}
