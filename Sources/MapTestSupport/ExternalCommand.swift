public import Foundation

/// Runs another program (python3, gdalinfo, mb-util…) the way a person would, for tests that
/// check our files against outside tools.
public struct ExternalCommand {
    /// What a finished run printed and how it ended.
    public struct Output {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String

        /// Both streams, for a failure message.
        public var transcript: String { "status \(status)\n\(standardOutput)\n\(standardError)" }
    }

    /// Whether `name` is an executable on `PATH`.
    public static func isInstalled(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { folder in
            FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)")
        }
    }

    /// Runs `executable` (a path, or a name looked up on `PATH`) with `arguments` and waits for it.
    ///
    /// - Parameters:
    ///   - standardInput: Bytes written to the program's standard input. The default is none.
    ///   - directory: The working directory. The default is this process's.
    public static func run(_ executable: String, _ arguments: [String], standardInput: Data? = nil, in directory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : "/usr/bin/env")
        process.arguments = executable.contains("/") ? arguments : [executable] + arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), error = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = input
        try process.run()
        if let standardInput { input.fileHandleForWriting.write(standardInput) }
        try input.fileHandleForWriting.close()
        // Both pipes drain at once, so neither fills while the other is read.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errorData = error.fileHandleForReading.readDataToEndOfFile() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }
}
