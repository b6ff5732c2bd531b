public import Foundation

/// Folders of the source checkout that tests read: the styles, the sample photos and the bundled
/// basemap (installed by `scripts/setup.sh`).
public enum RepositoryFiles {
    /// The checkout's root: the folder holding `Package.swift`.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Styles/`.
    public static let styles = root.appendingPathComponent("Styles", isDirectory: true)
    /// `Samples/`.
    public static let samples = root.appendingPathComponent("Samples", isDirectory: true)
    /// `Tiles/basemap/`.
    public static let basemap = root.appendingPathComponent("Tiles/basemap", isDirectory: true)
    /// `Sources/`.
    public static let sources = root.appendingPathComponent("Sources", isDirectory: true)
}
