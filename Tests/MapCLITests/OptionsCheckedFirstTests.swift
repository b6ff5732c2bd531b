import Foundation
import ImageCodec
import MapTestSupport
import Testing

@testable import MapCLI

/// Every option is checked before any photo is read or any pixel drawn: with a photo source that
/// does not exist (read first by `run()`), the option's own error must be the one reported.
struct OptionsCheckedFirstTests {
    private static let missingPhotos = "/nonexistent-mapwright-photos/folder"

    @Test(arguments: [
        (["--size", "0x100"], "mapwright: The value '0x100' is invalid for '--size <size>': expected WIDTHxHEIGHT"),
        (["--size", "10000x100", "--scale", "2"], "mapwright: --size: 20000x200 pixels is larger than 16384 per side"),
        (["--scale", "4"], "mapwright: --scale: 4 is not 1, 2 or 3"),
        (["--compression", "12"], "mapwright: --compression: 12 is not a level from 0 to 9"),
        (["--pin-color", "blu"], "mapwright: --pin-color:"),
        (
            ["--marker-image", "/nonexistent-mapwright/marker.png"],
            "mapwright: --marker-image: '/nonexistent-mapwright/marker.png' does not exist"
        ),
        (["--marker-image", "Samples/track.gpx"], "mapwright: --marker-image:"),
        (
            ["--track", "/nonexistent-mapwright/hike.gpx"],
            "mapwright: --track: '/nonexistent-mapwright/hike.gpx' does not exist"
        ),
        (["--overlay", "/nonexistent-mapwright/zones.geojson"], "mapwright: --overlay:"),
        (
            ["-o", "/nonexistent-mapwright/map.png"],
            "mapwright: --output: cannot write '/nonexistent-mapwright/map.png': the folder /nonexistent-mapwright does not exist"
        ),
        (
            ["-o", "Samples/track.gpx/map.png"],
            "mapwright: --output: cannot write 'Samples/track.gpx/map.png': Samples/track.gpx is a file, not a folder"
        ),
        (
            ["-o", "map.gif"],
            "mapwright: --output: 'map.gif' must end in .png, .pdf or .svg, or be - for standard output"
        ),
        (["-o", "map.png", "--format", "svg"], "mapwright: --format: svg contradicts the output file 'map.png'"),
    ])
    func theOptionsErrorWinsOverThePhotos(arguments: [String], message: String) throws {
        let result = try MapwrightProcess.run(["render", "--photos", Self.missingPhotos] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(result.standardError.hasPrefix(message), "\(arguments): \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(!result.standardError.contains("nonexistent-mapwright-photos"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    /// A marker larger than the map is refused, not scaled: marker images are @2x, so a
    /// 1000 × 300-pixel PNG is a 500 × 150-point marker, wider than a 400-point map.
    @Test func aMarkerImageLargerThanTheMapIsRefused() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let marker = directory.appendingPathComponent("marker.png")
        try RGBAImage(width: 1000, height: 300, filledWith: RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255))
            .writePNG(to: marker)
        let refused = try MapwrightProcess.run([
            "render", "--photos", Self.missingPhotos, "--marker-image", marker.path, "--size", "400x300",
        ])
        #expect(refused.status == 2)
        #expect(
            refused.standardError
                == "mapwright: --marker-image: '\(marker.path)' is 1000x300 pixels, a 500x150-point marker (@2x), "
                + "larger than the 400x300-point map (--size)\n", "\(refused.standardError)")
        // The same marker fits a 500-point map: the photos are then read (and missing).
        let fits = try MapwrightProcess.run([
            "render", "--photos", Self.missingPhotos, "--marker-image", marker.path, "--size", "500x300",
        ])
        #expect(
            fits.status == 2 && fits.standardError.contains("nonexistent-mapwright-photos"), "\(fits.standardError)")
    }

    @Test func anOutputThatIsAFolderIsRefused() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let folder = directory.appendingPathComponent("map.png")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try MapwrightProcess.run(["render", "--photos", Self.missingPhotos, "-o", folder.path])
        #expect(result.status == 2)
        #expect(
            result.standardError == "mapwright: --output: '\(folder.path)': it is a folder, not a file\n",
            "\(result.standardError)")
    }

    /// An unknown `--place` needs the basemap to tell, so it is checked in `run()`, but still
    /// before the photos are read, in `render` and `cluster` alike.
    @Test(arguments: [["render"], ["cluster", "--zoom", "3"]])
    func anUnknownPlaceIsReportedBeforeThePhotosAreRead(command: [String]) throws {
        let result = try MapwrightProcess.run(command + ["--photos", Self.missingPhotos, "--place", "Lilliput"])
        #expect(result.status == 2)
        #expect(
            result.standardError.hasPrefix("mapwright: --place: no country, state/province or town named 'Lilliput'"),
            "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    /// `compare` checks `--diff` before reading either image.
    @Test(arguments: [
        (["--diff", "diff.gif"], "mapwright: --diff: 'diff.gif' must end in .png, .jpg or .jpeg"),
        (
            ["--diff", "/nonexistent-mapwright/diff.png"],
            "mapwright: --diff: cannot write '/nonexistent-mapwright/diff.png'"
        ),
    ])
    func compareChecksTheDiffPathFirst(arguments: [String], message: String) throws {
        let result = try MapwrightProcess.run(
            ["compare", "/nonexistent-mapwright/a.png", "/nonexistent-mapwright/b.png"] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }
}
