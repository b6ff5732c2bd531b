import Foundation
import MapTestSupport
import Testing

/// scripts/k8s/: the Indexed Job's command is what `mapwright` takes, its shard count agrees
/// with the Job's completions, and its shards cover the export once; the merge job reads the
/// files the export writes.
@Suite struct KubernetesManifestTests {
    static let folder = MapwrightProcess.repository.appendingPathComponent("scripts/k8s")

    /// The shell command under `args: - >-` (a folded block: its lines joined by spaces).
    static func command(in manifest: String) throws -> String {
        let lines = manifest.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "- >-" })
        let indent = lines[start + 1].prefix { $0 == " " }.count
        return lines[(start + 1)...].prefix { $0.prefix { $0 == " " }.count == indent && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    static func integer(_ key: String, in manifest: String) -> Int? {
        manifest.components(separatedBy: "\n").lazy.compactMap { line -> Int? in
            let parts = (line.split(separator: "#").first ?? "").split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.count == 2 && parts[0] == key ? Int(parts[1]) : nil
        }.first
    }

    @Test func theExportJobsShardsCoverTheExportOnce() throws {
        let manifest = try String(contentsOf: Self.folder.appendingPathComponent("export-job.yaml"), encoding: .utf8)
        let completions = try #require(Self.integer("completions", in: manifest))
        #expect(Self.integer("parallelism", in: manifest) == completions)
        #expect(manifest.contains("completionMode: Indexed"))
        let command = try Self.command(in: manifest)
        #expect(command.contains("--shard \"${JOB_COMPLETION_INDEX}/\(completions)\""))

        // Each pod's command, run here with --dry-run: it parses, and the shards' tiles add up
        // to the whole export's, each shard named in its own line.
        let temporary = try TemporaryDirectory()
        let binFolder = try MapwrightProcess.executableURL().deletingLastPathComponent().path
        var total = 0
        var whole: Int?
        for index in 0..<completions {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command.replacingOccurrences(of: "/tiles/", with: temporary.url.path + "/") + " --dry-run"]
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = binFolder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["JOB_COMPLETION_INDEX"] = "\(index)"
            process.environment = environment
            process.currentDirectoryURL = MapwrightProcess.repository
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("total ") })
            let numbers = line.split(separator: " ").compactMap { Int($0.replacingOccurrences(of: ",", with: "")) }
            #expect(line.contains("(shard \(index)/\(completions) of the"), "\(line)")
            total += numbers[0]
            whole = numbers.last
        }
        #expect(total == whole)
        #expect((try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)).isEmpty)
    }

    @Test func theMergeJobReadsTheFilesTheExportWrites() throws {
        let export = try Self.command(in: String(contentsOf: Self.folder.appendingPathComponent("export-job.yaml"), encoding: .utf8))
        let merge = try Self.command(in: String(contentsOf: Self.folder.appendingPathComponent("merge-job.yaml"), encoding: .utf8))
        // The export writes /tiles/shards/NAME-${JOB_COMPLETION_INDEX}.mbtiles; the merge reads NAME-*.mbtiles.
        let output = try #require(export.range(of: #"-o "([^"]+)\$\{JOB_COMPLETION_INDEX\}\.mbtiles""#, options: .regularExpression))
        let prefix = export[output].dropFirst(4).components(separatedBy: "${")[0]
        #expect(merge.contains("mapwright tiles merge \(prefix)*.mbtiles -o "))
    }
}
