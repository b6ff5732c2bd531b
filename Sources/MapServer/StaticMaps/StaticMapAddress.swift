import Foundation
import MapComposer
import MapCore
import MapRenderer
import MapStyle

/// A static map request, parsed from its URL: TileServer GL's and Mapbox's forms under
/// `/styles/NAME/static/`, and `/maps/photos.png`.
///
/// - `{lon},{lat},{zoom}[@{bearing}[,{pitch}]]/{w}x{h}[@2x|@3x].png`: a centre (longitude
///   first, as in the URL forms of both), zoom 0 to 24 (fractions allowed) in MapLibre's
///   convention, as both have it (zoom 0 puts the world in 512 points; `render --zoom 15` is
///   `…,14/…` here), bearing in degrees
///   clockwise (taken modulo 360), pitch in degrees from looking straight down, 0 to 80 (drawn in
///   perspective, with the sky above the horizon, as `render --pitch`).
/// - `{minx},{miny},{maxx},{maxy}/{w}x{h}[@2x].png`: a box, west, south, east, north (east < west
///   crosses the antimeridian), widened to the image's aspect.
/// - `auto/{w}x{h}[@2x].png`: framed to fit the photos, markers and paths, as `render` fits.
///
/// Sizes are points (CSS pixels, as in TileServer GL's and Mapbox's URLs), at most
/// ``maximumSidePoints`` a side, at a scale of 1 to 3 (`@2x`, `@3x`).
///
/// Query parameters (repeat `marker` and `path` for several):
/// - `marker=LON,LAT[|COLOR]`: a pin, in a colour name (red, green, purple) or hex (`ff8800`,
///   `%23ff8800`); the default is the style's pin colour.
/// - `path=[stroke:COLOR|][width:POINTS|][fill:COLOR|]LON,LAT|LON,LAT|…` or `…|enc:POLYLINE`
///   (Google's encoded polyline, precision 5, latitude first as that format has it): a line,
///   closed and filled when `fill` is given.
/// - `padding=RATIO`: room around a fitted or boxed map, as a part of the image's width and
///   height, as TileServer GL's `padding` (0 to 0.45; the content gets `1 / (1 + 2 × RATIO)` of
///   each side). The default is 0 beyond `render`'s own margin.
/// - `photographer=NAME`: only that photographer's photos (as written in the photos, ignoring
///   case); repeat for several.
/// - `select=first|ID|TITLE`: the photo whose callout is shown, as `render --select`.
struct StaticMapAddress: Hashable, Sendable {
    /// The largest side of a static map, in points: 2048 (6,144 pixels at @3x).
    static let maximumSidePoints = 2_048

    enum Framing: Hashable, Sendable {
        case center(Coordinate, zoomLevel: Double, bearingDegrees: Double, pitchDegrees: Double)
        case box(CoordinateRegion)
        case auto
    }

    var framing: Framing
    var size: ViewSize
    var scale: Int
    var query: StaticMapQuery

    /// Parses the two path parts after `static/`.
    static func parse(framing framingText: String, size sizeText: String, query: StaticMapQuery) throws(ServeError)
        -> StaticMapAddress
    {
        let (size, scale) = try parseSize(sizeText)
        let framing: Framing
        if framingText == "auto" {
            framing = .auto
        } else {
            let (numbersText, cameraText) = framingText.split(
                separator: "@", maxSplits: 1, omittingEmptySubsequences: false
            )
            .map(String.init).splitFirst()
            let numbers = try StaticMapQuery.numbers(numbersText, what: "'\(framingText)'")
            switch numbers.count {
            case 3:
                let coordinate = try StaticMapQuery.coordinate(
                    longitude: numbers[0], latitude: numbers[1], text: framingText)
                guard (0...Double(ServerConfiguration.maximumRequestZoom)).contains(numbers[2]) else {
                    throw .badRequest(
                        "zoom: \(StaticMapQuery.text(numbers[2])) in '\(framingText)' is not a zoom from 0 to 24")
                }
                var bearing = 0.0
                var pitch = 0.0
                if let cameraText {
                    let camera = try StaticMapQuery.numbers(cameraText, what: "bearing and pitch '\(cameraText)'")
                    guard (1...2).contains(camera.count) else {
                        throw .badRequest("'@\(cameraText)' is not @BEARING or @BEARING,PITCH in degrees")
                    }
                    bearing = camera[0].truncatingRemainder(dividingBy: 360)
                    if camera.count == 2 {
                        guard (0...Camera.maximumPitchDegrees).contains(camera[1]) else {
                            throw .badRequest(
                                "pitch: \(StaticMapQuery.text(camera[1])) is not from 0 to \(Int(Camera.maximumPitchDegrees)) degrees (0 looks straight down)"
                            )
                        }
                        pitch = camera[1]
                    }
                }
                framing = .center(coordinate, zoomLevel: numbers[2], bearingDegrees: bearing, pitchDegrees: pitch)
            case 4 where cameraText == nil:
                let (west, south, east, north) = (numbers[0], numbers[1], numbers[2], numbers[3])
                guard (-180...180).contains(west), (-180...180).contains(east) else {
                    throw .badRequest("'\(framingText)': longitudes must be from -180 to 180")
                }
                guard (-90...90).contains(south), (-90...90).contains(north) else {
                    throw .badRequest("'\(framingText)': latitudes must be from -90 to 90")
                }
                guard south < north else {
                    throw .badRequest(
                        "'\(framingText)': south \(StaticMapQuery.text(south)) is not below north \(StaticMapQuery.text(north))"
                    )
                }
                do throws(MapCoreError) {
                    framing = .box(try CoordinateRegion(west: west, south: south, east: east, north: north))
                } catch {
                    throw .badRequest("'\(framingText)': \(error)")
                }
            default:
                throw .badRequest("'\(framingText)' is not LON,LAT,ZOOM[@BEARING[,PITCH]], MINX,MINY,MAXX,MAXY or auto")
            }
        }
        return StaticMapAddress(framing: framing, size: size, scale: scale, query: query)
    }

    /// `{w}x{h}[@2x|@3x].png`.
    static func parseSize(_ text: String) throws(ServeError) -> (ViewSize, Int) {
        guard text.hasSuffix(".png") else {
            throw .badRequest("'\(text)' is not WIDTHxHEIGHT.png (or @2x.png, @3x.png)")
        }
        var body = String(text.dropLast(4))
        var scale = 1
        if let at = body.firstIndex(of: "@") {
            let suffix = body[at...]
            guard let value = ["@1x": 1, "@2x": 2, "@3x": 3][String(suffix)] else {
                throw .badRequest("scale: '\(suffix)' is not @2x or @3x")
            }
            scale = value
            body = String(body[..<at])
        }
        let sides = body.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]), width > 0, height > 0 else {
            throw .badRequest("size: '\(body)' is not WIDTHxHEIGHT in points, such as 600x400")
        }
        try checkSize(width: width, height: height)
        return (ViewSize(width: Double(width), height: Double(height)), scale)
    }

    static func checkSize(width: Int, height: Int) throws(ServeError) {
        let limit = maximumSidePoints
        guard width <= limit, height <= limit else {
            throw .badRequest("size: \(width)x\(height) is more than \(limit) a side")
        }
    }

    /// A canonical text of the request, for single flight and the response's identity.
    var canonicalText: String {
        "\(framing)|\(size.width)x\(size.height)@\(scale)|\(query.canonicalText)"
    }

    /// The photo map this address asks for.
    func photoMapRequest(style: Style, photos: ServedPhotos?) throws(ServeError) -> PhotoMapRequest {
        var request = photos?.request ?? PhotoMapRequest(photos: [], style: style)
        request.style = style
        request.size = size
        request.scale = Double(scale)
        switch framing {
        case .center(let center, let zoomLevel, let bearing, let pitch):
            // The URL's zoom is MapLibre's (TileServer GL's and Mapbox's), which counts 512-point
            // tiles; a viewport's counts 256-point ones: one more for the same scale.
            request.framing = .center(center, zoomLevel: zoomLevel + 1)
            request.headingDegrees = bearing
            request.pitchDegrees = pitch
        case .box(let region):
            request.framing = .region(region)
        case .auto:
            request.framing = .fitContent
        }
        try query.apply(to: &request)
        return request
    }
}

extension Array where Element == String {
    /// The first element and the second, if any.
    fileprivate func splitFirst() -> (String, String?) { (self[0], count > 1 ? self[1] : nil) }
}
