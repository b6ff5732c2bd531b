import Foundation
import HTTPTypes
import HummingbirdTesting
import ImageCodec
import ImageCompare
import MapComposer
import MapCore
import MapRenderer
import MapServer
import MapTestSupport
import PhotoSources
import Testing

/// Static maps, `/maps/photos.png` and the photo files: what they draw (checked against the
/// renderer and against Web Mercator by hand), the forms of their URLs, and every bad request.
@Suite struct StaticMapRoutesTests {
    /// The sample photos (three photographers, local JPEGs) with a white one-colour style.
    static func server(folder: TemporaryDirectory, photos: Bool = true) throws -> (MapTileServer, ServedStyle) {
        let style = try ServerFixtures.colourStyle("#ffffff")
        var served: ServedPhotos?
        if photos {
            let collection = try PhotoCollection.load(from: RepositoryFiles.samples.appendingPathComponent("photos"))
            served = ServedPhotos(
                request: PhotoMapRequest(photos: collection.photos, style: style.style),
                thumbnails: ThumbnailCache(directory: folder.url.appendingPathComponent("thumbnails")))
        }
        let server = ServerFixtures.server(ServerContent(styles: [style], photos: served), folder: folder)
        return (server, style)
    }

    /// The URL's zoom is MapLibre's: `…,7/…` is the renderer's (and `render --zoom`'s) zoom 8.
    @Test func aStaticMapIsTheRenderersMapOfTheSameRequest() async throws {
        let folder = try TemporaryDirectory()
        let (server, style) = try Self.server(folder: folder)
        let served = try await ServerFixtures.test(server) { client in
            try await client.execute(
                uri: "/styles/plain/static/-119.6,37.7,7@30/300x200@2x.png?select=first", method: .get
            ) { $0 }
        }
        #expect(served.status == .ok)
        #expect(served.headers[.contentType] == "image/png")
        var request = PhotoMapRequest(
            photos: try PhotoCollection.load(from: RepositoryFiles.samples.appendingPathComponent("photos")).photos,
            style: style.style,
            selection: .first, framing: .center(try Coordinate(latitude: 37.7, longitude: -119.6), zoomLevel: 8),
            size: ViewSize(width: 300, height: 200), scale: 2)
        request.headingDegrees = 30
        let builder = PhotoMapBuilder(
            data: style.data, thumbnails: ThumbnailCache(directory: folder.url.appendingPathComponent("thumbnails")))
        let expected = try MapSnapshotter(data: style.data).snapshot(try builder.options(for: request)).pngData(
            compressionLevel: 6, palette: false)
        let image = try served.image()
        #expect(image.width == 600 && image.height == 400)
        let difference = try compare(image, try RGBAImage(pngData: expected), options: DiffOptions())
        #expect(difference.differentPixels == 0)
    }

    /// `@BEARING,PITCH` draws the renderer's pitched map of the same request, sky included where
    /// the horizon shows.
    @Test func aPitchedStaticMapIsTheRenderersPitchedMap() async throws {
        let folder = try TemporaryDirectory()
        let (server, style) = try Self.server(folder: folder, photos: false)
        let served = try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/styles/plain/static/10,45,2@20,80/200x150.png", method: .get) { $0 }
        }
        #expect(served.status == .ok)
        var request = PhotoMapRequest(
            photos: [], style: style.style, framing: .center(try Coordinate(latitude: 45, longitude: 10), zoomLevel: 3),
            size: ViewSize(width: 200, height: 150))
        request.headingDegrees = 20
        request.pitchDegrees = 80
        let builder = PhotoMapBuilder(
            data: style.data, thumbnails: ThumbnailCache(directory: folder.url.appendingPathComponent("thumbnails")))
        let expected = try MapSnapshotter(data: style.data).snapshot(try builder.options(for: request)).image
        let image = try served.image()
        #expect(try compare(image, expected, options: DiffOptions()).differentPixels == 0)
        // The top row is sky, not the white map.
        #expect(image[x: 100, y: 0].blue > image[x: 100, y: 0].red)
    }

    /// A red path along the equator from 20° W to 20° E on a white map centred on 0,0 at the URL's
    /// zoom 1, MapLibre's (`render --zoom 2`): the world is 512 × 2¹ = 1024 points wide, so 20° is 1024 × 20 / 360 ≈ 56.9 points from the centre.
    @Test func pathsAndMarkersLandWhereWebMercatorPutsThem() async throws {
        let folder = try TemporaryDirectory()
        let (server, _) = try Self.server(folder: folder, photos: false)
        try await ServerFixtures.test(server) { client in
            let uri =
                "/styles/plain/static/0,0,1/256x256.png?path=stroke:ff0000%7Cwidth:6%7C-20,0%7C20,0&marker=0,-20%7C00ff00"
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                let image = try response.image()
                let red = RGBAPixel(red: 255, green: 0, blue: 0)
                for x in [80, 128, 180] { #expect(image[x: x, y: 128] == red, "x \(x) is on the path") }
                for x in [60, 196] {
                    #expect(image[x: x, y: 128] == RGBAPixel(red: 255, green: 255, blue: 255), "x \(x) is past its end")
                }
                #expect(
                    image[x: 128, y: 120] == RGBAPixel(red: 255, green: 255, blue: 255), "the line is 6 points wide")
                // 20° S is 1024 × ln(tan(45° + 10°)) / 2π ≈ 58.1 points below the centre, y ≈ 186.1: the
                // pin's needle ends there, its green head above.
                let tipY = 128 + 1024 * log(tan((45.0 + 10) * .pi / 180)) / (2 * .pi)
                let white = RGBAPixel(red: 255, green: 255, blue: 255)
                let drawn = (129..<256).filter { y in image[x: 128, y: y] != white }
                let lowest = try #require(drawn.max())
                #expect(
                    abs(Double(lowest) + 0.5 - tipY) <= 2, "the needle ends at \(lowest), the coordinate is at \(tipY)")
                let greenRows = (0..<256).filter { y in
                    let pixel = image[x: 128, y: y]
                    return pixel.green > 150 && pixel.red < 120 && pixel.blue < 120
                }
                #expect(!greenRows.isEmpty)
                #expect(
                    greenRows.allSatisfy { Double($0) < tipY - 10 },
                    "the green head \(greenRows) is above the tip at \(tipY)")
            }
        }
    }

    /// Google's documented example: `_p~iF~ps|U_ulLnnqC_mqNvxq`@` is (38.5, −120.2), (40.7, −120.95), (43.252, −126.453).
    @Test func encodedPolylinesDecodeAsGoogleDocumentsThem() async throws {
        let folder = try TemporaryDirectory()
        let (server, _) = try Self.server(folder: folder, photos: false)
        try await ServerFixtures.test(server) { client in
            // Fitted to the path alone: its ends are inside the image, the box around them fills it.
            let uri =
                "/styles/plain/static/auto/300x300.png?path=stroke:0000ff%7Cwidth:4%7Cenc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60@"
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                let image = try response.image()
                let blue = (0..<300).flatMap { y in (0..<300).map { (x: $0, y: y) } }.filter {
                    image[x: $0.x, y: $0.y].blue > 200 && image[x: $0.x, y: $0.y].red < 80
                }
                #expect(!blue.isEmpty)
                // The path runs from the south-east (38.5, −120.2) to the north-west (43.252, −126.453).
                let east = try #require(blue.max { $0.x < $1.x })
                let west = try #require(blue.min { $0.x < $1.x })
                #expect(east.y > west.y, "the eastern end is the southern one")
                #expect(east.x - west.x > 150, "the fitted path spans most of the width")
            }
        }
    }

    /// `padding=RATIO` frames a fitted map inside a box inset by RATIO/(1+2×RATIO) of each side:
    /// a blue path fitted to 300 × 300 spans nearly the whole width without padding, and stays
    /// inside the middle 200 × 200 with `padding=0.25` (50 points each side).
    @Test func paddingInsetsTheFittedContent() async throws {
        let folder = try TemporaryDirectory()
        let (server, _) = try Self.server(folder: folder, photos: false)
        let path = "/styles/plain/static/auto/300x300.png?path=stroke:0000ff%7Cwidth:4%7C-20,-10%7C20,10"
        let (unpadded, padded) = try await ServerFixtures.test(server) { client in
            let unpadded = try await client.execute(uri: path + "&padding=0", method: .get) { try $0.image() }
            let padded = try await client.execute(uri: path + "&padding=0.25", method: .get) { try $0.image() }
            return (unpadded, padded)
        }
        func bluePixels(_ image: RGBAImage) -> (xs: ClosedRange<Int>, ys: ClosedRange<Int>)? {
            let blue = (0..<image.height).flatMap { y in (0..<image.width).map { (x: $0, y: y) } }
                .filter { image[x: $0.x, y: $0.y].blue > 200 && image[x: $0.x, y: $0.y].red < 80 }
            guard let left = blue.map(\.x).min(), let right = blue.map(\.x).max(), let top = blue.map(\.y).min(),
                let bottom = blue.map(\.y).max()
            else { return nil }
            return (left...right, top...bottom)
        }
        let wide = try #require(bluePixels(unpadded))
        let inset = try #require(bluePixels(padded))
        #expect(wide.xs.count > 250, "without padding the path spans \(wide.xs) of 300 points")
        // The stroke's half width (2 points) and antialiasing may reach past the box's edge.
        #expect(
            inset.xs.lowerBound >= 50 - 4 && inset.xs.upperBound <= 250 + 4,
            "with padding=0.25 the path spans \(inset.xs), inside 50...250")
        #expect(inset.ys.lowerBound >= 50 - 4 && inset.ys.upperBound <= 250 + 4, "and \(inset.ys) down")
        #expect(inset.xs.count > 150, "the padded box is still filled: \(inset.xs)")
    }

    @Test func theMainJobOverHTTPFiltersByPhotographerAndSelects() async throws {
        let folder = try TemporaryDirectory()
        let (server, _) = try Self.server(folder: folder)
        try await ServerFixtures.test(server) { client in
            try await client.execute(
                uri: "/maps/photos.png?photographer=ansel%20adams&select=first&size=600x400&scale=2", method: .get
            ) { response in
                #expect(response.status == .ok)
                let image = try response.image()
                #expect(image.width == 1200 && image.height == 800)
            }
            try await client.execute(uri: "/maps/photos.png", method: .get) { response in
                let image = try response.image()
                #expect(image.width == 1200 && image.height == 800, "render's default size")
            }
        }
    }

    @Test func photoThumbnailsAndImages() async throws {
        let folder = try TemporaryDirectory()
        let (server, _) = try Self.server(folder: folder)
        let photo = try #require(
            try PhotoCollection.load(from: RepositoryFiles.samples.appendingPathComponent("photos")).photos.first)
        guard case .file(let file)? = photo.image else {
            Issue.record("the sample photo is not a local file")
            return
        }
        let encoded =
            photo.id.addingPercentEncoding(
                withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? photo.id
        try await ServerFixtures.test(server) { client in
            for (uri, side) in [
                ("/photos/\(encoded)/thumbnail.jpg", 92), ("/photos/\(photo.id)/thumbnail.jpg?size=46", 46),
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.headers[.contentType] == "image/jpeg")
                    let image = try RGBAImage(jpegData: response.data)
                    #expect(image.width == side && image.height == side)
                }
            }
            try await client.execute(uri: "/photos/\(encoded)/image", method: .get) { response in
                #expect(response.status == .ok)
                let bytes = try Data(contentsOf: file)
                #expect(response.data == bytes)
            }
        }
    }

    @Test(arguments: [
        ("/styles/plain/static/0,0,2/3000x100.png", 400, "size: 3000x100 is more than 2048 a side\n"),
        ("/styles/plain/static/0,0,2/100x2049@2x.png", 400, "size: 100x2049 is more than 2048 a side\n"),
        ("/maps/photos.png?size=2100x100", 400, "size: 2100x100 is more than 2048 a side\n"),
        ("/styles/plain/static/0,0,2/100x100@4x.png", 400, "scale: '@4x' is not @2x or @3x\n"),
        ("/styles/plain/static/0,0,2/0x100.png", 400, "size: '0x100' is not WIDTHxHEIGHT in points, such as 600x400\n"),
        (
            "/styles/plain/static/0,0,2/100x100.jpg", 400,
            "'100x100.jpg' is not WIDTHxHEIGHT.png (or @2x.png, @3x.png)\n"
        ),
        ("/styles/plain/static/0,0,30/100x100.png", 400, "zoom: 30 in '0,0,30' is not a zoom from 0 to 24\n"),
        (
            "/styles/plain/static/0,95,2/100x100.png", 400,
            "'0,95,2': longitude 0, latitude 95 is not a place (longitude first, -180 to 180; latitude -90 to 90)\n"
        ),
        (
            "/styles/plain/static/0,0,2@10,85/100x100.png", 400,
            "pitch: 85 is not from 0 to 80 degrees (0 looks straight down)\n"
        ),
        (
            "/styles/plain/static/0,0,2@10,-5/100x100.png", 400,
            "pitch: -5 is not from 0 to 80 degrees (0 looks straight down)\n"
        ),
        ("/styles/plain/static/0,50,10,40/100x100.png", 400, "'0,50,10,40': south 50 is not below north 40\n"),
        ("/styles/plain/static/a,b/100x100.png", 400, "'a,b': 'a' is not a number\n"),
        ("/styles/plain/static/0,0,2/100x100.png?marker=1", 400, "marker: '1' is not LON,LAT[|COLOR]\n"),
        (
            "/styles/plain/static/0,0,2/100x100.png?marker=1,2%7Cnocolour", 400,
            "marker: 'nocolour' is not a colour (red, green, purple, or hex such as ff8800)\n"
        ),
        ("/styles/plain/static/0,0,2/100x100.png?path=1,2", 400, "path: '1,2' has fewer than two points\n"),
        (
            "/styles/plain/static/0,0,2/100x100.png?path=enc:_p~iF~ps", 400,
            "path: 'enc:_p~iF~ps' is not an encoded polyline (it ends inside a number)\n"
        ),
        ("/styles/plain/static/0,0,2/100x100.png?padding=0.9", 400, "padding: '0.9' is not a ratio from 0 to 0.45\n"),
        (
            "/styles/plain/static/0,0,2/100x100.png?photographer=Nobody", 400,
            "photographer: no photos by 'Nobody'; photographers found: Ansel Adams, Dorothea Lange, 李明\n"
        ),
        (
            "/styles/plain/static/0,0,2/100x100.png?select=zzzz", 400,
            "select: no photo has the id or title 'zzzz', or a title starting with or containing it\n"
        ),
        (
            "/styles/plain/static/0,0,2", 404,
            "static maps are /styles/NAME/static/LON,LAT,ZOOM/WxH.png, …/MINX,MINY,MAXX,MAXY/WxH.png or …/auto/WxH.png\n"
        ),
        ("/styles/nope/static/0,0,2/100x100.png", 404, "no style named 'nope'\n"),
        ("/maps/photos.png?scale=5", 400, "scale: '5' is not 1, 2 or 3\n"),
        ("/maps/photos.png?style=dark", 400, "style: no style named 'dark' is served\n"),
        ("/photos/nope/thumbnail.jpg", 404, "no photo with id 'nope'\n"),
        ("/photos/nope", 404, "photos are /photos/ID/thumbnail.jpg or /photos/ID/image\n"),
    ])
    func badRequestsAreOneLine(uri: String, status: Int, message: String) async throws {
        let folder = try TemporaryDirectory()
        let (server, _) = try Self.server(folder: folder)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(Int(response.status.code) == status, "\(uri)")
                #expect(response.text == message, "\(uri)")
            }
        }
    }

    @Test func withoutPhotosAFittedMapNeedsSomethingToShow() async throws {
        let folder = try TemporaryDirectory()
        let (server, _) = try Self.server(folder: folder, photos: false)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/styles/plain/static/auto/100x100.png", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(response.text == "nothing to show: give marker= or path=, a centre or a box, or serve photos\n")
            }
            try await client.execute(uri: "/photos/x/image", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.text == "no photos are served (start with --photos)\n")
            }
        }
    }
}
