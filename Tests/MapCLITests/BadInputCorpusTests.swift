import Foundation
import MapTestSupport
import Testing

/// The bad-input corpus, `Tests/Fixtures/bad/` (made by `scripts/tools/make-bad-corpus.py`):
/// every file is refused in one line naming it and the problem, with exit status 1 or 2, no
/// crash, and nothing left where outputs were asked for.
struct BadInputCorpusTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: String
        var testDescription: String { name }
    }

    static let folder = MapwrightProcess.repository.appendingPathComponent("Tests/Fixtures/bad")

    static let cases: [Case] = {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("manifest.tsv"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            return parts.count == 2 ? Case(name: parts[0], arguments: parts[1]) : nil
        }
    }()

    @Test func theCorpusHoldsAtLeastEightyFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0 != "manifest.tsv"
        }
        #expect(files.count >= 80, "\(files.count) files")
        #expect(Self.cases.count >= files.count)
    }

    @Test(arguments: cases)
    func refusedInOneLine(_ item: Case) throws {
        let directory = try TemporaryDirectory()
        let file = Self.folder.appendingPathComponent(item.name)
        let arguments = item.arguments.split(separator: " ").map {
            String($0).replacingOccurrences(of: "{file}", with: file.path)
                .replacingOccurrences(
                    of: "{good}", with: MapwrightProcess.repository.appendingPathComponent("Tests/Fixtures/good").path
                )
                .replacingOccurrences(of: "{dir}", with: directory.url.path)
        }
        let result = try MapwrightProcess.run(arguments, in: directory.url)
        #expect(
            result.status == 1 || result.status == 2,
            "\(item.name): exit status \(result.status): \(result.standardError)")
        let lines = result.standardError.split(separator: "\n").filter { !$0.hasPrefix("mapwright: warning:") }
        #expect(lines.count == 1, "\(item.name): \(result.standardError)")
        #expect(lines.first?.hasPrefix("mapwright: ") == true, "\(item.name): \(result.standardError)")
        if !item.name.hasPrefix("args-") {
            #expect(
                lines.first?.contains(item.name) == true,
                "\(item.name): the message does not name the file: \(result.standardError)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(left.isEmpty, "\(item.name): left \(left)")
    }
}
