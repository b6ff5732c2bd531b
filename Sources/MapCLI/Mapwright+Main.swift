import ArgumentParser
import Dispatch
import Foundation
import MapAssembly
public import MapUtilities

extension Mapwright {
    /// Runs the command line and ends the process with Mapwright's exit statuses.
    ///
    /// - 0: success (also `--help` and `--version`);
    /// - 1: the command ran and reports a negative outcome (images differ, no photo located),
    ///   by throwing `ExitCode(1)` or an error whose `exitStatus` is 1;
    /// - 2: bad input: an unparsable argument, an unreadable file, a failed validation;
    /// - 130: interrupted (a tile export's Ctrl-C).
    ///
    /// Errors are printed as one line, `mapwright: <message>`, on standard error: every module's
    /// typed error is an `ExitStatusError` and carries its own status, handled here only.
    public static func runAndExit(_ arguments: [String]? = nil) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            if let asyncCommand = command as? any AsyncParsableCommand {
                try runBlocking(asyncCommand)
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch {
            Foundation.exit(handle(error))
        }
    }

    /// Starts what the command in `arguments` (the process's, without the program) will need
    /// before the arguments are parsed, which takes ~5 ms of one core: for the commands that
    /// draw text (render, tiles export, serve, flyover), the fonts start loading on another
    /// (``MapInputs/prepareFonts(locations:)``), and for those that take `--style` (render,
    /// tiles export), their style file is read and decoded on another
    /// (``MapInputs/prefetchStyle(named:)``), found from the arguments as the parser will find it.
    /// For the executable to call first; a library embedding the commands need not.
    public static func prepare(for arguments: [String]) {
        func names(_ path: [any ParsableCommand.Type]) -> Bool {
            path.count <= arguments.count
                && zip(path, arguments).allSatisfy { command, argument in command.configuration.commandName == argument
                }
        }
        let drawingText: [[any ParsableCommand.Type]] = [
            [RenderCommand.self], [TilesCommand.self, TilesExportCommand.self], [ServeCommand.self],
            [FlyoverCommand.self],
        ]
        if drawingText.contains(where: names) { MapInputs.prepareFonts() }
        let styled: [[any ParsableCommand.Type]] = [
            [RenderCommand.self], [TilesCommand.self, TilesExportCommand.self],
        ]
        if let path = styled.first(where: names) {
            let options = Array(arguments.dropFirst(path.count))
            let style = lastValue(of: "--style", in: options) ?? StyleOptions.defaultStyle
            MapInputs(stylesDirectory: lastValue(of: "--styles-directory", in: options)).prefetchStyle(named: style)
        }
    }

    /// The value of the last `name VALUE` or `name=VALUE` in `arguments` (options whose values
    /// are taken as they come, as `StyleOptions`' are), up to a `--`; nil for none.
    static func lastValue(of name: String, in arguments: [String]) -> String? {
        var value: String?
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index] != "--" {
            let argument = arguments[index]
            if argument == name, index + 1 < arguments.endIndex {
                value = arguments[index + 1]
                index += 2
                continue
            }
            if argument.hasPrefix(name + "=") { value = String(argument.dropFirst(name.count + 1)) }
            index += 1
        }
        return value
    }

    /// Runs an async command (`serve`) to its end on Swift's concurrency pool while this thread waits.
    private static func runBlocking(_ command: any AsyncParsableCommand) throws {
        nonisolated(unsafe) var command = command
        nonisolated(unsafe) var outcome: Result<Void, any Error> = .success(())
        let done = DispatchSemaphore(value: 0)
        Task {
            do { try await command.run() } catch { outcome = .failure(error) }
            done.signal()
        }
        done.wait()
        try outcome.get()
    }

    /// Prints `error` as `mapwright: <message>` (or help text to standard output) and returns
    /// the exit status it stands for.
    static func handle(_ error: any Error) -> Int32 {
        // What the command printed comes first when both streams go to one place (`2>&1`): standard
        // output is buffered when it is not a terminal, standard error never.
        fflush(nil)
        if let exitCode = error as? ExitCode { return exitCode.rawValue }
        if let failure = error as? any ExitStatusError {
            FileHandle.standardError.write(Data("mapwright: \(failure.description)\n".utf8))
            return failure.exitStatus
        }
        let code = exitCode(for: error)
        if code == .success {
            print(fullMessage(for: error))
            return 0
        }
        let message =
            self.message(for: error)
            .split(separator: "\n").first.map(String.init) ?? "\(error)"
        let line = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
        FileHandle.standardError.write(Data("mapwright: \(line)\n".utf8))
        return 2
    }
}

extension Mapwright {
    /// Prints `mapwright: warning: <message>` on standard error.
    static func warn(_ message: String) {
        fflush(nil)
        FileHandle.standardError.write(Data("mapwright: warning: \(message)\n".utf8))
    }

    /// Runs `body` with a list to append warnings to (what the assembly's `warnings:` take), and
    /// prints them (``warn(_:)``) as it ends, also when it throws: before its error is printed.
    static func warning<T>(_ body: (inout [String]) throws -> T) rethrows -> T {
        var warnings: [String] = []
        defer { for warning in warnings { warn(warning) } }
        return try body(&warnings)
    }

    /// Keeps `object` alive until the process ends, for a command whose process ends when it
    /// returns: a render's map data holds its decoded tiles, hundreds of thousands of small
    /// allocations that freeing one by one costs ~5 ms of one core after the map is written, just
    /// before the system takes back the whole process at once (as compilers skip freeing at exit,
    /// clang's `-disable-free`). Only for the command line: a library or a server frees as usual.
    static func keepUntilExit(_ object: AnyObject) {
        _ = Unmanaged.passRetained(object)
    }

    /// Prints `mapwright: <step>` on standard error: one line per step.
    static func progress(_ step: String) {
        fflush(nil)
        FileHandle.standardError.write(Data("mapwright: \(step)\n".utf8))
    }
}

/// A failure that starts in the command line itself (a message naming options together), with
/// its own exit status and a one-line message for a person; the modules' errors are thrown as
/// they are.
public struct CommandFailure: ExitStatusError {
    /// The line printed after `mapwright: `.
    public var message: String
    /// The process exit status: 1 for a negative outcome, 2 for bad input.
    public var status: Int32

    /// Creates a failure; the default status 2 means bad input.
    public init(_ message: String, status: Int32 = 2) {
        self.message = message
        self.status = status
    }

    /// The ``message``.
    public var description: String { message }

    /// The ``status``.
    public var exitStatus: Int32 { status }
}
