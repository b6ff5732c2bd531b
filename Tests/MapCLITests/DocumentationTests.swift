import ArgumentParser
import Foundation
import MapCLI
import MapTestSupport
import Testing

/// Keeps README.md and docs/ honest (and the READMEs of Samples/, Styles/, scripts/data/,
/// scripts/fuzz/ and Tests/Fixtures/styles/): every `mapwright ...` example in their shell code
/// blocks parses as the command it shows, every relative link reaches a file of the checkout (and
/// its `#anchor` a heading there), docs/architecture.md names every target of Package.swift, and
/// docs/conformance.md's per-category table agrees with Conformance/ignores.txt.
struct DocumentationTests {
    private static let root = RepositoryFiles.root

    /// The READMEs of folders that describe their files, beside README.md and docs/.
    static let folderReadmes = [
        "Samples/README.md", "Samples/helsinki/README.md", "Styles/README.md", "Tests/Fixtures/styles/README.md",
        "scripts/data/README.md", "scripts/fuzz/README.md",
    ]

    /// README.md, every Markdown page of docs/ and the folders' READMEs, as paths relative to
    /// the checkout.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return ["README.md"] + docs + folderReadmes
    }

    static func text(of page: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
    }

    // MARK: - Examples

    /// One `mapwright` command found in a code block: where it is, and its arguments after
    /// `mapwright` as the shell would pass them.
    struct Example: CustomStringConvertible {
        let page: String
        let line: Int
        let arguments: [String]
        var description: String { "\(page):\(line): mapwright \(arguments.joined(separator: " "))" }
    }

    /// The shell code blocks of a Markdown text (fenced as `sh`, `bash`, `shell`, `console` or
    /// with no language), each with the line its first line is on.
    static func shellBlocks(in text: String) -> [(line: Int, text: String)] {
        var blocks: [(Int, String)] = []
        var current: (start: Int, lines: [String], shell: Bool)?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if let block = current {
                    if block.shell { blocks.append((block.start, block.lines.joined(separator: "\n"))) }
                    current = nil
                } else {
                    let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces)
                    current = (index + 2, [], ["", "sh", "bash", "shell", "console"].contains(language))
                }
            } else if current != nil {
                current!.lines.append(line)
            }
        }
        return blocks
    }

    /// A shell text split into commands of words, as a POSIX shell would split it, far enough
    /// for documentation: quotes, backslash escapes and line continuations, `#` comments, `$ `
    /// prompts, `~/` and `$HOME`; `&&`, `||`, `;`, `|` and newlines end a command, and a
    /// redirection (`>`, `2>`, `<`, `>>`) drops itself and its file. Each command comes with the
    /// line it starts on, counted from 0.
    static func shellCommands(_ text: String) -> [(line: Int, words: [String])] {
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        var commands: [(Int, [String])] = []
        var words: [String] = []
        var word = ""
        var inWord = false
        var skipNextWord = false
        var line = 0
        var commandLine = 0
        var characters = Array(
            text.components(separatedBy: "\n").map { line in
                line.hasPrefix("$ ") ? String(line.dropFirst(2)) : line
            }.joined(separator: "\n"))
        characters.append("\n")
        func endWord() {
            if inWord {
                if skipNextWord {
                    skipNextWord = false
                } else {
                    if words.isEmpty { commandLine = line }
                    words.append(word)
                }
            }
            word = ""
            inWord = false
        }
        func endCommand() {
            endWord()
            if !words.isEmpty { commands.append((commandLine, words)) }
            words = []
        }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                if index + 1 < characters.count, characters[index + 1] == "\n" {
                    line += 1
                } else if index + 1 < characters.count {
                    word.append(characters[index + 1])
                    inWord = true
                }
                index += 2
                continue
            case "'":
                inWord = true
                index += 1
                while index < characters.count, characters[index] != "'" {
                    if characters[index] == "\n" { line += 1 }
                    word.append(characters[index])
                    index += 1
                }
            case "\"":
                inWord = true
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\", index + 1 < characters.count, "\"\\$`".contains(characters[index + 1])
                    {
                        index += 1
                    }
                    if characters[index] == "\n" { line += 1 }
                    word.append(characters[index])
                    index += 1
                }
            case "#" where !inWord:
                while index < characters.count, characters[index] != "\n" { index += 1 }
                continue
            case " ", "\t":
                endWord()
            case "\n":
                endCommand()
                line += 1
            case ";", "&", "|":
                endCommand()
            case ">", "<":
                if inWord, word.allSatisfy(\.isNumber) {
                    word = ""
                    inWord = false
                }
                endWord()
                if index + 1 < characters.count, characters[index + 1] == ">" { index += 1 }
                skipNextWord = true
            case "~" where !inWord && index + 1 < characters.count && characters[index + 1] == "/":
                word.append(home)
                inWord = true
            default:
                word.append(character)
                inWord = true
            }
            index += 1
        }
        endCommand()
        return commands.map { ($0.0, $0.1.map { $0.replacingOccurrences(of: "$HOME", with: home) }) }
    }

    /// The arguments after `mapwright` when `words` runs it: `mapwright`, a path ending in
    /// `/mapwright` (`.build/release/mapwright`, `/usr/local/bin/mapwright`) or `swift run
    /// mapwright` (with `swift run`'s own options before the product); nil for other commands.
    static func mapwrightArguments(_ words: [String]) -> [String]? {
        guard let first = words.first else { return nil }
        if first == "mapwright" || first.hasSuffix("/mapwright") { return Array(words.dropFirst()) }
        if first == "swift", words.count > 1, words[1] == "run", let index = words.firstIndex(of: "mapwright") {
            return Array(words[(index + 1)...])
        }
        return nil
    }

    static func examples() throws -> [Example] {
        var examples: [Example] = []
        for page in try pages() {
            for block in shellBlocks(in: try text(of: page)) {
                for command in shellCommands(block.text) {
                    if let arguments = mapwrightArguments(command.words) {
                        examples.append(Example(page: page, line: block.line + command.line, arguments: arguments))
                    }
                }
            }
        }
        return examples
    }

    /// Messages of the commands' own `validate()` about files on this machine: an example's
    /// `~/photos` or `/tiles/europe.mbtiles` need not exist here. Every other failure (an unknown
    /// option, a value of the wrong form, a missing argument, a value out of range) fails.
    static let fileSystemMessages = [
        "does not exist", "is not writable", "it is a folder", "is a file, not a folder", "cannot be read",
        "cannot write",
    ]

    @Test func theShellSplitterReadsWhatTheDocumentationWrites() {
        let text = """
            $ mapwright render --photographer "Signe Brander" \\
                --select 'first' -o - > map.png   # a comment
            bash scripts/setup.sh && swift run mapwright locate --zoom 3 2>/dev/null
            """
        let commands = Self.shellCommands(text)
        #expect(
            commands.map(\.words) == [
                ["mapwright", "render", "--photographer", "Signe Brander", "--select", "first", "-o", "-"],
                ["bash", "scripts/setup.sh"], ["swift", "run", "mapwright", "locate", "--zoom", "3"],
            ])
        #expect(commands.map(\.line) == [0, 2, 2])
        #expect(Self.mapwrightArguments(["/usr/local/bin/mapwright", "cluster"]) == ["cluster"])
        #expect(Self.mapwrightArguments(["swift", "run", "-c", "release", "mapwright", "serve"]) == ["serve"])
        #expect(Self.mapwrightArguments(["bash", "scripts/setup.sh"]) == nil)
    }

    @Test func everyMapwrightExampleParses() throws {
        let examples = try Self.examples()
        #expect(examples.count > 60, "only \(examples.count) examples found: is the extraction broken?")
        let commands = Set(examples.compactMap(\.arguments.first))
        #expect(
            commands.isSuperset(of: [
                "render", "serve", "tiles", "basemap", "terrain", "photos", "flyover", "cluster", "locate", "compare",
            ]))
        for example in examples {
            do {
                _ = try Mapwright.parseAsRoot(example.arguments)
            } catch {
                if Mapwright.exitCode(for: error) == .success { continue }  // --help, --version
                let message = Mapwright.message(for: error)
                let aboutFiles = Self.fileSystemMessages.contains { message.contains($0) }
                #expect(aboutFiles, "\(example): \(message)")
            }
        }
    }

    // MARK: - Links

    /// GitHub's anchor for a heading: lower case, punctuation and symbols dropped, spaces as
    /// hyphens.
    static func anchor(of heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
    }

    /// The anchors of a Markdown text's headings, outside code blocks, numbered as GitHub
    /// numbers repeated ones (`name`, `name-1`, ...).
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var counts: [String: Int] = [:]
        var inCode = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inCode.toggle()
                continue
            }
            guard !inCode, let match = line.firstMatch(of: /^#{1,6}\s+(.+?)\s*#*$/) else { continue }
            let base = anchor(of: String(match.output.1))
            let count = counts[base, default: 0]
            counts[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// The targets of a Markdown text's links and images, outside code blocks and code spans.
    static func linkTargets(in text: String) -> [(line: Int, target: String)] {
        var targets: [(Int, String)] = []
        var inCode = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inCode.toggle()
                continue
            }
            guard !inCode else { continue }
            let prose = line.replacing(/`[^`]*`/, with: "")
            for match in prose.matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/) {
                targets.append((index + 1, String(match.output.1)))
            }
        }
        return targets
    }

    @Test func everyRelativeLinkResolves() throws {
        var checked = 0
        for page in try Self.pages() {
            let folder = Self.root.appendingPathComponent(page).deletingLastPathComponent()
            for (line, target) in Self.linkTargets(in: try Self.text(of: page)) {
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(
                    String.init)
                let path = parts[0].removingPercentEncoding ?? parts[0]
                let file =
                    path.isEmpty
                    ? Self.root.appendingPathComponent(page) : folder.appendingPathComponent(path).standardizedFileURL
                let exists = FileManager.default.fileExists(atPath: file.path)
                #expect(exists, "\(page):\(line): \(target): no such file or folder in the checkout")
                guard exists, parts.count == 2 else { continue }
                #expect(
                    file.pathExtension == "md", "\(page):\(line): \(target): an anchor into a file that is not Markdown"
                )
                let anchors = Self.anchors(in: try String(contentsOf: file, encoding: .utf8))
                #expect(
                    anchors.contains(parts[1]),
                    "\(page):\(line): \(target): no heading with that anchor (\(anchors.sorted()))")
            }
        }
        #expect(checked > 40, "only \(checked) relative links found: is the scan broken?")
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.anchor(of: "`tiles export`") == "tiles-export")
        #expect(
            Self.anchor(of: "MBTiles reads and writes: `scripts/bench/mbtiles.sh`")
                == "mbtiles-reads-and-writes-scriptsbenchmbtilessh")
        #expect(Self.anchors(in: "# A\n## B\n```\n# C\n```\n## B\n") == ["a", "b", "b-1"])
    }

    // MARK: - Architecture

    @Test func architectureNamesEveryTargetOfThePackage() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = manifest.matches(of: /\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"/).map {
            String($0.output.1)
        }
        #expect(targets.count > 30, "only \(targets.count) targets found in Package.swift: is the pattern broken?")
        let architecture = try Self.text(of: "docs/architecture.md")
        for target in targets {
            #expect(
                architecture.contains("| `\(target)` |"),
                "docs/architecture.md has no table row for the target \(target)")
        }
    }

    // MARK: - Conformance figures

    /// One row of docs/conformance.md's per-category table.
    struct CategoryRow: Equatable {
        let tests: Int
        let passed: Int
        let failed: Int
        let errors: Int
    }

    static func number(_ text: some StringProtocol) -> Int? {
        Int(text.split(separator: " ").first.map { $0.replacingOccurrences(of: ",", with: "") } ?? "")
    }

    @Test func conformanceTableAgreesWithTheIgnoreList() throws {
        let page = try Self.text(of: "docs/conformance.md")
        var rows: [String: CategoryRow] = [:]
        for match in page.matches(of: /\n\| `([^`]+)` \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|/) {
            rows[String(match.output.1)] = CategoryRow(
                tests: Int(match.output.2)!, passed: Int(match.output.3)!, failed: Int(match.output.4)!,
                errors: Int(match.output.5)!)
        }
        #expect(rows.count > 100, "only \(rows.count) category rows found in docs/conformance.md")
        let ignores = try String(
            contentsOf: Self.root.appendingPathComponent("Conformance/ignores.txt"), encoding: .utf8)
        var ignored: [String: Int] = [:]
        for line in ignores.split(separator: "\n")
        where !line.hasPrefix("#") && !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let test = line.split(separator: " ")[0]
            ignored[String(test.split(separator: "/")[0]), default: 0] += 1
        }
        for (category, count) in ignored {
            #expect(
                rows[category] != nil,
                "docs/conformance.md has no row for \(category), which has \(count) tests in Conformance/ignores.txt")
        }
        for (category, row) in rows.sorted(by: { $0.key < $1.key }) {
            let expected = ignored[category, default: 0]
            #expect(
                row.failed + row.errors == expected,
                "docs/conformance.md: \(category) fails \(row.failed) and errs \(row.errors), but Conformance/ignores.txt lists \(expected) of its tests"
            )
            #expect(
                row.passed == row.tests - row.failed - row.errors,
                "docs/conformance.md: \(category)'s passed is not its tests less the failed and errors")
        }
        // The summary row for all tests.
        let all = try #require(page.firstMatch(of: /\n\| all \| ([\d,]+) \| ([\d,]+) \(/))
        #expect(
            Self.number(all.output.1) == rows.values.map(\.tests).reduce(0, +),
            "the summary's test count is not the categories' sum")
        #expect(
            Self.number(all.output.2) == rows.values.map(\.passed).reduce(0, +),
            "the summary's passes are not the categories' sum")
        // With the suite on this machine, each category's count of tests too.
        let environment = ProcessInfo.processInfo.environment["MAPWRIGHT_GL_SUITE"].map { URL(fileURLWithPath: $0) }
        let suite =
            environment ?? Self.root.deletingLastPathComponent().appendingPathComponent("shared/gl-render-suite")
        let tests = suite.appendingPathComponent("render/tests")
        guard FileManager.default.fileExists(atPath: tests.path) else { return }
        var counts: [String: Int] = [:]
        let walker = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.lastPathComponent == "style.json" else { continue }
            let relative = url.path.dropFirst(tests.path.count + 1)
            counts[String(relative.split(separator: "/")[0]), default: 0] += 1
        }
        #expect(Set(counts.keys) == Set(rows.keys), "the suite's categories and docs/conformance.md's rows differ")
        for (category, count) in counts {
            #expect(
                rows[category]?.tests == count,
                "docs/conformance.md: \(category) has \(rows[category]?.tests ?? 0) tests, the suite \(count)")
        }
    }
}
