import Foundation
import MapTestSupport
import MapUtilities
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

    /// scripts/k8s/Containerfile, the image the manifests name (its build cannot run here: no
    /// container engine): its build stage runs the scripts CI runs into the folder its runtime
    /// stage copies and puts on PATH; it runs as a user that is not root; it makes every folder
    /// the manifests mount, and serves on the port they expose; and every shared library the
    /// built binary loads, or opens on first use, comes from a package its runtime stage installs
    /// or one they depend on (Debian's packages, as `dpkg -S` and `apt-cache depends` say here).
    @Test func theImageRecipeHoldsWhatTheManifestsRun() throws {
        let recipe = try String(contentsOf: Self.folder.appendingPathComponent("Containerfile"), encoding: .utf8)
        #expect(recipe.contains("RUN bash scripts/setup.sh && bash scripts/install.sh /opt/mapwright"))
        #expect(recipe.contains("COPY --from=build /opt/mapwright /opt/mapwright"))
        #expect(recipe.contains("ENV PATH=/opt/mapwright/bin:$PATH"))
        let lines = recipe.components(separatedBy: "\n")
        let user = try #require(lines.last { $0.hasPrefix("USER ") }).dropFirst(5)
        #expect(!user.hasPrefix("0") && !user.hasPrefix("root"), "USER \(user)")
        let made = try #require(lines.first { $0.contains("mkdir -p") })
        let manifests = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".yaml")
        }
        for name in manifests {
            let manifest = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            if let image = Self.string("image", in: manifest) {
                #expect(recipe.contains(image), "\(name) names \(image)")
            }
            for line in manifest.components(separatedBy: "\n") where line.contains("mountPath:") {
                let path = line.components(separatedBy: "mountPath:")[1].trimmingCharacters(in: .whitespaces)
                #expect(made.contains(" " + path), "\(name) mounts \(path), which the image does not make")
            }
        }
        let deployment = try String(
            contentsOf: Self.folder.appendingPathComponent("serve-deployment.yaml"), encoding: .utf8)
        let port = try #require(Self.integer("containerPort", in: deployment))
        let command = try #require(lines.last { $0.hasPrefix("CMD ") })
        #expect(command.contains("\"serve\"") && command.contains("\"\(port)\""), "\(command)")
        #expect(recipe.contains("EXPOSE \(port)") && recipe.contains("/dev/tcp/127.0.0.1/\(port)"))

        // The runtime stage's packages, and what they depend on.
        let install = try #require(recipe.range(of: "apt-get install -y --no-install-recommends"))
        let packages = recipe[install.upperBound...].prefix { $0 != "&" }
            .split(whereSeparator: { $0 == " " || $0 == "\\" || $0 == "\n" }).map(String.init)
        #expect(packages.contains("libjs-leaflet") && packages.count > 20, "\(packages)")
        let closure = try Self.output(
            [
                "apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts",
                "--no-breaks",
                "--no-replaces", "--no-enhances",
            ] + packages)
        let installed = Set(packages).union(
            closure.components(separatedBy: "\n").filter { !$0.hasPrefix(" ") && !$0.isEmpty }.map {
                $0.split(separator: ":").first.map(String.init) ?? $0
            })
        // The libraries the binary loads, and those it opens on first use (CLibraryLoader).
        var libraries = try Self.output(["ldd", try MapwrightProcess.executableURL().path]).components(
            separatedBy: "\n"
        )
        .compactMap { line -> String? in
            let parts = line.components(separatedBy: " => ")
            return parts.count == 2 ? parts[1].components(separatedBy: " (")[0] : nil
        }
        let cache = try Self.output(["ldconfig", "-p"]).components(separatedBy: "\n")
        for soname in ["libproj.so.25", "libheif.so.1", "librsvg-2.so.2", "libcurl-gnutls.so.4"] {
            let line = try #require(cache.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") })
            libraries.append(try #require(line.components(separatedBy: " => ").last))
        }
        for library in libraries {
            let path = URL(fileURLWithPath: library).resolvingSymlinksInPath().path
            guard let owner = try? Self.output(["dpkg", "-S", path]).split(separator: ":").first.map(String.init) else {
                continue  // libc and the loader, which the base image has
            }
            let isInstalled = installed.contains(owner)
            #expect(isInstalled, "\(library) comes from \(owner), which the image does not install")
        }
    }

    /// What `arguments` print, run with the search path (`ExternalProgram`); throws when they fail.
    static func output(_ arguments: [String]) throws -> String {
        let outcome = try ExternalProgram.run(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        guard outcome.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(arguments[0]) failed"])
        }
        return outcome.outputText
    }
}
