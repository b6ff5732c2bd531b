import Foundation
import MapUtilities
import Testing

/// Outside programs run to their end, or fed while they run, their output drained.
struct ExternalProgramTests {
    private static let shell = URL(fileURLWithPath: "/bin/sh")

    @Test func bothStreamsAndTheStatusAreKept() throws {
        let run = try ExternalProgram.run(Self.shell, ["-c", "echo out; echo err >&2; exit 3"])
        #expect(run.status == 3 && run.outputText == "out\n" && run.errorText == "err\n")
        let merged = try ExternalProgram.run(Self.shell, ["-c", "echo out; echo err >&2"], mergingErrors: true)
        #expect(merged.outputText.contains("out") && merged.outputText.contains("err") && merged.errors.isEmpty)
    }

    @Test func largeOutputOnBothStreamsDoesNotBlock() throws {
        // 4 MB on each stream, far more than a pipe holds.
        let run = try ExternalProgram.run(
            Self.shell, ["-c", "head -c 4000000 /dev/zero; head -c 4000000 /dev/zero >&2"])
        #expect(run.output.count == 4_000_000 && run.errors.count == 4_000_000)
    }

    @Test func inputIsFedAndOutputSeenAsItComes() throws {
        let input = Data(repeating: UInt8(ascii: "x"), count: 1_000_000)
        var calls = 0
        let run = try ExternalProgram.run(URL(fileURLWithPath: "/bin/cat"), [], standardInput: input) { _ in calls += 1
        }
        #expect(run.output == input && calls >= 1)

        let fed = try ExternalProgram(URL(fileURLWithPath: "/bin/cat"), [], input: .pipe)
        try fed.input?.write(contentsOf: Data("frame".utf8))
        #expect(fed.wait().outputText == "frame")
        #expect(fed.wait().outputText == "frame", "a second wait returns the first's outcome")
    }

    @Test func aProgramThatCannotStartIsNamed() throws {
        #expect { try ExternalProgram.run(URL(fileURLWithPath: "/nonexistent/tool"), []) } throws: { error in
            guard let error = error as? MapUtilitiesError, case .unstartableProgram(let path, _) = error else {
                return false
            }
            return path == "/nonexistent/tool"
                && error.description.hasPrefix("/nonexistent/tool: cannot start the program: ")
        }
    }
}
