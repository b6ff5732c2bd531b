import Foundation
import MapUtilities
import Testing

struct AtomicFileTests {
    private func makeFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mapwright-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func contents(of folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func writeReplacesTheFileAndLeavesNoTemporaryFile() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("map.png")
        try AtomicFile.write(Data("old".utf8), to: file)
        try AtomicFile.write(Data("new".utf8), to: file)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(try contents(of: folder) == ["map.png"])
    }

    @Test func aMissingFolderIsAnErrorNamingTheFileAndTheFolder() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("no such folder/map.png")
        #expect {
            try AtomicFile.write(Data("x".utf8), to: file)
        } throws: { error in
            "\(error)"
                == "\(file.path): cannot write the file: the directory \(file.deletingLastPathComponent().path) does not exist"
        }
    }

    @Test func aFailedRenameKeepsTheEarlierFileAndRemovesTheTemporaryOne() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A directory in the way: rename(2) cannot replace a non-empty directory with a file.
        let target = folder.appendingPathComponent("busy")
        try FileManager.default.createDirectory(
            at: target.appendingPathComponent("inside"), withIntermediateDirectories: true)
        #expect(throws: MapUtilitiesError.self) { try AtomicFile.write(Data("x".utf8), to: target) }
        #expect(try contents(of: folder) == ["busy"])
    }

    @Test func temporaryNamesAreHiddenBesideTheFileAndUnique() {
        let file = URL(fileURLWithPath: "/data/out/map.png")
        let a = AtomicFile.temporaryURL(for: file)
        let b = AtomicFile.temporaryURL(for: file)
        #expect(a != b)
        #expect(a.deletingLastPathComponent() == file.deletingLastPathComponent())
        #expect(a.lastPathComponent.hasPrefix(".map.png.") && a.lastPathComponent.hasSuffix(".tmp"))
    }
}
