import Foundation
import MapTestSupport
import Testing

/// Files too large to read whole are refused before a byte is read, in one line naming the file
/// and the cap. The files are sparse: their size is set, no byte is written.
struct FileSizeLimitTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var file: String
        var bytes: Int
        var arguments: [String]
        var cap: String
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        Case(
            file: "huge style.json", bytes: (64 << 20) + 1,
            arguments: ["render", "--style", "{file}", "-o", "map.png"], cap: "64 MiB"),
        Case(
            file: "huge.geojson", bytes: (1 << 30) + 1, arguments: ["render", "--overlay", "{file}", "-o", "map.png"],
            cap: "1 GiB"),
        Case(
            file: "huge.gpx", bytes: (1 << 30) + 1, arguments: ["render", "--track", "{file}", "-o", "map.png"],
            cap: "1 GiB"),
        Case(
            file: "huge photos.csv", bytes: (2 << 30) + 1,
            arguments: ["render", "--photos", "{file}", "-o", "map.png"], cap: "2 GiB"),
        Case(file: "huge.png", bytes: (1 << 30) + 1, arguments: ["compare", "{file}", "{file}"], cap: "1 GiB"),
    ]

    @Test(arguments: cases)
    func aFileOverItsCapIsRefusedNamingTheCap(_ item: Case) throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent(item.file)
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(item.bytes))
        try handle.close()
        let result = try MapwrightProcess.run(item.arguments.map { $0 == "{file}" ? file.path : $0 }, in: directory.url)
        #expect(result.status == 1 || result.status == 2, "exit status \(result.status): \(result.standardError)")
        let lines = result.standardError.split(separator: "\n").filter { !$0.hasPrefix("mapwright: warning:") }
        #expect(lines.count == 1, "\(result.standardError)")
        let line = String(lines.first ?? "")
        #expect(line.contains(item.file), "names the file: \(line)")
        #expect(line.contains("over the \(item.cap)"), "names the cap: \(line)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [item.file], "nothing written")
    }
}
