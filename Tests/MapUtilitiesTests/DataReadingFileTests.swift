import Foundation
import MapUtilities
import Testing

/// `Data(readingFile:maximumBytes:)`: the cap is checked before reading, and said in plain words.
struct DataReadingFileTests {
    @Test func aFileOverTheCapIsRefusedAndOneAtTheCapIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mapwright-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ten.bin")
        try Data(repeating: 7, count: 10).write(to: file)
        #expect(try Data(readingFile: file, maximumBytes: 10).count == 10)
        #expect(
            throws: MapUtilitiesError.unreadableFile(
                path: file.path, reason: "it is 10 bytes, over the 9 bytes limit for this kind of file")
        ) {
            try Data(readingFile: file, maximumBytes: 9)
        }
        let big = folder.appendingPathComponent("big.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        try FileHandle(forWritingTo: big).truncate(atOffset: 3 << 20)
        #expect(
            throws: MapUtilitiesError.unreadableFile(
                path: big.path, reason: "it is 3 MiB, over the 2 MiB limit for this kind of file")
        ) {
            try Data(readingFile: big, maximumBytes: 2 << 20)
        }
        #expect(
            throws: MapUtilitiesError.unreadableFile(
                path: big.path,
                reason: "it is 3145728 bytes, over the 3.0 MiB (3145727 bytes) limit for this kind of file")
        ) {
            try Data(readingFile: big, maximumBytes: (3 << 20) - 1)
        }
    }

    @Test(arguments: [
        (0, "0 bytes"), (1_023, "1023 bytes"), (1_024, "1 KiB"), (1_536, "1.5 KiB"), (64 << 20, "64 MiB"),
        ((1 << 30) + (1 << 29), "1.5 GiB"), (2 << 30, "2 GiB"), (15 << 30, "15 GiB"),
    ])
    func byteCountsReadAsPeopleWriteThem(bytes: Int, text: String) {
        #expect(Data.byteCountText(bytes) == text)
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1_000, "1,000"), (358_000_000, "358,000,000"), (-12_345, "-12,345")])
    func countsAreGroupedByThousands(count: Int, text: String) {
        #expect(count.groupedText == text)
    }
}
