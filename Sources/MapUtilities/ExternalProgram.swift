import Dispatch
public import Foundation

/// A run of an outside program (tilemaker, GDAL, ffmpeg; python3 and others in tests): started
/// with its standard error drained on a thread of its own from the start, so that neither pipe
/// fills while the other is read, and waited for. ``run(_:_:in:environment:standardInput:mergingErrors:onOutput:)``
/// runs one to its end; a program fed while it runs (ffmpeg taking frames) is started with
/// ``init(_:_:in:environment:input:keepsOutput:mergingErrors:)`` and ended with ``wait(onOutput:)``.
public final class ExternalProgram: @unchecked Sendable {
    /// What a finished run printed and how it ended.
    public struct Outcome: Sendable {
        /// The exit status (the signal's number when a signal ended it).
        public var status: Int32
        /// Standard output, with standard error when the run merged them; empty when it was not kept.
        public var output: Data
        /// Standard error, when the run kept it apart; empty otherwise.
        public var errors: Data

        /// ``output`` as UTF-8 text.
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        /// ``errors`` as UTF-8 text.
        public var errorText: String { String(decoding: errors, as: UTF8.self) }

        public init(status: Int32, output: Data, errors: Data) {
            self.status = status
            self.output = output
            self.errors = errors
        }
    }

    /// Where the program's standard input comes from.
    public enum Input: Sendable {
        /// Nothing: `/dev/null`.
        case none
        /// A pipe this process writes to through ``input`` and closes (``wait(onOutput:)`` closes it too).
        case pipe
    }

    private let process: Process
    private let outputPipe: Pipe?
    private let errorsDrained = DispatchGroup()
    /// Standard error, filled by its draining thread; read after ``errorsDrained`` is done.
    nonisolated(unsafe) private var errorData = Data()
    private var outcome: Outcome?

    /// The write end of the program's standard input, for ``Input/pipe``; nil otherwise.
    public let input: FileHandle?

    /// Starts `executable` with `arguments`.
    ///
    /// - Parameters:
    ///   - directory: The working directory. The default is this process's.
    ///   - environment: The program's environment. The default (nil) is this process's.
    ///   - input: Its standard input. The default is none (`/dev/null`).
    ///   - keepsOutput: Whether standard output is kept (read by ``wait(onOutput:)``); else it
    ///     goes to `/dev/null`. The default keeps it.
    ///   - mergingErrors: Whether standard error goes with standard output (as a terminal shows
    ///     them); the default keeps them apart, for output to be parsed.
    /// - Throws: ``MapUtilitiesError/unstartableProgram(path:reason:)`` when it cannot be started.
    public init(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        input: Input = .none,
        keepsOutput: Bool = true, mergingErrors: Bool = false
    ) throws(MapUtilitiesError) {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let inputPipe = input == .pipe ? Pipe() : nil
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        self.input = inputPipe?.fileHandleForWriting
        let outputPipe = keepsOutput ? Pipe() : nil
        self.outputPipe = outputPipe
        process.standardOutput = outputPipe ?? FileHandle.nullDevice
        let errorPipe = mergingErrors ? nil : Pipe()
        process.standardError = mergingErrors ? (outputPipe ?? FileHandle.nullDevice) : errorPipe
        do { try process.run() } catch {
            throw .unstartableProgram(path: executable.path, reason: error.localizedDescription)
        }
        if let errorPipe {
            DispatchQueue.global().async(group: errorsDrained) { [self] in
                errorData = errorPipe.fileHandleForReading.readDataToEndOfFile()
            }
        }
    }

    /// Closes standard input (``Input/pipe``), reads standard output to its end on this thread
    /// and waits for the program to end; a second call returns the first's outcome.
    ///
    /// - Parameter onOutput: Called with everything printed so far each time more comes
    ///   (standard output, merged or not), on this thread. The default does nothing.
    @discardableResult
    public func wait(onOutput: (Data) -> Void = { _ in }) -> Outcome {
        finish(closingInput: true, onOutput: onOutput)
    }

    private func finish(closingInput: Bool, onOutput: (Data) -> Void = { _ in }) -> Outcome {
        if let outcome { return outcome }
        if closingInput { try? input?.close() }
        var output = Data()
        if let handle = outputPipe?.fileHandleForReading {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                output.append(chunk)
                onOutput(output)
            }
        }
        errorsDrained.wait()
        process.waitUntilExit()
        let finished = Outcome(status: process.terminationStatus, output: output, errors: errorData)
        outcome = finished
        return finished
    }

    /// Stops the program (SIGTERM) and waits for it to end.
    public func terminate() {
        try? input?.close()
        if process.isRunning { process.terminate() }
        wait()
    }

    /// Runs `executable` with `arguments` to its end.
    ///
    /// - Parameters:
    ///   - directory: The working directory. The default is this process's.
    ///   - environment: The program's environment. The default (nil) is this process's.
    ///   - standardInput: Bytes written to its standard input, from a thread of their own; nil
    ///     (the default) gives it none (`/dev/null`).
    ///   - mergingErrors: Whether standard error goes with standard output. The default keeps them apart.
    ///   - onOutput: Called with everything printed so far each time more comes, on this
    ///     thread. The default does nothing.
    /// - Throws: ``MapUtilitiesError/unstartableProgram(path:reason:)`` when it cannot be started.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
        standardInput: Data? = nil, mergingErrors: Bool = false, onOutput: (Data) -> Void = { _ in }
    ) throws(MapUtilitiesError) -> Outcome {
        let program = try ExternalProgram(
            executable, arguments, in: directory, environment: environment, input: standardInput == nil ? .none : .pipe,
            mergingErrors: mergingErrors)
        let fed = DispatchGroup()
        if let standardInput, let input = program.input {
            DispatchQueue.global().async(group: fed) {
                try? input.write(contentsOf: standardInput)
                try? input.close()
            }
        }
        let outcome = program.finish(closingInput: false, onOutput: onOutput)
        fed.wait()
        return outcome
    }
}
