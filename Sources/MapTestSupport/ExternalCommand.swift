public import Foundation
import MapUtilities

/// Runs another program (python3, gdalinfo, mb-util…) the way a person would, for tests that
/// check our files against outside tools: a thin use of MapUtilities' ``MapUtilities/ExternalProgram``.
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
    public static func run(
        _ executable: String, _ arguments: [String], standardInput: Data? = nil, in directory: URL? = nil
    ) throws -> Output {
        let outcome = try ExternalProgram.run(
            URL(fileURLWithPath: executable.contains("/") ? executable : "/usr/bin/env"),
            executable.contains("/") ? arguments : [executable] + arguments, in: directory, standardInput: standardInput
        )
        return Output(status: outcome.status, standardOutput: outcome.outputText, standardError: outcome.errorText)
    }
}
