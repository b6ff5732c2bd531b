import Foundation
import ImageCodec
import MapCore
import MapTestSupport
import Testing

/// `render`'s camera as people type it (`--pitch`, `--heading`, `--altitude`, `--eye`, negative
/// values plainly), and `flyover`, from a folder of their own; each mistake one line naming the
/// option, with nothing written.
struct CameraCommandTests {
    private func run(_ arguments: [String], in folder: TemporaryDirectory) throws -> MapwrightProcess.Output {
        try MapwrightProcess.run(arguments, in: folder.url)
    }

    @Test func pitchedRenderOfTheSouthernHemisphereFromAnotherFolder() throws {
        let folder = try TemporaryDirectory()
        let flat = try run(
            ["render", "--center", "-33.9,18.4", "--zoom", "9", "--size", "300x200", "-o", "flat.png"], in: folder)
        let pitched = try run(
            [
                "render", "--center", "-33.9,18.4", "--zoom", "9", "--heading", "-30", "--pitch", "60", "--size",
                "300x200", "-o", "cape town 3d.png",
            ],
            in: folder)
        #expect(flat.status == 0 && pitched.status == 0, "\(flat.standardError)\(pitched.standardError)")
        let image = try RGBAImage(contentsOf: folder.file("cape town 3d.png"))
        #expect(image.width == 300 && image.height == 200)
        #expect(image != (try RGBAImage(contentsOf: folder.file("flat.png"))))
    }

    /// An eye straight above the centre looks straight down: the same map as `--altitude` at its
    /// height. An eye 1 km south and 1 km up looks north at 45 degrees (MapKit's camera(lookingAtCenter:fromEyeCoordinate:eyeAltitude:)).
    @Test func eyeCameraIsMapKitsLookingAtCamera() throws {
        let folder = try TemporaryDirectory()
        let center = try Coordinate(latitude: 48.8584, longitude: 2.2945)
        func render(_ camera: [String], _ name: String) throws -> RGBAImage {
            let result = try run(
                ["render", "--center", "48.8584,2.2945", "--size", "240x160", "-o", name] + camera, in: folder)
            #expect(result.status == 0, "\(result.standardError)")
            return try RGBAImage(contentsOf: folder.file(name))
        }
        let above = try render(["--eye", "48.8584,2.2945,3000"], "above.png")
        #expect(above == (try render(["--altitude", "3000"], "altitude.png")))

        // 1 km due south: one kilometre of latitude on the mean sphere.
        let south = center.latitude - 1000 / (Earth.meanRadiusMeters * .pi / 180)
        let tilted = try render(["--eye", "\(south),2.2945,1000"], "eye.png")
        let expected = try render(["--altitude", "1000", "--pitch", "45", "--heading", "0"], "pitch45.png")
        // The geodesic distance rounds the pitch a hair off 45 degrees: nearly every pixel agrees.
        let differing = stride(from: 0, to: tilted.pixels.count, by: 4).filter { index in
            (0..<3).contains { abs(Int(tilted.pixels[index + $0]) - Int(expected.pixels[index + $0])) > 8 }
        }.count
        #expect(Double(differing) < 0.01 * Double(tilted.width * tilted.height), "\(differing) pixels differ")
    }

    @Test(arguments: [
        (
            ["--center", "48.85,2.35", "--zoom", "10", "--pitch", "85"],
            "mapwright: --pitch: 85 is not from 0 to 80 degrees (0 looks straight down)"
        ),
        (
            ["--center", "48.85,2.35", "--zoom", "10", "--pitch", "-10"],
            "mapwright: --pitch: -10 is not from 0 to 80 degrees (0 looks straight down)"
        ),
        (
            ["--center", "48.85,2.35", "--zoom", "10", "--pitch", "nan"],
            "mapwright: --pitch: nan is not from 0 to 80 degrees (0 looks straight down)"
        ),
        (
            ["--center", "48.85,2.35", "--altitude", "0"],
            "mapwright: --altitude: 0 m is not above the ground: give the camera's height in meters, more than 0"
        ),
        (["--altitude", "1000"], "mapwright: --altitude needs --center"),
        (
            ["--center", "48.85,2.35", "--zoom", "10", "--altitude", "1000"],
            "mapwright: choose one of --zoom, --span, --altitude and --eye"
        ),
        (
            ["--center", "48.85,2.35", "--altitude", "0.001"],
            "mapwright: --altitude: 0.001 m is so low that the map would be closer than zoom 30: raise the camera"
        ),
        (
            ["--center", "48.85,2.35", "--eye", "48.80,2.35,-5"],
            "mapwright: --eye: ALTITUDE_M -5 is at or below the ground: the eye must be above it (meters, more than 0)"
        ),
        (
            ["--center", "48.85,2.35", "--eye", "48.80,2.35,0"],
            "mapwright: --eye: ALTITUDE_M 0 is at or below the ground: the eye must be above it (meters, more than 0)"
        ),
        (
            ["--center", "48.85,2.35", "--eye", "44.0,2.35,1000"],
            "mapwright: --eye: from 539 km away and 1000 m up, --center is seen at a pitch of 89.9 degrees, more than 80: raise the eye or bring it nearer"
        ),
        (
            ["--center", "48.85,2.35", "--eye", "48.80,2.35,1000", "--pitch", "30"],
            "mapwright: --eye sets the heading and the pitch (the eye looks at --center): leave out --heading and --pitch"
        ),
        (
            ["--center", "48.85,2.35", "--eye", "48.80,2.35"],
            "mapwright: --eye: expected LAT,LON,ALTITUDE_M (3 numbers in degrees and meters, separated by commas), e.g. 48.85,2.27,1500; got '48.80,2.35'"
        ),
    ])
    func cameraMistakesAreOneLine(arguments: [String], message: String) throws {
        let folder = try TemporaryDirectory()
        let result = try run(["render"] + arguments + ["-o", "map.png"], in: folder)
        #expect(result.status == 2)
        #expect(result.standardError == message + "\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "nothing written")
    }

    @Test func headingAndPitchFrameAPlace() throws {
        let folder = try TemporaryDirectory()
        let result = try run(
            [
                "render", "--place", "Iceland", "--heading", "90", "--pitch", "40", "--size", "320x240", "-o",
                "iceland.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.file("iceland.png").path))
    }

    // MARK: - Fly-over

    /// The number of frames an animated PNG declares (its acTL chunk).
    private func animationFrameCount(_ url: URL) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: url))
        let marker = Array("acTL".utf8)
        let index = try #require((8..<bytes.count - 8).first { Array(bytes[$0..<$0 + 4]) == marker })
        return bytes[(index + 4)..<(index + 8)].reduce(0) { $0 << 8 | Int($1) }
    }

    @Test func flyoverToAnAnimatedPNGWithCamerasBesideIt() throws {
        let folder = try TemporaryDirectory()
        let result = try run(
            [
                "flyover", "--from", "-33.9249,18.4241@10", "--to", "-26.2,28.04@9", "--to-pitch", "45", "--frames",
                "6", "--size", "160x120",
                "-o", "my flight.png",
            ], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasPrefix("wrote 6 frames of 160x120"), "\(result.standardOutput)")
        #expect(try animationFrameCount(folder.file("my flight.png")) == 6)
        let cameras = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.file("my flight.cameras.json")))
                as? [String: Any])
        let frames = try #require(cameras["frames"] as? [[String: Any]])
        #expect(frames.count == 6)
        #expect(frames.first?["latitude"] as? Double == -33.9249 && frames.first?["zoom"] as? Double == 10)
        #expect(frames.last?["longitude"] as? Double == 28.04 && frames.last?["pitch"] as? Double == 45)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == [
                "my flight.cameras.json", "my flight.png",
            ])
    }

    @Test func flyoverToAFolderOfFramesBetweenNamedPlaces() throws {
        let folder = try TemporaryDirectory()
        let result = try run(
            [
                "flyover", "--from", "Portugal", "--to", "bbox:-10,35,5,45", "--duration", "0.4", "--fps", "10",
                "--size", "120x90", "-o", "frames/",
            ],
            in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.file("frames").path).sorted()
        #expect(names == ["cameras.json", "frame-00001.png", "frame-00002.png", "frame-00003.png", "frame-00004.png"])
        #expect(try RGBAImage(contentsOf: folder.file("frames/frame-00004.png")).width == 120)

        // A shorter flight into the same folder leaves its own frames only; other files stay.
        try Data("notes".utf8).write(to: folder.file("frames/notes.txt"))
        let again = try run(
            ["flyover", "--from", "Portugal", "--to", "Spain", "--frames", "2", "--size", "120x90", "-o", "frames/"],
            in: folder)
        #expect(again.status == 0, "\(again.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.file("frames").path).sorted()
        #expect(left == ["cameras.json", "frame-00001.png", "frame-00002.png", "notes.txt"])
    }

    /// `flyover` takes render's photo options: accuracy circles and a marker image change the frames.
    @Test func flyoverDrawsAccuracyCirclesAndMarkerImages() throws {
        let folder = try TemporaryDirectory()
        // Vernal Fall, whose EXIF gives a horizontal accuracy of 12 m: about 50 points at zoom 19.
        try FileManager.default.createDirectory(at: folder.file("photos"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: RepositoryFiles.samples.appendingPathComponent("photos/ansel-adams/vernal-fall.jpg"),
            to: folder.file("photos/vernal-fall.jpg"))
        var marker = RGBAImage(width: 32, height: 32)
        for y in 0..<32 { for x in 0..<32 { marker[x: x, y: y] = RGBAPixel(red: 0, green: 200, blue: 0, alpha: 255) } }
        try marker.writePNG(to: folder.file("marker.png"))
        func frame(_ extra: [String], _ name: String) throws -> RGBAImage {
            let result = try run(
                [
                    "flyover", "--photos", "photos", "--from", "37.7276,-119.5446@19", "--to", "37.7277,-119.5446@19",
                    "--frames", "2", "--size", "160x120",
                    "--no-cluster", "-o", "\(name)/",
                ] + extra, in: folder)
            #expect(result.status == 0, "\(result.standardError)")
            return try RGBAImage(contentsOf: folder.file("\(name)/frame-00001.png"))
        }
        let plain = try frame([], "plain")
        #expect(try frame(["--show-accuracy"], "accuracy") != plain)
        let marked = try frame(["--marker-image", "marker.png"], "marked")
        let green = marked.pixels.withUnsafeBufferPointer { pixels in
            stride(from: 0, to: pixels.count, by: 4).filter {
                pixels[$0] == 0 && pixels[$0 + 1] == 200 && pixels[$0 + 2] == 0
            }.count
        }
        #expect(green >= 16 * 16 / 2, "\(green) marker pixels")
    }

    @Test(
        arguments: [
            (
                ["--from", "48.85,2.35@40", "--to", "Germany"],
                "mapwright: --from: ZOOM '40' in '48.85,2.35@40' is not a zoom level from 0 to 30 (the form is LAT,LON@ZOOM, e.g. 48.85,2.35@11)"
            ),
            (
                ["--from", "48.85,2.35", "--to", "Germany"],
                "mapwright: --from: '48.85,2.35' is not LAT,LON@ZOOM (e.g. 48.85,2.35@11), LAT,LON,LATDELTA,LONDELTA (e.g. 48.85,2.35,0.2,0.3), bbox:WEST,SOUTH,EAST,NORTH or a place name"
            ),
            (
                ["--from", "France", "--to", "bbox:0,50,10,40"],
                "mapwright: --to: SOUTH 50 is north of NORTH 40 (the order is WEST,SOUTH,EAST,NORTH)"
            ),
            (["--from", "France", "--to", "Lilliput"], nil),
            (
                ["--from", "France", "--to", "Germany", "--frames", "1"],
                "mapwright: --frames: 1 is not a frame count from 2 to 10000"
            ),
            (
                ["--from", "France", "--to", "Germany", "--frames", "10", "--duration", "2"],
                "mapwright: choose one of --frames and --duration"
            ),
            (
                ["--from", "France", "--to", "Germany", "--to-pitch", "90"],
                "mapwright: --to-pitch: 90 is not from 0 to 80 degrees (0 looks straight down)"
            ),
            (
                ["--from", "France", "--to", "Germany", "-o", "flight.gif"],
                "mapwright: --output: 'flight.gif' must end in .png (an animated PNG) or .mp4 (a video), or be a folder ending in / (numbered frames)"
            ),
            (
                ["--from", "France", "--to", "Germany", "-o", "missing/flight.png"],
                "mapwright: --output: cannot write 'missing/flight.png': the folder missing does not exist"
            ),
        ] as [([String], String?)])
    func flyoverMistakesAreOneLine(arguments: [String], message: String?) throws {
        let folder = try TemporaryDirectory()
        let output = arguments.contains("-o") ? [] : ["-o", "flight.png"]
        let result = try run(["flyover", "--size", "100x80"] + arguments + output, in: folder)
        #expect(result.status == 2)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        if let message {
            #expect(result.standardError == message + "\n")
        } else {
            #expect(
                result.standardError.hasPrefix("mapwright: --to: 'Lilliput' is not LAT,LON@ZOOM"),
                "\(result.standardError)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "nothing written")
    }
}
