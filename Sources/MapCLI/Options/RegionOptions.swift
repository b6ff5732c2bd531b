import ArgumentParser
import MapCore

/// Options that choose what part of the world a render shows. Without any, the render fits
/// everything it shows (MapKit's showAnnotations).
struct RegionOptions: ParsableArguments {
    @OptionGroup var area: AreaOptions

    @Option(help: "The centre of the map, as LAT,LON; with --zoom or --span.", transform: ArgumentValues.coordinate)
    var center: Coordinate?

    @Option(help: "The zoom level at the centre (0 to 30), with --center.")
    var zoom: Double?

    @Option(help: "The span around --center, as LATDELTA,LONDELTA in degrees.")
    var span: String?

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
        switch try area.area() {
        case .region(let region)?: return .region(region)
        case .place(let name)?: return .place(name)
        case nil: break
        }
        if let center {
            if let span {
                let numbers = try ArgumentValues.doubles(span, count: 2, format: "--span LATDELTA,LONDELTA")
                return .region(try ArgumentValues.naming("--span") {
                    CoordinateRegion(center: center, span: try CoordinateSpan(latitudeDelta: numbers[0], longitudeDelta: numbers[1]))
                })
            }
            guard let zoom else { throw ValidationError("--center needs --zoom or --span") }
            guard zoom.isFinite, Viewport.zoomLevelRange.contains(zoom) else {
                throw ValidationError("--zoom: zoom level \(zoom) is outside [0, 30]")
            }
            return .centerZoom(center, zoom)
        }
        return .fitContent
    }
}
