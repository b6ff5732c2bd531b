import Foundation

/// A run of an outside program that the assembly drives (tilemaker, GDAL's gdalinfo and
/// gdalwarp): started without standard input, its output collected, its status kept.
struct ExternalTool {
    /// What a finished run printed and how it ended (-1 when it could not be started).
    struct Run {
        var status: Int32
        /// Standard output, with standard error when the run merged them.
        var output: String
        /// Standard error, when the run kept it apart; empty otherwise.
        var errors: String
    }

    /// Runs `executable` and waits for it.
    ///
    /// - Parameters:
    ///   - folder: The working directory. The default is this process's.
    ///   - mergingErrors: Whether standard error goes with standard output (as a terminal shows
    ///     them); the default keeps them apart, for output to be parsed.
    ///   - onOutput: Called with everything printed so far each time more comes (standard output,
    ///     merged or not), from the calling thread. The default does nothing.
    static func run(
        _ executable: URL, _ arguments: [String], in folder: URL? = nil, mergingErrors: Bool = false, onOutput: (Data) -> Void = { _ in }
    ) -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let outputPipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = mergingErrors ? outputPipe : errorPipe
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            return Run(status: -1, output: "", errors: "it could not be started: \(error.localizedDescription)")
        }
        // Standard error drains on its own thread, so neither pipe fills while the other is read.
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        if !mergingErrors {
            DispatchQueue.global().async(group: group) { errorData = errorPipe.fileHandleForReading.readDataToEndOfFile() }
        }
        var output = Data()
        let handle = outputPipe.fileHandleForReading
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
            onOutput(output)
        }
        group.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), errors: String(decoding: errorData, as: UTF8.self))
    }
}
