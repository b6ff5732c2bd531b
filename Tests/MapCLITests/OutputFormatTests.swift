import Foundation
import ImageCodec
import MapTestSupport
import Testing

@testable import MapCLI

/// Where and how the commands write images: `render -o -` to standard output and nothing else
/// there, `--format`, warnings for options that do nothing for the format, and `compare
/// --diff` in the format its extension names.
struct OutputFormatTests {
    private let greece = ["render", "--place", "Greece", "--size", "300x200"]

    /// `-o -` writes the PNG, and only the PNG, to standard output; no file appears in the
    /// working directory.
    @Test func dashWritesAPNGToStandardOutput() throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let result = try MapwrightProcess.run(greece + ["--scale", "2", "-o", "-"], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let image = try RGBAImage(pngData: result.standardOutputData)
        #expect(image.width == 600 && image.height == 400)
        #expect(result.standardError.isEmpty, "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        // The same bytes as a file written with -o.
        let file = directory.appendingPathComponent("map.png")
        #expect(try MapwrightProcess.run(greece + ["--scale", "2", "-o", file.path]).status == 0)
        #expect(try Data(contentsOf: file) == result.standardOutputData)
    }

    @Test(arguments: [("pdf", "%PDF"), ("svg", "<?xml"), ("png", "\u{89}PNG")])
    func formatChoosesWhatStandardOutputGets(format: String, prefix: String) throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let result = try MapwrightProcess.run(greece + ["-o", "-", "--format", format], in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let expected = format == "png" ? Data([0x89, 0x50, 0x4E, 0x47]) : Data(prefix.utf8)
        #expect(result.standardOutputData.prefix(expected.count) == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    /// Warnings go to standard error, never into the image on standard output.
    @Test func warningsStayOnStandardError() throws {
        let result = try MapwrightProcess.run([
            "render", "--photos", "Samples/photos", "--size", "300x200", "--format", "svg", "-o", "-", "--palette",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputData.prefix(5) == Data("<?xml".utf8))
        #expect(result.standardError.contains("mapwright: warning: --palette does nothing for SVG output"))
        #expect(result.standardError.contains("have no GPS location"), "\(result.standardError)")
        #expect(!result.standardOutput.contains("mapwright:"))
    }

    /// `--compression` and `--palette` only shape PNGs: given for a PDF or SVG, each is one
    /// warning line, and the map is still written.
    @Test(arguments: ["pdf", "svg"])
    func pngOnlyOptionsWarnForVectorOutput(format: String) throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let output = directory.appendingPathComponent("map.\(format)")
        let result = try MapwrightProcess.run(greece + ["-o", output.path, "--compression", "9", "--palette"])
        #expect(result.status == 0, "\(result.standardError)")
        let name = format.uppercased()
        #expect(
            result.standardError == """
                mapwright: warning: --compression does nothing for \(name) output: it sets PNG compression
                mapwright: warning: --palette does nothing for \(name) output: it makes palette PNGs

                """, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: output.path))
        // Without them, or for a PNG, there is nothing to warn about.
        let quiet = try MapwrightProcess.run(greece + ["-o", output.path])
        #expect(quiet.status == 0 && quiet.standardError.isEmpty, "\(quiet.standardError)")
        let png = try MapwrightProcess.run(
            greece + ["-o", directory.appendingPathComponent("map.png").path, "--compression", "9", "--palette"])
        #expect(png.status == 0 && png.standardError.isEmpty, "\(png.standardError)")
    }

    /// `compare --diff x.jpg` writes a JPEG (quality 90), `.png` a PNG.
    @Test(arguments: ["diff.jpg", "diff.JPEG", "diff.png"])
    func compareWritesTheDiffInItsExtensionsFormat(name: String) throws {
        let temporary = try TemporaryDirectory()
        let directory = temporary.url
        let expected = directory.appendingPathComponent("expected.png")
        let actual = directory.appendingPathComponent("actual.png")
        try RGBAImage(width: 40, height: 30, filledWith: .white).writePNG(to: expected)
        var changed = RGBAImage(width: 40, height: 30, filledWith: .white)
        for y in 10..<20 { for x in 10..<20 { changed[x: x, y: y] = .black } }
        try changed.writePNG(to: actual)
        let diff = directory.appendingPathComponent(name)
        let result = try MapwrightProcess.run(["compare", expected.path, actual.path, "--diff", diff.path])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput == "100 pixels differ (8.3333%)\n")
        let bytes = try Data(contentsOf: diff)
        if name.hasSuffix(".png") {
            #expect(try RGBAImage(pngData: bytes).width == 40)
        } else {
            #expect(bytes.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
            let image = try RGBAImage(jpegData: bytes)
            #expect(image.width == 40 && image.height == 30)
            // Red where the images differ, as in the PNG diff.
            let pixel = image[x: 15, y: 15]
            #expect(pixel.red > 200 && pixel.green < 80 && pixel.blue < 80, "\(pixel)")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == ["actual.png", name, "expected.png"].sorted())
    }
}
