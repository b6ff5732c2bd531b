import Foundation

/// One test of the GL render-test suite: `render/tests/CATEGORY/NAME/style.json` with its
/// `metadata.test` and its `expected*.png` images.
struct SuiteTest: Sendable {
    /// `CATEGORY/NAME`, as the ignore list names it.
    let id: String
    /// The test's folder.
    let directory: URL
    /// The first path component of ``id``: the property or feature tested.
    var category: String { String(id.split(separator: "/")[0]) }

    /// Every test below `suite/render/tests`, in id order: folders holding a `style.json`.
    static func all(in suite: URL) throws -> [SuiteTest] {
        let root = suite.appendingPathComponent("render/tests", isDirectory: true)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw RunnerFailure("\(root.path): no render tests there (is it the suite's folder?)")
        }
        var tests: [SuiteTest] = []
        for case let url as URL in walker where url.lastPathComponent == "style.json" {
            let directory = url.deletingLastPathComponent()
            let id = directory.path.dropFirst(root.path.count + 1)
            tests.append(SuiteTest(id: String(id), directory: directory))
        }
        guard !tests.isEmpty else {
            throw RunnerFailure("\(root.path): no render tests there (is it the suite's folder?)")
        }
        return tests.sorted { $0.id < $1.id }
    }

    /// The images a render may match: `expected.png` and its alternatives (`expected-*.png`).
    func expectedImages() -> [URL] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasPrefix("expected") && $0.hasSuffix(".png") }.sorted().map {
            directory.appendingPathComponent($0)
        }
    }

    /// Whether the test is about text, icons or symbols, which the next stage of the renderer
    /// draws: kept apart in the figures, as the suite's README does.
    var isSymbolTest: Bool {
        ["text-", "icon-", "symbol-"].contains { category.hasPrefix($0) }
    }

    /// Whether the test's style (or an operation's layer or style) draws a symbol layer or a
    /// sprite pattern (`*-pattern`, `background-pattern`): what the next stage of the renderer,
    /// sprites, icons and text, draws. Tests in other categories do so too (runtime styling,
    /// regressions); the report counts them apart.
    var drawsSymbolsOrPatterns: Bool {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("style.json"), encoding: .utf8) else {
            return false
        }
        let compact = text.filter { !$0.isWhitespace }
        return compact.contains("\"type\":\"symbol\"") || compact.contains("-pattern\":")
    }
}

/// What `metadata.test` says about a test, with GL's defaults.
struct TestMetadata {
    var width = 512
    var height = 512
    var pixelRatio = 1.0
    /// The share of pixels allowed to differ: `diff`, else GL's 0.00015.
    var allowance = 0.00015
    /// The runtime steps, as JSON arrays (`["setPaintProperty", "layer", "fill-color", "red"]`).
    var operations: [[Any]] = []

    init(_ test: [String: Any]) {
        if let width = test["width"] as? NSNumber { self.width = width.intValue }
        if let height = test["height"] as? NSNumber { self.height = height.intValue }
        if let ratio = test["pixelRatio"] as? NSNumber { pixelRatio = ratio.doubleValue }
        if let diff = test["diff"] as? NSNumber { allowance = diff.doubleValue }
        operations = (test["operations"] as? [[Any]]) ?? []
    }
}

/// A failure of the runner itself (a suite folder that is not one, an unreadable ignore list):
/// one line, exit status 2.
struct RunnerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
