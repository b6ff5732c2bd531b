import ArgumentParser
import MapCore

/// Options that place a camera over a view: centre, zoom, size, scale, heading and pitch.
struct CameraOptions: ParsableArguments {
    @Option(
        parsing: .unconditional, help: "The coordinate at the centre of the view, as LAT,LON in degrees.",
        transform: ArgumentValues.coordinate)
    var center: Coordinate

    @Option(parsing: .unconditional, help: "The zoom level at the centre, 0 to 30 (fractions allowed).")
    var zoom: Double

    @Option(
        parsing: .unconditional, help: "The view's size in points, as WIDTHxHEIGHT.", transform: ArgumentValues.size)
    var size: ViewSize

    @Option(
        parsing: .unconditional,
        help: "Pixels per point, from 1 to 4 (fractions allowed); view points do not depend on it.")
    var scale: Double = 1

    @Option(
        parsing: .unconditional,
        help: "The camera's heading in degrees clockwise from true north; any value, taken modulo 360.")
    var heading: Double = 0

    @Option(parsing: .unconditional, help: "The camera's pitch in degrees from straight down, 0 to 80.")
    var pitch: Double = 0

    /// The viewport these options describe.
    ///
    /// - Throws: `ValidationError` naming the option whose value is out of range.
    func viewport() throws -> Viewport {
        do {
            return try Viewport(
                center: center, zoomLevel: zoom, size: size, scale: scale,
                headingDegrees: heading, pitchDegrees: pitch
            )
        } catch {
            let option: String
            switch error {
            case .invalidZoomLevel: option = "--zoom"
            case .invalidScale(let value):
                throw ValidationError("--scale: \(ArgumentValues.number(value)) is not from 1 to 4")
            case .invalidCamera(let name, _, _): option = name == "pitch" ? "--pitch" : "--heading"
            default: option = "--size"
            }
            throw ValidationError("\(option): \(error)")
        }
    }
}
