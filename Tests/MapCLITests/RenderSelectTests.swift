import Foundation
import Testing

/// `mapwright render --select` with the start or a part of a title, as people type it.
struct RenderSelectTests {
    private func render(select: String) throws -> (status: Int32, standardError: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-select-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try MapwrightProcess.run([
            "render", "--photos", "Samples/photos", "--select", select, "--size", "300x200", "-o",
            directory.appendingPathComponent("map.png").path,
        ])
        return (result.status, result.standardError)
    }

    @Test func aUniquePrefixOrPartOfATitleSelectsItsPhoto() throws {
        for value in ["bridal", "GLACIER POINT", "La Boca"] {
            let result = try render(select: value)
            #expect(result.status == 0, "\(value): \(result.standardError)")
        }
    }

    @Test func anAmbiguousValueListsTheMatchingTitlesOnOneLine() throws {
        let result = try render(select: "half dome")
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n").filter { !$0.contains("warning:") }
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(
            result.standardError.contains("'Half Dome in Mirror Lake'")
                && result.standardError.contains("'Half Dome from Glacier Point'"))
    }

    @Test func anUnknownValueSuggestsTheClosestTitlesOnOneLine() throws {
        let result = try render(select: "Tunel View")
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n").filter { !$0.contains("warning:") }
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("did you mean 'Tunnel View, clearing storm'"), "\(result.standardError)")
    }
}
