import ArgumentParser
import Foundation
import MapCore

/// Options that choose what part of the world a render shows. Without any, the render fits
/// everything it shows (MapKit's showAnnotations).
struct RegionOptions: ParsableArguments {
    @OptionGroup var area: AreaOptions

    @Option(
        parsing: .unconditional, help: "The centre of the map, as LAT,LON; with --zoom or --span.",
        transform: ArgumentValues.coordinate)
    var center: Coordinate?

    @Option(
        parsing: .unconditional, help: "The zoom level at the centre, from 0 to 30 (fractions allowed), with --center.")
    var zoom: Double?

    @Option(
        parsing: .unconditional,
        help:
            "The span around --center, as LATDELTA,LONDELTA in degrees: LATDELTA more than 0 and at most 180, LONDELTA more than 0 and at most 360."
    )
    var span: String?

    @Option(
        parsing: .unconditional,
        help:
            "The map's heading in degrees clockwise from north (north is then turned left); any value, taken modulo 360. The default is 0, north up."
    )
    var heading: Double?

    @Option(
        parsing: .unconditional,
        help:
            "The camera's pitch in degrees from looking straight down, 0 to 80: the map is drawn in perspective, far parts smaller, with the sky above the horizon when it shows. The default is 0, flat."
    )
    var pitch: Double?

    @Option(
        parsing: .unconditional,
        help:
            "The camera's height above the ground in meters, with --center instead of --zoom (MapKit's camera altitude; with --pitch the eye is lower for the same view)."
    )
    var altitude: Double?

    @Option(
        parsing: .unconditional,
        help:
            "Where the eye is, as LAT,LON,ALTITUDE_M, looking at --center (MapKit's camera looking at a centre from an eye coordinate); it sets the heading, pitch and altitude."
    )
    var eye: String?

    /// What the options ask for.
    enum Choice: Equatable {
        case fitContent
        case region(CoordinateRegion)
        case centerZoom(Coordinate, Double)
        case place(String)
        /// A camera given by its altitude or its eye (`--altitude`, `--eye`), heading and pitch included.
        case camera(Camera)
    }

    /// Checks that at most one way of choosing the region is given, and parses it.
    ///
    /// - Throws: `ValidationError` naming the option and the problem.
    func choice() throws -> Choice {
        guard area.givenCount + (center != nil ? 1 : 0) <= 1 else {
            throw ValidationError("choose one of --region, --center, --bbox and --place")
        }
        if let heading, !heading.isFinite { throw ValidationError("--heading: \(heading) is not a number of degrees") }
        if let pitch {
            guard pitch.isFinite, (0...Camera.maximumPitchDegrees).contains(pitch) else {
                throw ValidationError(
                    "--pitch: \(ArgumentValues.number(pitch)) is not from 0 to \(Int(Camera.maximumPitchDegrees)) degrees (0 looks straight down)"
                )
            }
        }
        let cameraOptions = [
            (zoom != nil, "--zoom"), (span != nil, "--span"), (altitude != nil, "--altitude"), (eye != nil, "--eye"),
        ]
        .filter(\.0).map(\.1)
        if !cameraOptions.isEmpty, center == nil {
            throw ValidationError(
                "\(cameraOptions.joined(separator: " and ")) \(cameraOptions.count == 1 ? "needs" : "need") --center")
        }
        if cameraOptions.count > 1 { throw ValidationError("choose one of --zoom, --span, --altitude and --eye") }
        if eye != nil, heading != nil || pitch != nil {
            throw ValidationError(
                "--eye sets the heading and the pitch (the eye looks at --center): leave out --heading and --pitch")
        }
        switch try area.area() {
        case .region(let region)?: return .region(region)
        case .place(let name)?: return .place(name)
        case nil: break
        }
        if let center {
            if let span {
                return .region(try ArgumentValues.region(center: center, span: span))
            }
            if let altitude {
                guard altitude.isFinite, altitude > 0 else {
                    throw ValidationError(
                        "--altitude: \(ArgumentValues.number(altitude)) m is not above the ground: give the camera's height in meters, more than 0"
                    )
                }
                return .camera(
                    try ArgumentValues.named("--altitude") {
                        try Camera(
                            centerCoordinate: center, headingDegrees: heading ?? 0, pitchDegrees: pitch ?? 0,
                            altitudeMeters: altitude)
                    })
            }
            if let eye {
                let (position, eyeAltitude) = try ArgumentValues.eye(eye)
                do {
                    return .camera(try Camera(lookingAt: center, fromEye: position, eyeAltitudeMeters: eyeAltitude))
                } catch {
                    let pitch = atan2(position.distance(to: center), eyeAltitude) * 180 / .pi
                    throw ValidationError(
                        "--eye: from \(ArgumentValues.kilometers(position.distance(to: center))) away and \(ArgumentValues.number(eyeAltitude)) m up, "
                            + "--center is seen at a pitch of \(ArgumentValues.number((pitch * 10).rounded() / 10)) degrees, more than "
                            + "\(Int(Camera.maximumPitchDegrees)): raise the eye or bring it nearer")
                }
            }
            guard let zoom else { throw ValidationError("--center needs --zoom, --span, --altitude or --eye") }
            guard zoom.isFinite, Viewport.zoomLevelRange.contains(zoom) else {
                throw ValidationError("--zoom: \(ArgumentValues.number(zoom)) is not a zoom level from 0 to 30")
            }
            return .centerZoom(center, zoom)
        }
        return .fitContent
    }
}
