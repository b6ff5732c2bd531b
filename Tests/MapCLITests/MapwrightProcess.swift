import Foundation
import Synchronization

/// Runs the built `mapwright` executable, found in the build directory holding this test binary.
struct MapwrightProcess {
    /// What a finished run printed and how it ended.
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// The bytes written to standard output, for binary output such as `render -o -`.
        var standardOutputData = Data()
    }

    /// The `mapwright` executable next to the running test binary (SwiftPM puts every product of
    /// a build in one directory, such as `.build/debug/`).
    static func executableURL() throws -> URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On macOS the binary sits inside `<name>.xctest/Contents/MacOS/`.
        while directory.pathExtension == "xctest" || ["Contents", "MacOS"].contains(directory.lastPathComponent) {
            directory.deleteLastPathComponent()
        }
        let executable = directory.appendingPathComponent("mapwright")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw MissingExecutable(path: executable.path)
        }
        return executable
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        var path: String
        var description: String { "no mapwright executable at \(path): run `swift build` before the tests" }
    }

    /// The repository root, where `Styles/`, `Samples/` and `Tiles/basemap/` are.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The environment of a user without street-level data: a data folder in `directory` of the
    /// checkout's styles and basemap (not its Tiles/streets/, which setup fills), no checkout
    /// lookup, and the user's data folder in `directory` (nothing registered).
    static func environmentWithoutStreets(in directory: URL) throws -> [String: String?] {
        let data = directory.appendingPathComponent("mapwright data")
        try FileManager.default.createDirectory(
            at: data.appendingPathComponent("Tiles"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: data.appendingPathComponent("Styles"), withDestinationURL: repository.appendingPathComponent("Styles"))
        try FileManager.default.createSymbolicLink(
            at: data.appendingPathComponent("Tiles/basemap"),
            withDestinationURL: repository.appendingPathComponent("Tiles/basemap"))
        return [
            "XDG_DATA_HOME": directory.appendingPathComponent("user data").path, "MAPWRIGHT_DATA": data.path,
            "MAPWRIGHT_NO_CHECKOUT": "1",
        ]
    }

    /// Runs `mapwright` with `arguments` in `directory` (by default the repository root) and
    /// waits for it to end, at most `timeoutSeconds`.
    ///
    /// - Parameters:
    ///   - environment: Variables added to this process's environment for the child, or
    ///     removed from it when nil. The default changes none.
    ///   - executable: The executable to run; nil (the default) for ``executableURL()``.
    ///   - timeoutSeconds: How long the run may take. The default is 300 s. A run still going
    ///     then is killed and ``TimedOut`` thrown, so a hung command fails its test, naming it,
    ///     rather than holding up the whole suite.
    static func run(
        _ arguments: [String], in directory: URL = repository, environment: [String: String?] = [:],
        executable: URL? = nil,
        timeoutSeconds: Double = 300
    ) throws -> Output {
        let process = Process()
        process.executableURL = try executable ?? executableURL()
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty {
            var childEnvironment = ProcessInfo.processInfo.environment
            for (key, value) in environment { childEnvironment[key] = value }
            process.environment = childEnvironment
        }
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()
        // The deadline kills the run: SIGTERM, then SIGKILL a second later if it is still there.
        let timedOut = Mutex(false)
        let pid = process.processIdentifier
        let deadline = DispatchWorkItem {
            guard process.isRunning else { return }
            timedOut.withLock { $0 = true }
            kill(pid, SIGTERM)
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { if process.isRunning { kill(pid, SIGKILL) } }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds, execute: deadline)
        // Both pipes drain at once, so neither fills while the other is read.
        nonisolated(unsafe) var error = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { error = standardError.fileHandleForReading.readDataToEndOfFile() }
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        deadline.cancel()
        if timedOut.withLock({ $0 }) {
            throw TimedOut(
                arguments: arguments, seconds: timeoutSeconds, standardError: String(decoding: error, as: UTF8.self))
        }
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self),
            standardOutputData: output
        )
    }

    /// A run that did not end in time, and was killed.
    struct TimedOut: Error, CustomStringConvertible {
        var arguments: [String]
        var seconds: Double
        var standardError: String
        var description: String {
            let said = standardError.split(separator: "\n").suffix(3).joined(separator: " / ")
            return
                "mapwright \(arguments.joined(separator: " ")) did not finish within \(Int(seconds)) s and was killed\(said.isEmpty ? "" : "; its last words: \(said)")"
        }
    }
}
