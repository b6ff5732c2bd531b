import ArgumentParser
import MapCore

/// Options that name an area of the world by its edges or its name: `--region`, `--bbox` and
/// `--place`. `render` adds the centre forms (``RegionOptions``); `cluster` queries the area.
struct AreaOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "The region, as LAT,LON,LATDELTA,LONDELTA in degrees.")
    var region: String?

    @Option(
        parsing: .unconditional,
        help: "The bounding box, as WEST,SOUTH,EAST,NORTH in degrees (EAST < WEST crosses the antimeridian).")
    var bbox: String?

    @Option(parsing: .unconditional, help: "A country or state/province name from the basemap.")
    var place: String?

    /// What the options name.
    enum Area: Equatable {
        case region(CoordinateRegion)
        case place(String)
    }

    /// How many of the options are given.
    var givenCount: Int { [region != nil, bbox != nil, place != nil].filter { $0 }.count }

    /// The area given, parsed; nil when none is.
    ///
    /// - Throws: `ValidationError` naming the option and the problem, or when more than one is given.
    func area() throws -> Area? {
        guard givenCount <= 1 else { throw ValidationError("choose one of --region, --bbox and --place") }
        if let region { return .region(try ArgumentValues.region(region)) }
        if let bbox { return .region(try ArgumentValues.boundingBox(bbox)) }
        if let place { return .place(place) }
        return nil
    }
}
