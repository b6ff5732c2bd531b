import Foundation
import MapStyle
import MapUtilities

extension DataLocations {
    /// The lookup the commands use: the process's environment and executable, with the checkout
    /// this binary was built from (baked in at build time) as the last resort.
    static var commands: DataLocations { DataLocations(checkoutDirectory: builtCheckout) }

    /// The checkout this file was compiled in: `Sources/MapCLI/Options/` is three folders down.
    static let builtCheckout = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder for `item`: the option's value when given, else the first data folder holding it.
    ///
    /// - Parameters:
    ///   - value: The option's value; nil when the option was not given.
    ///   - option: The option's name, such as `--styles-directory`, for the message.
    /// - Throws: `CommandFailure` (status 2), one line starting with the option's name.
    func directory(for item: Item, option value: String?, named option: String) throws -> URL {
        do throws(MapUtilitiesError) {
            return try directory(for: item, explicit: value.map { URL(fileURLWithPath: $0, isDirectory: true) })
        } catch {
            throw CommandFailure("\(option): \(error.description)")
        }
    }

    /// The basemap folder: the option's value, else the first data folder holding the basemap.
    /// When `needed` is false a missing basemap is no error: the first folder looked in is
    /// returned, and a style that does need it reports its path when it draws.
    func basemapDirectory(option value: String?, needed: Bool) throws -> URL {
        guard value == nil, !needed else { return try directory(for: .basemap, option: value, named: "--basemap-directory") }
        return existingDirectory(for: .basemap)
            ?? roots.first.map { $0.directory.appendingPathComponent(Item.basemap.relativePath, isDirectory: true) }
            ?? URL(fileURLWithPath: Item.basemap.relativePath, isDirectory: true)
    }
}

extension Style {
    /// Whether a source of the style is a bundled basemap (`basemap://NAME`).
    var usesBundledBasemap: Bool {
        sources.values.contains { source in
            guard case .vector(let vector) = source, case .basemap = vector.location else { return false }
            return true
        }
    }
}
