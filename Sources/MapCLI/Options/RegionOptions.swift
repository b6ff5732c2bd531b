import ArgumentParser
import MapCore

/// Options that choose what part of the world a render shows. Without any, the render fits
/// everything it shows (MapKit's showAnnotations).
struct RegionOptions: ParsableArguments {
    @OptionGroup var area: AreaOptions

    @Option(parsing: .unconditional, help: "The centre of the map, as LAT,LON; with --zoom or --span.", transform: ArgumentValues.coordinate)
    var center: Coordinate?

    @Option(parsing: .unconditional, help: "The zoom level at the centre, from 0 to 30 (fractions allowed), with --center.")
    var zoom: Double?

    @Option(parsing: .unconditional, help: "The span around --center, as LATDELTA,LONDELTA in degrees: LATDELTA more than 0 and at most 180, LONDELTA more than 0 and at most 360.")
    var span: String?

    @Option(parsing: .unconditional, help: "The map's heading in degrees clockwise from north (north is then turned left), with --center and --zoom; any value, taken modulo 360. The default is 0, north up.")
    var heading: Double?

    /// What the options ask for.
    enum Choice: Equatable {
        case fitContent
        case region(CoordinateRegion)
        case centerZoom(Coordinate, Double)
        case place(String)
    }

    /// Checks that at most one way of choosing the region is given, and parses it.
    ///
    /// - Throws: `ValidationError` naming the option and the problem.
    func choice() throws -> Choice {
        guard area.givenCount + (center != nil ? 1 : 0) <= 1 else {
            throw ValidationError("choose one of --region, --center, --bbox and --place")
        }
        if zoom != nil || span != nil, center == nil { throw ValidationError("--zoom and --span need --center") }
        if zoom != nil, span != nil { throw ValidationError("choose one of --zoom and --span") }
        if let heading {
            guard center != nil, zoom != nil else { throw ValidationError("--heading needs --center and --zoom") }
            guard heading.isFinite else { throw ValidationError("--heading: \(heading) is not a number of degrees") }
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
            guard let zoom else { throw ValidationError("--center needs --zoom or --span") }
            guard zoom.isFinite, Viewport.zoomLevelRange.contains(zoom) else {
                throw ValidationError("--zoom: \(ArgumentValues.number(zoom)) is not a zoom level from 0 to 30")
            }
            return .centerZoom(center, zoom)
        }
        return .fitContent
    }
}
