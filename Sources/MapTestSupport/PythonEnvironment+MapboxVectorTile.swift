extension PythonEnvironment {
    /// PyPI's `mapbox-vector-tile` at major version 2 (an encoder and decoder of Mapbox Vector
    /// Tiles over Google's protobuf package), in `test-python/mapbox-vector-tile-2`: the outside
    /// reference of the vector tile tests and of the server's `/data` tiles.
    public static let mapboxVectorTile = PythonEnvironment(
        name: "mapbox-vector-tile-2",
        requirements: ["mapbox-vector-tile>=2,<3"],
        check: "import mapbox_vector_tile"
    )
}
