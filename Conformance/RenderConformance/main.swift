import Dispatch
import Foundation
import ImageCodec
import Synchronization

// RenderConformance SUITE [--ignores FILE] [--check] [--update-ignores] [--filter PREFIX]
//                          [--diffs DIR] [--jobs N] [--basemap DIR]
//
// Renders every test of the GL render-test suite in this process, judges each as GL's harness
// does, prints the verdicts per category and overall (with the raw fraction of near misses), and
// with --check exits 1 when a test fails that the ignore list does not name, or a listed test
// passes (the list only shrinks). --update-ignores rewrites the list: passing tests leave it,
// failures are listed with the reason the runner saw now, and reasons written by hand (starting
// "known:") are kept.

struct Arguments {
    var suite: URL?
    var ignores: URL?
    var check = false
    var updateIgnores = false
    var filter: String?
    var diffs: URL?
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var basemap = URL(fileURLWithPath: "/nonexistent-basemap")

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ option: String) throws -> String {
            guard let next = rest.popFirst() else { throw RunnerFailure("\(option) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--ignores": ignores = URL(fileURLWithPath: try value(argument))
            case "--check": check = true
            case "--update-ignores": updateIgnores = true
            case "--filter": filter = try value(argument)
            case "--diffs": diffs = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--basemap": basemap = URL(fileURLWithPath: try value(argument), isDirectory: true)
            case "--jobs":
                guard let jobs = Int(try value(argument)), jobs >= 1 else {
                    throw RunnerFailure("--jobs: not a number of threads")
                }
                self.jobs = jobs
            case let option where option.hasPrefix("-"): throw RunnerFailure("\(option): unknown option")
            default:
                guard suite == nil else { throw RunnerFailure("\(argument): only one suite folder is taken") }
                suite = URL(fileURLWithPath: argument, isDirectory: true)
            }
        }
        guard suite != nil else {
            throw RunnerFailure(
                "usage: RenderConformance SUITE [--ignores FILE] [--check] [--update-ignores] [--filter PREFIX] [--diffs DIR] [--jobs N]"
            )
        }
        if check || updateIgnores, ignores == nil {
            throw RunnerFailure("--check and --update-ignores need --ignores FILE")
        }
    }
}

func runConformance() throws -> Int32 {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    let suite = arguments.suite!.standardizedFileURL
    let tests = try SuiteTest.all(in: suite).filter { test in arguments.filter.map { test.id.hasPrefix($0) } ?? true }
    let ignores =
        try arguments.ignores.map { url in
            FileManager.default.fileExists(atPath: url.path) || !arguments.updateIgnores
                ? try IgnoreList(contentsOf: url) : IgnoreList()
        } ?? IgnoreList()

    let started = DispatchTime.now().uptimeNanoseconds
    let verdicts = Verdicts(count: tests.count)
    let next = Counter()
    let running = RunningTests()
    let group = DispatchGroup()
    for _ in 0..<arguments.jobs {
        DispatchQueue.global().async(group: group) {
            while let index = next.take(below: tests.count) {
                running.start(tests[index].id)
                verdicts.set(index, TestRun.run(tests[index], suite: suite, basemap: arguments.basemap))
                running.end(tests[index].id)
            }
        }
    }
    // A render that never ends would hold CI until its time limit: one that takes longer than
    // this (the whole suite takes seconds) ends the run, naming the test.
    while group.wait(timeout: .now() + 5) == .timedOut {
        if let (id, seconds) = running.longest(), seconds > RunningTests.limitSeconds {
            FileHandle.standardError.write(
                Data("conformance: \(id) has been rendering for \(Int(seconds)) s; stopping the run\n".utf8))
            return 1
        }
    }
    let results = verdicts.all
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9

    if let diffs = arguments.diffs { try writeDiffs(results, to: diffs) }
    print(Report(verdicts: results, seconds: seconds).text)

    var surprises: [String] = []
    for verdict in results {
        let listed = ignores.reasons[verdict.test.id] != nil
        switch (verdict.outcome, listed) {
        case (.passed, true): surprises.append("\(verdict.test.id): passes now; remove it from the ignore list")
        case (.failed, false), (.error, false):
            surprises.append("\(verdict.test.id): \(Report.describe(verdict)) (not on the ignore list)")
        default: break
        }
    }
    if arguments.updateIgnores, let url = arguments.ignores {
        var updated = IgnoreList()
        let ran = Set(results.map(\.test.id))
        for (id, reason) in ignores.reasons where !ran.contains(id) { updated.reasons[id] = reason }
        for verdict in results where verdict.outcome != .passed {
            // A reason written by hand ("known: ...") is kept; the runner's own are refreshed.
            let kept = ignores.reasons[verdict.test.id].flatMap { $0.hasPrefix("known:") ? $0 : nil }
            updated.reasons[verdict.test.id] = kept ?? Report.describe(verdict)
        }
        try updated.text(header: IgnoreList.header).write(to: url, atomically: true, encoding: .utf8)
        print("wrote \(updated.reasons.count) tests to \(url.path)")
    }
    if arguments.check {
        for surprise in surprises { FileHandle.standardError.write(Data("conformance: \(surprise)\n".utf8)) }
        if !surprises.isEmpty {
            FileHandle.standardError.write(
                Data("conformance: \(surprises.count) verdicts differ from the ignore list\n".utf8))
            return 1
        }
        print("conformance: every verdict matches the ignore list (\(ignores.reasons.count) tests listed)")
    }
    return 0
}

/// Writes each failing test's render beside the name of its test, for a look.
func writeDiffs(_ verdicts: [Verdict], to folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for verdict in verdicts where verdict.outcome == .failed {
        guard let image = verdict.image else { continue }
        let name = verdict.test.id.replacingOccurrences(of: "/", with: "__")
        try image.pngData().write(to: folder.appendingPathComponent("\(name).png"))
    }
}

/// The next test to run, handed out once each.
final class Counter: Sendable {
    private let value = Mutex(0)
    func take(below limit: Int) -> Int? {
        value.withLock { value in
            guard value < limit else { return nil }
            value += 1
            return value - 1
        }
    }
}

/// The tests being rendered and when each started, for the watchdog.
final class RunningTests: Sendable {
    /// How long one test may render before the run stops: 120 s.
    static let limitSeconds = 120.0
    private let started = Mutex<[String: UInt64]>([:])
    func start(_ id: String) { started.withLock { $0[id] = DispatchTime.now().uptimeNanoseconds } }
    func end(_ id: String) { _ = started.withLock { $0.removeValue(forKey: id) } }
    /// The test rendering longest, and for how many seconds.
    func longest() -> (String, Double)? {
        let now = DispatchTime.now().uptimeNanoseconds
        return started.withLock { started in
            started.min { $0.value < $1.value }.map { ($0.key, Double(now - $0.value) / 1e9) }
        }
    }
}

/// The verdicts, each written once by the thread that ran its test.
final class Verdicts: Sendable {
    private let values: Mutex<[Verdict?]>
    init(count: Int) { values = Mutex(Array(repeating: nil, count: count)) }
    func set(_ index: Int, _ verdict: Verdict) { values.withLock { $0[index] = verdict } }
    var all: [Verdict] { values.withLock { $0.compactMap { $0 } } }
}

do {
    exit(try runConformance())
} catch {
    FileHandle.standardError.write(Data("conformance: \(error)\n".utf8))
    exit(2)
}
