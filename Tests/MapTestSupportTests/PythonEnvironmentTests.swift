import Foundation
import MapTestSupport
import Testing

/// Environments without requirements, so these run without PyPI: the making, reuse and failures
/// are the same with packages.
struct PythonEnvironmentTests {
    @Test func environmentIsMadeInTheCacheFolderAndRunsScriptsWithArguments() throws {
        let cache = try TemporaryDirectory()
        let environment = PythonEnvironment(name: "plain", requirements: [], cacheDirectory: cache.url)
        #expect(environment.directory == cache.url.appendingPathComponent("test-python/plain", isDirectory: true))

        let output = try environment.run(
            "import sys, os; print(sys.argv[1], os.getcwd())", arguments: ["with spaces"], in: cache.url)
        #expect(output == "with spaces \(cache.url.resolvingSymlinksInPath().path)\n")
        #expect(try environment.python() == environment.directory.appendingPathComponent("bin/python"))
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.path("test-python"))
        #expect(left == ["plain"], "no half-made environment is left beside the whole one")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.url.path).sorted() == ["test-python"],
            "scripts are removed")
    }

    @Test func aLaterValueReusesTheEnvironmentAndOneFailingItsCheckIsMadeAgain() throws {
        let cache = try TemporaryDirectory()
        let first = PythonEnvironment(name: "reused", requirements: [], cacheDirectory: cache.url)
        let python = try first.python()
        let marker = first.directory.appendingPathComponent("marker")
        try Data().write(to: marker)

        _ = try PythonEnvironment(name: "reused", requirements: [], cacheDirectory: cache.url).python()
        #expect(FileManager.default.fileExists(atPath: marker.path), "the whole environment was used as it was")

        let checked = PythonEnvironment(
            name: "reused", requirements: [],
            check: "import os, sys; sys.exit(0 if not os.path.exists(\(pythonString(marker.path))) else 1)",
            cacheDirectory: cache.url
        )
        #expect(try checked.python() == python)
        #expect(!FileManager.default.fileExists(atPath: marker.path), "an environment failing its check is made again")
    }

    @Test func aFailingScriptThrowsItsStandardError() throws {
        let cache = try TemporaryDirectory()
        let environment = PythonEnvironment(name: "failing", requirements: [], cacheDirectory: cache.url)
        let error = try #require(throws: PythonEnvironment.Failure.self) {
            try environment.run("import sys; sys.stderr.write('no such tile'); sys.exit(3)", in: cache.url)
        }
        #expect(error.description == "the Python script failed (status 3): no such tile")
    }

    @Test func anEnvironmentThatCannotPassItsCheckFailsEveryTimeSayingSo() throws {
        let cache = try TemporaryDirectory()
        let environment = PythonEnvironment(
            name: "broken", requirements: [], check: "import no_such_module_here", cacheDirectory: cache.url)
        let expected = PythonEnvironment.Failure(
            description:
                "the Python environment at \(environment.directory.path) does not pass its check: import no_such_module_here"
        )
        #expect(throws: expected) { try environment.python() }
        #expect(throws: expected) { try environment.run("print(1)", in: cache.url) }
    }

    /// `text` as a Python string literal.
    private func pythonString(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
