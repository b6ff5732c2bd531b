public import Foundation
public import MapUtilities
import Synchronization

/// A Python virtual environment of the tests' own, holding PyPI packages that serve as outside
/// references (the `pmtiles` reader and writer, `mapbox-vector-tile`), made once per user under
/// `test-python/NAME` in Mapwright's cache folder (`~/.cache/mapwright` by default) and reused by
/// later runs.
///
/// The environment is made beside its final place and renamed into it when `pip install`
/// succeeds, so a half-made one is never used, and two test processes making it at once both end
/// up with a whole one. It is made on first use, once per value; keep one value per environment
/// in a `static let`. When pip cannot reach PyPI, ``python()`` throws a ``Failure`` that says so,
/// and the tests that need the environment fail with that message: they never pass without running.
///
/// For example:
///
/// ```swift
/// static let environment = PythonEnvironment(
///     name: "pmtiles-3", requirements: ["pmtiles>=3,<4"], check: "import pmtiles.reader")
/// let output = try environment.run("import sys; print(sys.argv[1])", arguments: ["hello"], in: folder)
/// ```
public final class PythonEnvironment: Sendable {
    /// Why the environment could not be made or a script failed, in plain words.
    public struct Failure: Error, CustomStringConvertible, Hashable, Sendable {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The environment's folder name under `test-python/`; name the major versions required in
    /// it (`pmtiles-3`), so a change of requirements makes a new environment.
    public let name: String
    /// What pip installs, as pip's requirement specifiers (`"pmtiles>=3,<4"`); may be empty.
    public let requirements: [String]
    /// Python statements that must run without error in a whole environment, such as the imports
    /// the tests need; an existing environment where they fail is made again.
    public let check: String
    /// The environment's folder: `test-python/NAME` in the cache folder given to ``init(name:requirements:check:cacheDirectory:)``.
    public let directory: URL

    /// The environment's `python`, or why there is none, once made.
    private let made = Mutex<Result<URL, Failure>?>(nil)

    /// Describes an environment; nothing is made until ``python()`` or ``run(_:arguments:in:)``.
    ///
    /// - Parameters:
    ///   - name: The folder name under `test-python/`, such as `mapbox-vector-tile-2`.
    ///   - requirements: pip requirement specifiers.
    ///   - check: Python statements a whole environment runs without error. The default, `pass`,
    ///     checks only that its `python` starts.
    ///   - cacheDirectory: The folder holding `test-python/`. The default is Mapwright's cache
    ///     folder, ``UserDirectories/cacheDirectory``.
    public init(
        name: String, requirements: [String], check: String = "pass",
        cacheDirectory: URL = UserDirectories().cacheDirectory
    ) {
        self.name = name
        self.requirements = requirements
        self.check = check
        directory = cacheDirectory.appendingPathComponent("test-python/\(name)", isDirectory: true)
    }

    /// The environment's `python`, made on first use (once per value, whichever thread asks).
    ///
    /// - Throws: ``Failure`` when `python3 -m venv` or `pip install` fails, or the made
    ///   environment does not pass ``check``; the same failure on every later call.
    public func python() throws(Failure) -> URL {
        let result = made.withLock { made in
            if let made { return made }
            let result = makeEnvironment()
            made = result
            return result
        }
        return try result.get()
    }

    /// Runs `script` with the environment's python and `arguments`; returns its standard output.
    ///
    /// - Parameter directory: The working directory; the script is written there as a file.
    /// - Throws: ``Failure`` when the environment cannot be made or the script exits with a
    ///   status other than 0 (with its standard error).
    public func run(_ script: String, arguments: [String] = [], in directory: URL) throws(Failure) -> String {
        let python = try python()
        let scriptURL = directory.appendingPathComponent("script-\(UUID().uuidString).py")
        do {
            try Data(script.utf8).write(to: scriptURL)
        } catch {
            throw Failure(description: "cannot write the Python script in \(directory.path): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: scriptURL) }
        let result = try Self.runProcess(python.path, [scriptURL.path] + arguments, in: directory)
        guard result.status == 0 else {
            throw Failure(description: "the Python script failed (status \(result.status)): \(result.standardError)")
        }
        return result.standardOutput
    }

    private func makeEnvironment() -> Result<URL, Failure> {
        let python = directory.appendingPathComponent("bin/python")
        if works(python) { return .success(python) }
        let parent = directory.deletingLastPathComponent()
        let building = parent.appendingPathComponent(".\(name).\(UUID().uuidString).tmp", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: building) }
        do throws(Failure) {
            do {
                try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            } catch {
                throw Failure(description: "cannot make the folder \(parent.path): \(error)")
            }
            let venv = try Self.runProcess("/usr/bin/env", ["python3", "-m", "venv", building.path], in: parent)
            guard venv.status == 0 else {
                throw Failure(
                    description:
                        "python3 -m venv failed (is python3-venv installed? scripts/setup.sh installs it): \(venv.standardError)"
                )
            }
            if !requirements.isEmpty {
                let pip = try Self.runProcess(
                    building.appendingPathComponent("bin/python").path,
                    [
                        "-m", "pip", "install", "--disable-pip-version-check", "--quiet", "--timeout", "30",
                        "--retries", "2",
                    ] + requirements,
                    in: parent
                )
                guard pip.status == 0 else {
                    let lines = pip.standardError.split(separator: "\n")
                    let reason =
                        lines.last(where: { $0.hasPrefix("ERROR") }).map(String.init)
                        ?? lines.suffix(2).joined(separator: " | ")
                    let wanted = requirements.joined(separator: " ")
                    throw Failure(
                        description: "pip could not install \(wanted) from PyPI (is the network reachable?): \(reason)")
                }
            }
        } catch {
            return .failure(error)
        }
        // Another test process may have finished first; either environment will do.
        if !works(python) {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.moveItem(at: building, to: directory)
        }
        guard works(python) else {
            return .failure(
                Failure(description: "the Python environment at \(directory.path) does not pass its check: \(check)"))
        }
        return .success(python)
    }

    /// Whether `python` exists and runs ``check``.
    private func works(_ python: URL) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { return false }
        let result = try? Self.runProcess(python.path, ["-c", check], in: FileManager.default.temporaryDirectory)
        return result?.status == 0
    }

    /// Runs a program to its end (``MapUtilities/ExternalProgram``), without pip's version check
    /// or bytecode files.
    private static func runProcess(
        _ executable: String, _ arguments: [String], in directory: URL
    ) throws(Failure) -> (status: Int32, standardOutput: String, standardError: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let outcome: ExternalProgram.Outcome
        do throws(MapUtilitiesError) {
            outcome = try ExternalProgram.run(
                URL(fileURLWithPath: executable), arguments, in: directory, environment: environment)
        } catch {
            throw Failure(description: "cannot run \(executable): \(error)")
        }
        return (outcome.status, outcome.outputText, outcome.errorText)
    }
}
