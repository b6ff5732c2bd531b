import Foundation
import MapTestSupport
import Testing

/// Every Swift file git tracks is formatted as `.swift-format` at the checkout's top says (four
/// spaces, 120 columns, swift-format's rules less four that would rewrite code rather than lay it
/// out): style is checked here, not reviewed by hand. To format: `git ls-files -z '*.swift' |
/// xargs -0 swift format format -i -p` (swift-format ships with the toolchain).
struct FormattingTests {
    @Test func everyTrackedSwiftFileIsFormatted() throws {
        let root = RepositoryFiles.root
        let listed = try ExternalCommand.run("git", ["-C", root.path, "ls-files", "*.swift"])
        try #require(listed.status == 0, "\(listed.transcript)")
        let files = listed.standardOutput.split(separator: "\n").map { root.appendingPathComponent(String($0)).path }
        try #require(files.count > 100, "git lists only \(files.count) Swift files")
        let lint = try ExternalCommand.run("swift", ["format", "lint", "--strict", "--parallel"] + files, in: root)
        #expect(
            lint.status == 0,
            "files not formatted as .swift-format says (run: git ls-files -z '*.swift' | xargs -0 swift format format -i -p):\n\(lint.transcript)"
        )
    }
}
