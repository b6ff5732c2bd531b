import ArgumentParser
import Foundation
import MapAssembly

/// Which style a map is drawn in, and where styles and the basemap are found: `--style`,
/// `--raster-source`, `--styles-directory` and `--basemap-directory`, shared by `render` and
/// `tiles export`.
struct StyleOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help:
            "A style name from the styles folder (standard, muted, dark, satellite, hybrid; streets, streets-muted, streets-dark with --vector-source) or a style JSON file."
    )
    var style: String = StyleOptions.defaultStyle

    /// The style drawn without `--style`: `standard`.
    static let defaultStyle = "standard"

    @Option(
        parsing: .unconditional,
        help:
            "Imagery for the satellite and hybrid styles: a tile URL template with {z}, {x} and {y} (also {s}, {r}) or an .mbtiles or .pmtiles file."
    )
    var rasterSource: String?

    @Option(
        parsing: .unconditional,
        help:
            "Vector tiles for the styles that draw them (streets): an OpenMapTiles-schema .mbtiles or .pmtiles file, such as Samples/helsinki/helsinki.mbtiles."
    )
    var vectorSource: String?

    @Option(
        parsing: .unconditional,
        help:
            "The folder of named styles; by default $MAPWRIGHT_DATA/Styles, then the installed, user and checkout data (docs/data-and-caches.md)."
    )
    var stylesDirectory: String?

    @Option(
        parsing: .unconditional,
        help:
            "The folder holding the bundled basemap; by default $MAPWRIGHT_DATA/Tiles/basemap, then the installed, user and checkout data."
    )
    var basemapDirectory: String?

    /// Where the style and its data come from, for the assembly.
    var inputs: MapInputs {
        MapInputs(
            rasterSource: rasterSource, vectorSource: vectorSource, stylesDirectory: stylesDirectory,
            basemapDirectory: basemapDirectory)
    }
}
