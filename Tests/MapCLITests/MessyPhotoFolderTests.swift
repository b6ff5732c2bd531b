import Foundation
import ImageCodec
import MapTestSupport
import Testing

/// `--photos` with a folder holding files that are not photos: they are skipped with one warning
/// line, or with `--strict` the first is an error naming it.
struct MessyPhotoFolderTests {
    /// A copy of Samples/photos with a file that is not a JPEG, one cut short, a link to nothing,
    /// and a link back to the folder itself.
    private func messyFolder(in directory: TemporaryDirectory) throws -> URL {
        let folder = directory.file("photos")
        try FileManager.default.copyItem(
            at: MapwrightProcess.repository.appendingPathComponent("Samples/photos"), to: folder)
        try Data("GIF89a".utf8).write(to: folder.appendingPathComponent("x.jpg"))
        let sample = try Data(contentsOf: folder.appendingPathComponent("li-ming/great-wall.jpg"))
        try sample.prefix(40).write(to: folder.appendingPathComponent("li-ming/cut.jpg"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("gone.jpg").path, withDestinationPath: "/nonexistent/gone.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("ansel-adams/all").path, withDestinationPath: "..")
        return folder
    }

    @Test func badFilesAreSkippedWithOneWarningLineAndTheMapIsDrawn() throws {
        let directory = try TemporaryDirectory()
        let folder = try messyFolder(in: directory)
        let output = directory.file("map.png")
        let result = try MapwrightProcess.run([
            "render", "--photos", folder.path, "--size", "300x200", "-o", output.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardError == "mapwright: warning: \(folder.path): 5 photos were skipped: "
                + "2 have no GPS location, 1 is not a JPEG, 1 is damaged or cut short, 1 cannot be read\n")
        #expect(try RGBAImage(contentsOf: output).width == 300)

        let clusters = try MapwrightProcess.run(["cluster", "--photos", folder.path, "--zoom", "0"])
        #expect(clusters.status == 0, "\(clusters.standardError)")
        #expect(clusters.standardOutput.contains("at zoom 0"))
    }

    /// A photo without read permission is skipped and a thumbnail cache without write permission
    /// is a warning, as a user other than the files' owner meets them. Root reads and writes
    /// whatever the permissions, so as root (CI) the binary runs as `nobody` through `setpriv`.
    @Test func anUnreadablePhotoAndAReadOnlyCacheAreWarningsAndTheMapIsDrawn() throws {
        let directory = try TemporaryDirectory()
        let manager = FileManager.default
        let folder = directory.file("photos")
        let output = directory.file("out")
        let cache = directory.file("cache")
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let samples = MapwrightProcess.repository.appendingPathComponent("Samples/photos/ansel-adams")
        try manager.copyItem(
            at: samples.appendingPathComponent("el-capitan.jpg"), to: folder.appendingPathComponent("el-capitan.jpg"))
        let locked = folder.appendingPathComponent("locked.jpg")
        try manager.copyItem(at: samples.appendingPathComponent("tunnel-view.jpg"), to: locked)
        try manager.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        let thumbnails = cache.appendingPathComponent("mapwright/thumbnails")
        try manager.createDirectory(at: thumbnails, withIntermediateDirectories: true)
        for (folder, mode) in [
            (directory.url, 0o755), (output, 0o777), (cache, 0o777), (cache.appendingPathComponent("mapwright"), 0o777),
            (thumbnails, 0o555),
        ] {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: folder.path)
        }
        let arguments = [
            "render", "--photos", folder.path, "--select", "first", "--size", "300x200", "-o",
            output.appendingPathComponent("map.png").path,
        ]
        let asAnotherUser = geteuid() == 0
        let result = try MapwrightProcess.run(
            asAnotherUser
                ? ["--reuid=65534", "--regid=65534", "--clear-groups", try MapwrightProcess.executableURL().path]
                    + arguments : arguments,
            in: directory.url,
            environment: ["XDG_CACHE_HOME": cache.path, "HOME": directory.url.path, "TMPDIR": output.path],
            executable: asAnotherUser ? URL(fileURLWithPath: "/usr/bin/setpriv") : nil)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "mapwright: warning: \(folder.path): 1 photo cannot be read and was skipped\n"),
            "\(result.standardError)")
        #expect(
            result.standardError.contains(
                "mapwright: warning: thumbnail cache cache/mapwright/thumbnails: cannot be written: "),
            "\(result.standardError)")
        #expect(try RGBAImage(contentsOf: output.appendingPathComponent("map.png")).width == 300)
        #expect(try manager.contentsOfDirectory(atPath: thumbnails.path).isEmpty)
    }

    @Test func strictMakesTheFirstBadFileAnErrorNamingIt() throws {
        let directory = try TemporaryDirectory()
        let folder = try messyFolder(in: directory)
        for command in [["render", "-o", directory.file("map.png").path], ["cluster", "--zoom", "3"]] {
            let result = try MapwrightProcess.run(command + ["--photos", folder.path, "--strict"])
            #expect(result.status == 2, "\(result.standardError)")
            #expect(
                result.standardError
                    == "mapwright: \(folder.path)/gone.jpg: cannot be read: it is a symbolic link to a missing file\n")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("map.png").path))
    }

    @Test func aFolderWithoutJPEGsSaysSoWithStatusOne() throws {
        let directory = try TemporaryDirectory()
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        _ = try directory.write("notes", to: "empty/notes.txt")
        for command in [["render", "-o", directory.file("map.png").path], ["cluster", "--zoom", "3"]] {
            let result = try MapwrightProcess.run(command + ["--photos", empty.path])
            #expect(result.status == 1, "\(result.standardError)")
            #expect(result.standardError == "mapwright: no photo files (JPEG, HEIC or raw) in \(empty.path)\n")
        }
    }
}
