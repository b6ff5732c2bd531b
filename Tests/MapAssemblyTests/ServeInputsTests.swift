import Foundation
import MapAssembly
import MapServer
import MapTestSupport
import Testing

/// What `serve` serves to GL clients besides styles: the tileset files the styles draw from, as
/// data with the `--tiles` files (each file opened once, names kept apart), and `--fonts`.
struct ServeInputsTests {
    private static let sample = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles")

    /// Inputs reading only what they are given: no registered or checkout street basemaps.
    private func inputs(
        _ home: TemporaryDirectory, styles: [String], vectorSource: URL?, tilesets: [String] = [], fonts: String? = nil
    ) -> ServeInputs {
        ServeInputs(
            styles: styles,
            map: MapInputs(
                vectorSource: vectorSource?.path, stylesDirectory: RepositoryFiles.styles.path,
                basemapDirectory: RepositoryFiles.basemap.path,
                locations: DataLocations(
                    environment: ["HOME": home.url.path, "MAPWRIGHT_NO_CHECKOUT": "1"], executableURL: nil)),
            tilesets: tilesets, fonts: fonts)
    }

    @Test func theVectorSourceIsServedAsDataOnceAndUnderItsOwnName() throws {
        let home = try TemporaryDirectory()
        let alone = inputs(home, styles: ["streets", "standard"], vectorSource: Self.sample)
        let content = try alone.loadContent(styles: try alone.loadStyles().styles).content
        #expect(content.styleTilesets.map(\.name) == ["helsinki"])
        #expect(content.dataTileset(servingFile: Self.sample)?.name == "helsinki")

        // Also given with --tiles: that tileset, opened once.
        let both = inputs(home, styles: ["streets"], vectorSource: Self.sample, tilesets: [Self.sample.path])
        let shared = try both.loadContent(styles: try both.loadStyles().styles).content
        #expect(shared.styleTilesets.isEmpty)
        #expect(
            shared.dataTilesets.count == 1 && shared.dataTileset(servingFile: Self.sample) === shared.tilesets.first)

        // Another file of the same name given with --tiles keeps its name; the source's is made unique.
        let other = home.url.appendingPathComponent("other/helsinki.mbtiles")
        try FileManager.default.createDirectory(
            at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.sample, to: other)
        let named = inputs(home, styles: ["streets"], vectorSource: Self.sample, tilesets: [other.path])
        let apart = try named.loadContent(styles: try named.loadStyles().styles).content
        #expect(apart.dataTilesets.map(\.name) == ["helsinki", "helsinki-2"])
        #expect(apart.dataTileset(servingFile: Self.sample)?.name == "helsinki-2")
    }

    /// The streets style without --vector-source reads the data folders' street basemaps, here
    /// two, as one: they are one data, named after the style's source.
    @Test func streetBasemapsReadAsOneAreOneData() throws {
        let home = try TemporaryDirectory()
        let data = try TemporaryDirectory()
        let streets = data.url.appendingPathComponent("Tiles/streets")
        try FileManager.default.createDirectory(at: streets, withIntermediateDirectories: true)
        for name in ["a.mbtiles", "b.mbtiles"] {
            try FileManager.default.copyItem(at: Self.sample, to: streets.appendingPathComponent(name))
        }
        let inputs = ServeInputs(
            styles: ["streets"],
            map: MapInputs(
                stylesDirectory: RepositoryFiles.styles.path, basemapDirectory: RepositoryFiles.basemap.path,
                locations: DataLocations(
                    environment: [
                        "HOME": home.url.path, "MAPWRIGHT_DATA": data.url.path, "MAPWRIGHT_NO_CHECKOUT": "1",
                    ], executableURL: nil)))
        let content = try inputs.loadContent(styles: try inputs.loadStyles().styles).content
        #expect(content.styleTilesets.map(\.name) == ["openmaptiles"])
        #expect(content.styleTilesets.first?.files.map(\.lastPathComponent).sorted() == ["a.mbtiles", "b.mbtiles"])
    }

    @Test func theFontsFolderIsCheckedAndItsFontsListed() throws {
        let home = try TemporaryDirectory()
        #expect {
            _ = try inputs(home, styles: [], vectorSource: nil, fonts: home.url.appendingPathComponent("none").path)
                .loadContent(styles: [])
        } throws: { error in
            (error as? AssemblyError)?.description
                == "--fonts: '\(home.url.appendingPathComponent("none").path)' does not exist"
        }
        let empty = try inputs(home, styles: [], vectorSource: nil, fonts: home.url.path).loadContent(styles: [])
        #expect(empty.content.fonts?.names == [])
        #expect(
            empty.warnings.contains { $0.hasPrefix("--fonts: '\(home.url.path)' holds no fonts") }, "\(empty.warnings)")
        try FileManager.default.createDirectory(
            at: home.url.appendingPathComponent("Noto Sans Regular"), withIntermediateDirectories: true)
        try Data([0x0A, 0x00]).write(to: home.url.appendingPathComponent("Noto Sans Regular/0-255.pbf"))
        let one = try inputs(home, styles: [], vectorSource: nil, fonts: home.url.path).loadContent(styles: [])
        #expect(one.content.fonts?.names == ["Noto Sans Regular"] && one.warnings.isEmpty)
    }
}
