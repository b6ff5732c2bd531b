import Foundation
import ImageCodec
import ImageCompare
import MapTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `mapwright serve` as people run it: the installed-style binary started from a temporary
/// folder with relative paths holding spaces, asked over real HTTP on loopback. Its maps equal
/// what `mapwright render` writes for the same request; bad options are one line.
@Suite(.serialized) struct ServeCommandTests {
    /// A running `mapwright serve`, stopped with SIGTERM when done.
    final class RunningServer: Sendable {
        let process: Process
        let port: Int
        private let errorText: TextBox

        /// Text appended from another thread.
        final class TextBox: Sendable {
            let value = Mutex("")
        }

        init(_ arguments: [String], in directory: URL) throws {
            let process = Process()
            process.executableURL = try MapwrightProcess.executableURL()
            process.arguments = ["serve", "--port", "0"] + arguments
            process.currentDirectoryURL = directory
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            let text = TextBox()
            errors.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                text.value.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
            try process.run()
            self.process = process
            // "mapwright: serving on http://127.0.0.1:PORT"
            var port: Int?
            let deadline = Date().addingTimeInterval(60)
            while port == nil, Date() < deadline, process.isRunning {
                let seen = text.value.withLock { $0 }
                if let range = seen.range(of: "serving on http://127.0.0.1:") {
                    port = Int(seen[range.upperBound...].prefix { $0.isNumber })
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            errorText = text
            guard let port else {
                process.terminate()
                throw Failure("serve did not start: \(text.value.withLock { $0 })")
            }
            self.port = port
        }

        var standardError: String { errorText.value.withLock { $0 } }

        func get(_ path: String) async throws -> (status: Int, data: Data) {
            let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
            let (data, response) = try await URLSession.shared.data(from: url)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        }

        /// Waits until `/health` says 200 (loading done).
        func waitUntilReady() async throws {
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline {
                if (try? await get("/health"))?.status == 200 { return }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            throw Failure("serve never became ready: \(standardError)")
        }

        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A temporary folder holding the sample photos as `my photos/`.
    static func folderWithPhotos() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        try FileManager.default.copyItem(
            at: MapwrightProcess.repository.appendingPathComponent("Samples/photos"),
            to: folder.url.appendingPathComponent("my photos"))
        return folder
    }

    @Test func servedMapsAreTheMapsRenderWritesForTheSameRequest() async throws {
        let folder = try Self.folderWithPhotos()
        let server = try RunningServer(["--photos", "my photos", "--jobs", "2"], in: folder.url)
        defer { _ = server.stop() }
        try await server.waitUntilReady()
        let cases: [(path: String, render: [String])] = [
            (
                "/maps/photos.png?photographer=Ansel%20Adams&select=first",
                ["--photographer", "Ansel Adams", "--select", "first"]
            ),
            ("/maps/photos.png?heatmap=true", ["--heatmap"]),
            (
                "/styles/standard/static/-119.6,37.7,8@30/600x400@2x.png",
                ["--center", "37.7,-119.6", "--zoom", "9", "--heading", "30", "--size", "600x400", "--scale", "2"]
            ),
            (
                "/styles/standard/static/-125,30,-115,45/500x400.png",
                ["--bbox", "-125,30,-115,45", "--size", "500x400"]
            ),
        ]
        for (index, item) in cases.enumerated() {
            let served = try await server.get(item.path)
            #expect(served.status == 200, "\(item.path): \(String(decoding: served.data.prefix(200), as: UTF8.self))")
            let output = "map \(index).png"
            let rendered = try MapwrightProcess.run(
                ["render", "--photos", "my photos"] + item.render + ["-o", output], in: folder.url)
            #expect(rendered.status == 0, "\(rendered.standardError)")
            let expected = try Data(contentsOf: folder.url.appendingPathComponent(output))
            let difference = try compare(
                try RGBAImage(pngData: served.data), try RGBAImage(pngData: expected), options: DiffOptions())
            #expect(
                difference.differentPixels == 0,
                "\(item.path) differs from render \(item.render) in \(difference.differentPixels) pixels")
            // Compared as one Bool: a failed comparison of two PNGs' bytes would have the test
            // library work out their difference byte by byte, which takes hours.
            let sameBytes = served.data == expected
            #expect(
                sameBytes,
                "\(item.path): the same PNG bytes (\(served.data.count) bytes served, \(expected.count) rendered)")
        }
        let thumbnail = try await server.get("/photos/ansel-adams%2Fel-capitan.jpg/thumbnail.jpg")
        #expect(thumbnail.status == 200)
        #expect(try RGBAImage(jpegData: thumbnail.data).width == 92)
        #expect(server.stop() == 0, "SIGTERM stops the server gracefully: \(server.standardError)")
    }

    /// The photos' density map as overlay tiles: coloured where the photos are (Yosemite, in
    /// tile 6/10/24), transparent far from them, listed in `/index.json` beside the pins.
    @Test func thePhotosDensityMapIsServedAsTransparentOverlayTiles() async throws {
        let folder = try Self.folderWithPhotos()
        let server = try RunningServer(["--photos", "my photos", "--jobs", "2"], in: folder.url)
        defer { _ = server.stop() }
        try await server.waitUntilReady()
        let near = try await server.get("/overlays/heatmap/6/10/24.png")
        #expect(near.status == 200, "\(String(decoding: near.data.prefix(200), as: UTF8.self))")
        let image = try RGBAImage(pngData: near.data)
        var coloured = 0
        var red = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image[x: x, y: y].alpha > 0 {
                coloured += 1
                if image[x: x, y: y].red > 200 && image[x: x, y: y].blue < 80 { red += 1 }
            }
        }
        #expect(
            coloured > 500 && red > 20,
            "the kernels over Yosemite, red where the photos crowd: \(coloured) coloured, \(red) red")
        let far = try RGBAImage(pngData: try await server.get("/overlays/heatmap/6/5/40.png").data)
        #expect(
            (0..<far.height).allSatisfy { y in (0..<far.width).allSatisfy { far[x: $0, y: y].alpha == 0 } },
            "nothing over the South Pacific")
        let index = String(decoding: try await server.get("/index.json").data, as: UTF8.self)
        #expect(index.contains("/overlays/heatmap/{z}/{x}/{y}.png"), "\(index)")
        #expect(try await server.get("/overlays/heatmap.json").status == 200)
        #expect(try await server.get("/overlays/density/6/10/24.png").status == 404)
        #expect(server.stop() == 0)
    }

    @Test(
        arguments: [
            (["--port", "70000"], "mapwright: --port: 70000 is not a port from 0 to 65535\n"),
            (["--port", "-1"], "mapwright: --port: -1 is not a port from 0 to 65535\n"),
            (["--tiles", "no such.mbtiles"], "mapwright: --tiles: 'no such.mbtiles' does not exist\n"),
            (["--cache", "cache.txt"], "mapwright: --cache: 'cache.txt' must end in .mbtiles\n"),
            (["--fonts", "no fonts"], "mapwright: --fonts: 'no fonts' does not exist\n"),
            (["--fonts", "/etc/passwd"], "mapwright: --fonts: '/etc/passwd' is a file, not a folder\n"),
            (
                ["--warm", "9-3"],
                "mapwright: --warm: MINZOOM 9 is above MAXZOOM 3 (the form is MINZOOM-MAXZOOM or ZOOM, e.g. 0-8)\n"
            ),
            (["--warm", "0-22"], "mapwright: --warm: zoom 22 is beyond --max-zoom 20\n"),
            (["--metatile", "0"], "mapwright: --metatile: 0 is not a size from 1 to 16 tiles a side\n"),
            (["--render-timeout", "0"], "mapwright: --render-timeout: 0.0 is not a number of seconds above 0\n"),
            (
                ["--public-url", "maps/"],
                "mapwright: --public-url: 'maps/' is not an http(s) address (https://example.org/maps/) or a path starting with / (/maps/)\n"
            ),
            (["--style", "nope"], nil),
        ] as [([String], String?)])
    func badOptionsAreOneLine(arguments: [String], message: String?) throws {
        let folder = try TemporaryDirectory()
        let result = try MapwrightProcess.run(["serve", "--port", "0"] + arguments, in: folder.url)
        #expect(result.status != 0)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        if let message {
            #expect(result.standardError == message)
        } else {
            #expect(result.standardError.contains("nope"))
        }
    }

    /// SIGINT, as Ctrl-C sends it, stops the server as SIGTERM does: the response in flight (a
    /// 3200x3200-pixel map, seconds of work on the one render thread) is finished and sent, and
    /// the exit status is 0. (`scripts/reliability.sh` check 3c does the same for SIGTERM with 192
    /// requests in flight.)
    @Test func sigintFinishesTheResponseInFlightAndExitsZero() async throws {
        let folder = try TemporaryDirectory()
        let server = try RunningServer(["--jobs", "1"], in: folder.url)
        defer { _ = server.stop() }
        try await server.waitUntilReady()
        async let rendering = server.get("/styles/standard/static/10,45,4/1600x1600@2x.png")
        // The request reaches the server and its render starts; then Ctrl-C.
        try await Task.sleep(nanoseconds: 500_000_000)
        server.process.interrupt()
        let first = try await rendering
        #expect(first.status == 200, "the map rendering when SIGINT came was answered")
        #expect(try RGBAImage(pngData: first.data).width == 3200)
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0, "\(server.standardError)")
        #expect(server.process.terminationReason == .exit)
    }

    /// A port another process listens on, and an address that is not this machine's, fail at
    /// start-up with one line naming the option and the problem, and nothing on standard output.
    @Test func aPortInUseAndAForeignAddressAreOneLine() throws {
        let folder = try TemporaryDirectory()
        let holder = try ListeningSocket()
        let inUse = try MapwrightProcess.run(["serve", "--port", "\(holder.port)"], in: folder.url)
        #expect(inUse.status == 2)
        #expect(
            inUse.standardError
                == "mapwright: --port \(holder.port): the address 127.0.0.1:\(holder.port) is already in use\n")
        #expect(inUse.standardOutput.isEmpty, "\(inUse.standardOutput)")
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never a local address.
        let foreign = try MapwrightProcess.run(["serve", "--port", "0", "--host", "192.0.2.1"], in: folder.url)
        #expect(foreign.status == 2)
        #expect(foreign.standardError == "mapwright: --host 192.0.2.1: 192.0.2.1 is not an address of this machine\n")
        #expect(foreign.standardOutput.isEmpty, "\(foreign.standardOutput)")
    }

    /// Photos are loaded once the server listens; a source that fails stops it quietly, so its
    /// reason is the one line printed.
    @Test func aPhotoSourceThatFailsIsTheOneLinePrinted() throws {
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("empty photos"), withIntermediateDirectories: false)
        let result = try MapwrightProcess.run(["serve", "--port", "0", "--photos", "empty photos"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.standardError == "mapwright: no photo files (JPEG, HEIC or raw) in empty photos\n")
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
    }

    /// A socket listening on a free port of 127.0.0.1, closed on deinit.
    final class ListeningSocket {
        let descriptor: Int32
        let port: Int

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
                }
            }
            guard descriptor >= 0, bound, listen(descriptor, 1) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure("cannot listen on 127.0.0.1: \(reason)")
            }
            self.descriptor = descriptor
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }
}
