public import ArgumentParser

/// The `mapwright` command: renders maps, compares renders and answers map-model questions.
public struct Mapwright: ParsableCommand {
    /// The version `mapwright --version` prints.
    public static let version = "0.1.0"

    /// The root command's name, version and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "mapwright",
        abstract: "Render maps of geotagged photos and tracks, on a server.",
        version: version,
        subcommands: [
            RenderCommand.self, FlyoverCommand.self, ClusterCommand.self, LocateCommand.self, CompareCommand.self,
            TilesCommand.self, ServeCommand.self, PhotosCommand.self, BasemapCommand.self, TerrainCommand.self,
        ]
    )

    /// Creates the root command; ArgumentParser fills it in when parsing.
    public init() {}
}
