import Foundation
import MapTestSupport
import Testing

/// scripts/k8s/: the Indexed Job's command is what `mapwright` takes, its shard count agrees
/// with the Job's completions, and its shards cover the export once; the merge job reads the
/// files the export writes; the serve Deployment's command serves, and its numbers agree.
@Suite struct KubernetesManifestTests {
    static let folder = MapwrightProcess.repository.appendingPathComponent("scripts/k8s")

    /// The shell command under `args: - >-` (a folded block: its lines joined by spaces).
    static func command(in manifest: String) throws -> String {
        let lines = manifest.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "- >-" })
        let indent = lines[start + 1].prefix { $0 == " " }.count
        return lines[(start + 1)...].prefix {
            $0.prefix { $0 == " " }.count == indent && !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
        .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    static func integer(_ key: String, in manifest: String) -> Int? {
        manifest.components(separatedBy: "\n").lazy.compactMap { line -> Int? in
            let parts = (line.split(separator: "#").first ?? "").split(separator: ":").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            return parts.count == 2 && parts[0] == key ? Int(parts[1]) : nil
        }.first
    }

    /// The first `KEY: VALUE` line's value, comments and quotes left out (`- KEY:` items are not matched).
    static func string(_ key: String, in manifest: String) -> String? {
        manifest.components(separatedBy: "\n").lazy.compactMap { line -> String? in
            let text = (line.split(separator: "#", omittingEmptySubsequences: false).first ?? "").trimmingCharacters(
                in: .whitespaces)
            guard text.hasPrefix(key + ":") else { return nil }
            let value = text.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }.first
    }

    /// The first whole number matched by `pattern`'s first capture group.
    static func number(_ pattern: String, in manifest: String) -> Int? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: manifest, range: NSRange(manifest.startIndex..., in: manifest)),
            let range = Range(match.range(at: 1), in: manifest)
        else { return nil }
        return Int(manifest[range])
    }

    /// serve-deployment.yaml's command, run here on loopback with its `/tiles/` and `/cache/`
    /// folders made in a temporary one (the Helsinki sample as the served tileset): every option
    /// is one `serve` takes, it becomes ready, serves the tileset and the style, and SIGTERM ends
    /// it with status 0. The figures the manifest repeats agree: the container's port is serve's,
    /// --jobs is the CPU limit, the grace period outlasts the preStop sleep and a render's
    /// longest wait; the autoscaler scales this Deployment.
    @Test func theServeDeploymentsCommandServes() async throws {
        let manifest = try String(
            contentsOf: Self.folder.appendingPathComponent("serve-deployment.yaml"), encoding: .utf8)
        let words = try Self.command(in: manifest).split(separator: " ").map(String.init)
        #expect(Array(words.prefix(3)) == ["exec", "mapwright", "serve"])
        func value(_ option: String) -> String? {
            words.firstIndex(of: option).flatMap { $0 + 1 < words.count ? words[$0 + 1] : nil }
        }
        #expect(value("--host") == "0.0.0.0")
        let port = try #require(value("--port").flatMap(Int.init))
        #expect(Self.integer("containerPort", in: manifest) == port)
        let jobs = try #require(value("--jobs").flatMap(Int.init))
        #expect(Self.number(#"limits: \{ cpu: "(\d+)""#, in: manifest) == jobs)
        #expect(
            Self.number(#"requests: \{ cpu: "(\d+)""#, in: manifest) == jobs,
            "the autoscaler counts CPU against the request")
        // serve keeps under --memory-limit; the container's limit leaves room above it for renders in flight.
        let memoryLimit = try #require(value("--memory-limit").flatMap(Int.init))
        let containerMebibytes = try #require(
            Self.number(#"limits: \{ cpu: "\d+", memory: "(\d+)Mi" \}"#, in: manifest))
        #expect(
            containerMebibytes >= memoryLimit + 96,
            "the container's \(containerMebibytes) Mi leaves room above --memory-limit \(memoryLimit)")
        let grace = try #require(Self.integer("terminationGracePeriodSeconds", in: manifest))
        let sleep = try #require(Self.number(#"command: \["sleep", "(\d+)"\]"#, in: manifest))
        let renderTimeout = value("--render-timeout").flatMap(Double.init) ?? 30
        #expect(
            Double(grace) > Double(sleep) + renderTimeout,
            "a response waiting for its render is finished before the pod is killed")
        #expect(
            manifest.components(separatedBy: "path: /health").count - 1 == 3,
            "startup, readiness and liveness probes on /health")
        let name = try #require(Self.string("name", in: manifest))
        let autoscaler = try String(contentsOf: Self.folder.appendingPathComponent("serve-hpa.yaml"), encoding: .utf8)
        #expect(autoscaler.contains("kind: Deployment\n    name: \(name)\n"), "serve-hpa.yaml scales \(name)")

        let folder = try TemporaryDirectory()
        let tileset = try #require(value("--tiles"))
        #expect(tileset.hasPrefix("/tiles/") && value("--cache")?.hasPrefix("/cache/") == true)
        for sub in ["tiles", "cache"] {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(
            at: MapwrightProcess.repository.appendingPathComponent("Samples/helsinki/helsinki.mbtiles"),
            to: folder.url.appendingPathComponent(String(tileset.dropFirst())))
        var arguments: [String] = []
        var index = 3
        while index < words.count {
            if ["--host", "--port"].contains(words[index]) {
                index += 2
                continue
            }
            arguments.append(
                words[index].replacingOccurrences(of: "/tiles/", with: folder.url.path + "/tiles/")
                    .replacingOccurrences(of: "/cache/", with: folder.url.path + "/cache/"))
            index += 1
        }
        let server = try ServeCommandTests.RunningServer(arguments, in: folder.url)
        defer { _ = server.stop() }
        try await server.waitUntilReady()
        let health = try await server.get("/health")
        #expect(health.status == 200 && String(decoding: health.data, as: UTF8.self) == "ok\n")
        let tilesetName = URL(fileURLWithPath: tileset).deletingPathExtension().lastPathComponent
        #expect(try await server.get("/tilesets/\(tilesetName)/14/9326/4741.pbf").status == 200)
        #expect(try await server.get("/styles/\(value("--style") ?? "standard")/0/0/0.png").status == 200)
        #expect(server.stop() == 0, "SIGTERM stops it gracefully: \(server.standardError)")
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
            process.arguments = [
                "-c", command.replacingOccurrences(of: "/tiles/", with: temporary.url.path + "/") + " --dry-run",
            ]
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
        let export = try Self.command(
            in: String(contentsOf: Self.folder.appendingPathComponent("export-job.yaml"), encoding: .utf8))
        let merge = try Self.command(
            in: String(contentsOf: Self.folder.appendingPathComponent("merge-job.yaml"), encoding: .utf8))
        // The export writes /tiles/shards/NAME-${JOB_COMPLETION_INDEX}.mbtiles; the merge reads NAME-*.mbtiles.
        let output = try #require(
            export.range(of: #"-o "([^"]+)\$\{JOB_COMPLETION_INDEX\}\.mbtiles""#, options: .regularExpression))
        let prefix = export[output].dropFirst(4).components(separatedBy: "${")[0]
        #expect(merge.contains("mapwright tiles merge \(prefix)*.mbtiles -o "))
    }
}
