import Foundation
import MapJSON
import MapUtilities

/// PyPI's `pmtiles` package (the reference Python reader and writer) in a virtual environment of
/// its own, made once per user under `~/.cache/mapwright/test-python/` and reused by later runs.
///
/// The environment is made beside its final place and renamed into it when `pip install`
/// succeeds, so a half-made one is never used, and two test processes making it at once both
/// end up with a whole one. When pip cannot reach PyPI, ``python`` is a failure that says so,
/// and the tests that need it fail with that message; they never pass without running.
enum PythonPMTiles {
    /// What pip installs: the PyPI package at major version 3, the PMTiles v3 reader and writer.
    static let requirement = "pmtiles>=3,<4"

    /// Why the environment could not be made, in plain words.
    struct SetupFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The environment's `python`, made on first use (once per test process).
    static let python: Result<URL, SetupFailure> = makeEnvironment()

    /// The environment's folder: `test-python/pmtiles-3` in Mapwright's cache folder.
    static var environmentDirectory: URL {
        DataLocations().cacheDirectory.appendingPathComponent("test-python/pmtiles-3", isDirectory: true)
    }

    /// Runs `script` with the environment's python and `arguments`; returns its standard output.
    ///
    /// - Throws: ``SetupFailure`` when the environment cannot be made or the script fails (with
    ///   its standard error).
    static func run(_ script: String, arguments: [String], in directory: URL) throws -> String {
        let python = try python.get()
        let scriptURL = directory.appendingPathComponent("script-\(UUID().uuidString).py")
        try Data(script.utf8).write(to: scriptURL)
        let result = try runProcess(python.path, [scriptURL.path] + arguments, in: directory)
        guard result.status == 0 else {
            throw SetupFailure(description: "the Python script failed (status \(result.status)): \(result.standardError)")
        }
        return result.standardOutput
    }

    private static func makeEnvironment() -> Result<URL, SetupFailure> {
        let final = environmentDirectory
        let python = final.appendingPathComponent("bin/python")
        if works(python) { return .success(python) }
        let parent = final.deletingLastPathComponent()
        let building = parent.appendingPathComponent(".pmtiles-3.\(UUID().uuidString).tmp", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: building) }
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            let venv = try runProcess("/usr/bin/env", ["python3", "-m", "venv", building.path], in: parent)
            guard venv.status == 0 else {
                return .failure(SetupFailure(description: "python3 -m venv failed (is python3-venv installed? scripts/setup.sh installs it): \(venv.standardError)"))
            }
            let pip = try runProcess(
                building.appendingPathComponent("bin/python").path,
                ["-m", "pip", "install", "--disable-pip-version-check", "--quiet", "--timeout", "30", "--retries", "2", requirement],
                in: parent
            )
            guard pip.status == 0 else {
                let lines = pip.standardError.split(separator: "\n")
                let reason = lines.last(where: { $0.hasPrefix("ERROR") }).map(String.init) ?? lines.suffix(2).joined(separator: " | ")
                return .failure(SetupFailure(description: "pip could not install \(requirement) from PyPI (is the network reachable?): \(reason)"))
            }
        } catch {
            return .failure(SetupFailure(description: "cannot make the Python environment in \(parent.path): \(error)"))
        }
        // Another test process may have finished first; either environment will do.
        if !works(python) {
            try? FileManager.default.removeItem(at: final)
            try? FileManager.default.moveItem(at: building, to: final)
        }
        guard works(python) else {
            return .failure(SetupFailure(description: "the Python environment at \(final.path) does not import pmtiles"))
        }
        return .success(python)
    }

    /// Whether `python` exists and imports the package's reader and writer.
    private static func works(_ python: URL) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
        let result = try? runProcess(python.path, ["-c", "import pmtiles.reader, pmtiles.writer"], in: FileManager.default.temporaryDirectory)
        return result?.status == 0
    }

    /// Runs a program to its end, its output gathered in files (no pipe to fill up and block).
    private static func runProcess(
        _ executable: String, _ arguments: [String], in directory: URL
    ) throws -> (status: Int32, standardOutput: String, standardError: String) {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("mapwright-python-\(UUID().uuidString).out")
        let errorURL = outputURL.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus,
            (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        )
    }
}
